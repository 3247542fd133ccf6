import Foundation

/// Module remote URLs, resolved as git resolves submodule URLs.
public enum ModuleRemotes {
    /// One mirror spec per module: relative URLs resolved against the superproject's origin URL
    /// (or its directory when it has no origin); local remotes refused unless allowed.
    public static func specs(for modules: [Module], workspace: Workspace) throws -> [MirrorSpec] {
        try specs(
            for: modules, base: try SuperprojectRemote.originURL(workspace) ?? workspace.root,
            allowLocalRemotes: workspace.git.allowLocalRemotes)
    }

    /// One mirror spec per module, relative URLs resolved against `base` (the superproject's remote URL); a local
    /// remote is refused unless `allowLocalRemotes` (the run's runner allows them).
    public static func specs(for modules: [Module], base: String, allowLocalRemotes: Bool) throws -> [MirrorSpec] {
        var specs: [MirrorSpec] = []
        var problems: [String] = []
        for module in modules {
            var resolved = module.url
            if RemoteURL.classify(module.url) == .relative {
                guard let url = RemoteURL.resolve(relative: module.url, against: base) else {
                    problems.append(
                        "module \(module.name): cannot resolve \(module.url) against the superproject's remote "
                            + RemoteURL.redacted(base))
                    continue
                }
                resolved = url
            }
            if RemoteURL.isLocal(resolved) && !allowLocalRemotes {
                problems.append(
                    "module \(module.name): remote \(RemoteURL.redacted(resolved)) is a local path; "
                        + "allow local remotes with --allow-local-remotes or TENANTCTL_ALLOW_LOCAL_REMOTES=1")
                continue
            }
            if let problem = RemoteURL.validate(resolved) {
                problems.append("module \(module.name): remote \(RemoteURL.redacted(resolved)): \(problem)")
                continue
            }
            specs.append(MirrorSpec(name: module.name, url: resolved))
        }
        guard problems.isEmpty else { throw WorkspaceError(problems.joined(separator: "\n")) }
        return specs
    }
}

extension ModuleRemotes {
    /// The URL to reach a remote that a journal or resolve state recorded: tenantctl records URLs with their
    /// password or token hidden (``RemoteURL/redacted(_:)``), so the secret comes back from where the user keeps
    /// it — the superproject's remote URL (relative module URLs carry its authority) or an absolute module URL in
    /// the working tree's modules.json. When neither supplies it, the URL keeps its user name without the hidden
    /// part, for a credential helper to answer.
    public static func reachable(_ recorded: String, workspace: Workspace) throws -> String {
        guard recorded.contains("***@") else { return recorded }
        var sources: [String] = []
        if let origin = try SuperprojectRemote.originURL(workspace) { sources.append(origin) }
        // Only candidates: a modules.json that cannot be read supplies none.
        if let project = try? ProjectReader.workingTree(
            workspace, options: ValidationOptions(allowLocalRemotes: true, keepInvalidTenants: true))
        {
            sources += project.manifest.modules.map(\.url)
        }
        return restoringCredentials(recorded, from: sources)
    }

    /// `recorded` with the authority of the first source whose redacted authority it starts with; else with the
    /// hidden password or token left out.
    static func restoringCredentials(_ recorded: String, from sources: [String]) -> String {
        for source in sources {
            guard let scheme = source.range(of: "://") else { continue }
            let authorityEnd = source[scheme.upperBound...].firstIndex(of: "/") ?? source.endIndex
            let prefix = String(source[..<authorityEnd])
            let redacted = Redaction.redact(prefix)
            guard redacted != prefix, recorded.hasPrefix(redacted) else { continue }
            let rest = recorded.dropFirst(redacted.count)
            guard rest.isEmpty || rest.hasPrefix("/") else { continue }
            return prefix + rest
        }
        return recorded.replacingOccurrences(of: ":***@", with: "@").replacingOccurrences(of: "//***@", with: "//")
    }
}
