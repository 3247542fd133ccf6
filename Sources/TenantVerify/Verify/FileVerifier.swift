import Foundation

/// A finding of `verify` (the one ``Finding`` type audit shares).
public typealias VerifyFinding = Finding

/// Checks that need only the files: `.gitmodules` agrees with `modules.json`, effective active sets.
public enum FileVerifier {
    /// Compares `.gitmodules` (as read on `where`) with the manifest: every module has a submodule with the same
    /// path and URL, and there is no submodule the manifest does not know. `moved`: module name → the path this
    /// branch has the module at instead (``ModuleLocator``; reported as `moved-path`, not as drift).
    public static func gitmodulesDrift(
        project: Project, gitmodules: [GitmodulesEntry], where label: String, moved: [String: String] = [:]
    ) -> [VerifyFinding] {
        var findings: [VerifyFinding] = []
        let byPath = Dictionary(
            gitmodules.compactMap { entry in entry.path.map { ($0, entry) } }, uniquingKeysWith: { a, _ in a })
        for var module in project.manifest.modules {
            module.path = moved[module.name] ?? module.path
            guard let entry = byPath[module.path] else {
                findings.append(
                    VerifyFinding(
                        code: .gitmodulesDrift,
                        message:
                            "\(label): .gitmodules has no submodule at \(module.path) (module \(module.name) in modules.json)",
                        module: module.name, branch: label))
                continue
            }
            if entry.url != module.url {
                findings.append(
                    VerifyFinding(
                        code: .gitmodulesDrift,
                        message:
                            "\(label): .gitmodules gives \(module.path) the URL \(RemoteURL.redacted(entry.url ?? "(none)")), modules.json \(RemoteURL.redacted(module.url))",
                        module: module.name, branch: label))
            }
        }
        let known = Set(project.manifest.modules.map { moved[$0.name] ?? $0.path })
        for entry in gitmodules where !(entry.path.map(known.contains) ?? false) {
            findings.append(
                VerifyFinding(
                    code: .gitmodulesDrift,
                    message:
                        "\(label): .gitmodules has submodule \(entry.name) at \(entry.path ?? "(no path)"), which modules.json does not list",
                    branch: label))
        }
        return findings
    }
}
