import Foundation

/// Module remote URLs, resolved as git resolves submodule URLs.
public enum ModuleRemotes {
    /// One mirror spec per module: relative URLs resolved against the superproject's origin URL
    /// (or its directory when it has no origin); local remotes refused unless allowed.
    public static func specs(for modules: [Module], workspace: Workspace, git: Git) throws -> [MirrorSpec] {
        try specs(
            for: modules, base: try SuperprojectRemote.originURL(workspace, git: git) ?? workspace.root, git: git)
    }

    /// One mirror spec per module, relative URLs resolved against `base` (the superproject's remote URL).
    public static func specs(for modules: [Module], base: String, git: Git) throws -> [MirrorSpec] {
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
            if RemoteURL.isLocal(resolved) && !git.allowLocalRemotes {
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
