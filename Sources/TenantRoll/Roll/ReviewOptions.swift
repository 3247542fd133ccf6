import Foundation

/// How a review roll proposes: the forge kind and where its proposals go, per repository. The `review` object of
/// `modules.json` (and a module's own) says it; `--forge` overrides the kind everywhere.
public struct ReviewOptions: Sendable, Equatable {
    /// What is pushed where (``ReviewForge``).
    public typealias Forge = ReviewForge

    /// The default prefix of the proposal branches.
    public static let defaultPrefix = "tenantctl/roll"

    /// The kind for every repository (`--forge`); nil: as `modules.json` says, else `branch`.
    public var forge: Forge?
    /// The prefix for every repository; nil: as `modules.json` says, else ``defaultPrefix``.
    public var branchPrefix: String?
    /// The manifest's `review` object.
    public var settings = ReviewSettings()
    /// Each module's own `review` object.
    public var modules: [String: ReviewSettings] = [:]
    /// The `create` command of git config (``createConfigKey``): the user's own, over every `review` object's.
    public var userCreate: [String]?
    /// The kind a waiting review run proposed each repository with (repository → kind and run): every later push of
    /// the run's proposals uses it (``recordingKinds(of:forge:)``).
    public var recorded: [String: RecordedKind] = [:]

    /// The forge kind a review run recorded for a repository, and the run.
    public struct RecordedKind: Sendable, Equatable {
        public var forge: Forge
        public var runId: String
    }

    public init(forge: Forge? = nil, branchPrefix: String? = nil) {
        self.forge = forge
        self.branchPrefix = branchPrefix
    }

    /// These options with what `manifest` says (its `review` object and each module's).
    public func reading(_ manifest: ModuleManifest) -> ReviewOptions {
        var options = self
        options.settings = manifest.review ?? ReviewSettings()
        options.modules = Dictionary(
            manifest.modules.compactMap { module in module.review.map { (module.name, $0) } },
            uniquingKeysWith: { first, _ in first })
        return options
    }

    /// The settings of `repository` (`superproject` or a module): the module's over the manifest's.
    func settings(of repository: String) -> ReviewSettings {
        var settings = settings.overridden(by: modules[repository])
        if let userCreate { settings.create = userCreate }
        return settings
    }

    /// The forge kind of `repository`.
    public func forge(of repository: String) -> Forge {
        recorded[repository]?.forge ?? forge ?? settings(of: repository).forge ?? .branch
    }

    /// The proposal branch prefix of `repository`.
    public func prefix(of repository: String) -> String {
        branchPrefix ?? settings(of: repository).branchPrefix ?? Self.defaultPrefix
    }

    /// The proposal branch of `tenant` with the default settings (`refs/heads/tenantctl/roll/t2`).
    public func ref(for tenant: String) -> String { "refs/heads/\(branchPrefix ?? Self.defaultPrefix)/\(tenant)" }

    /// The topic of `tenant`'s proposals in `repository` (`tenantctl-roll-t2`): stable, so that a new proposal
    /// updates the open review.
    func topic(of repository: String, tenant: String) -> String {
        prefix(of: repository).replacingOccurrences(of: "/", with: "-") + "-" + tenant
    }

    /// Where `tenant`'s proposal into `target` is pushed in `repository`: the proposal branch (`branch`, `gitlab`),
    /// `refs/for/<target>` (`agit`, with the topic as a push option), `refs/for/<target>%topic=<topic>` (`gerrit`).
    func proposalRef(repository: String, tenant: String, target: String) -> String {
        switch forge(of: repository) {
        case .branch, .gitlab: "refs/heads/\(prefix(of: repository))/\(tenant)"
        case .agit: "refs/for/\(target)"
        case .gerrit: "refs/for/\(target)%topic=\(topic(of: repository, tenant: tenant))"
        }
    }

    /// The push options of a proposal (`title`: the proposed commit's subject).
    func pushOptions(repository: String, tenant: String, target: String, title: String) -> [String] {
        switch forge(of: repository) {
        case .branch, .gerrit: []
        case .agit: ["topic=\(topic(of: repository, tenant: tenant))", "title=\(title)"]
        case .gitlab:
            ["merge_request.create", "merge_request.target=\(target)", "merge_request.title=\(title)"]
        }
    }

    /// The repositories whose commits carry a Gerrit `Change-Id`.
    package func changeIdRepositories(_ names: [String]) -> Set<String> {
        Set(names.filter { forge(of: $0) == .gerrit })
    }
}
