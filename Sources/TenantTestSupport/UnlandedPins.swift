import Foundation

extension GitSandbox {
    /// The pins of a superproject that are on no landed branch of their module, one line each (empty: none).
    ///
    /// Reads every ref of the bare superproject `superproject` — its branches, proposal branches and the review refs
    /// a forge keeps (`refs/pull`, `refs/merge-requests`, `refs/changes`, …) — and every gitlink of the tree each one
    /// points at, with plain git. A gitlink's module is the one that ref's own `.gitmodules` names for its path; its
    /// remote is that module's `url` taken relative to the superproject's directory (`../Order.git`). A pin is landed
    /// when a branch of that remote other than a proposal branch (one starting with `proposalPrefix/`) contains it.
    public func unlandedPins(superproject: String, proposalPrefix: String) throws -> [String] {
        let refs = try git(["for-each-ref", "--format=%(refname)"], in: superproject).split(separator: "\n")
            .map(String.init)
        let directory = (superproject as NSString).deletingLastPathComponent
        var violations: [String] = []
        var landedBranches: [String: [String: Bool]] = [:]
        for ref in refs {
            let modules = try submoduleRemotes(at: ref, in: superproject, directory: directory)
            for (path, pin) in try gitlinks(on: ref, in: superproject) {
                guard let remote = modules[path] else {
                    violations.append("\(ref) pins \(path) at \(pin), a path its .gitmodules does not name")
                    continue
                }
                if let known = landedBranches[remote]?[pin] {
                    if !known { violations.append("\(ref) pins \(path) at \(pin), on no landed branch of \(remote)") }
                    continue
                }
                let holders = try git(
                    ["for-each-ref", "--format=%(refname:short)", "--contains", pin, "refs/heads/"], in: remote
                ).split(separator: "\n").filter { !$0.hasPrefix(proposalPrefix + "/") }
                landedBranches[remote, default: [:]][pin] = !holders.isEmpty
                if holders.isEmpty {
                    violations.append("\(ref) pins \(path) at \(pin), on no landed branch of \(remote)")
                }
            }
        }
        return violations
    }

    /// Path → the module's remote, as `.gitmodules` at `ref` names them (relative URLs taken from `directory`).
    func submoduleRemotes(at ref: String, in superproject: String, directory: String) throws -> [String: String] {
        let listing = try gitResult(
            ["config", "--blob", "\(ref):.gitmodules", "--get-regexp", #"^submodule\..*\.(path|url)$"#],
            in: superproject)
        // No .gitmodules on that ref: it pins nothing to check.
        guard listing.status == 0 else { return [:] }
        var paths: [String: String] = [:]
        var urls: [String: String] = [:]
        for line in listing.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let key = parts[0]
            if key.hasSuffix(".path") {
                paths[String(key.dropFirst("submodule.".count).dropLast(".path".count))] = parts[1]
            } else if key.hasSuffix(".url") {
                urls[String(key.dropFirst("submodule.".count).dropLast(".url".count))] = parts[1]
            }
        }
        var remotes: [String: String] = [:]
        for (name, path) in paths {
            guard let url = urls[name] else { continue }
            remotes[path] =
                url.hasPrefix("../")
                ? ((directory as NSString).appendingPathComponent(String(url.dropFirst(3))) as NSString)
                    .standardizingPath
                : url
        }
        return remotes
    }
}
