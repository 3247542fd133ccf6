import Foundation

/// The landings by squash or rebase that the remotes show, as audit shows them (its `squashed-roll` finding) in a
/// clone without the journals of the review runs: the same ones the virtual base of roll takes — the `Rolled-by`
/// trailer a squash keeps in its message, the proposal branch while the forge keeps it, and the forge's own review
/// refs where the review settings name a forge kind.
///
/// Nothing is read, and no git runs, for a project without review settings (no `review` object in `modules.json` or
/// in a module's entry). With them, per repository that has a tenant branch behind the general tip: the trailer's
/// one `log` (as roll's), for each proposal branch of such a tenant the landing rule, and where a forge kind is named
/// one `log` of the review ref copies and the landing rule for the newest of each tenant; one `log -1` per landing
/// found by its trailer alone (the run it names). ``fetch(snapshot:jobs:)`` refreshes the copies under the workspace
/// lock: one `fetch` per repository whose review settings name a forge kind. No ref but those copies is written (the
/// landing rule's `merge-tree` leaves unreferenced objects in the mirror).
public enum RemoteReviewLandings {
    /// Whether `manifest` has review settings (a `review` object of its own or in a module's entry).
    public static func configured(_ manifest: ModuleManifest) -> Bool {
        manifest.review != nil || manifest.modules.contains { $0.review != nil }
    }

    /// Fetches the review refs of every repository of `snapshot` whose review settings name a forge kind into
    /// tenantctl's copies (``GitRepository/reviewRefCache``), `jobs` at a time; nothing without such settings.
    public static func fetch(snapshot: Snapshot, jobs: Int) throws {
        let manifest = snapshot.project.manifest
        guard configured(manifest) else { return }
        let review = ReviewOptions().reading(manifest)
        var targets: [(name: String, repository: GitRepository, patterns: [String], remote: String)] = []
        for module in manifest.modules {
            guard let kind = VirtualBase.namedForge(of: module.name, review: review),
                let mirror = snapshot.existingMirror(of: module.name), let url = snapshot.specs[module.name]?.url
            else { continue }
            targets.append((module.name, mirror, VirtualBase.reviewRefPatterns(kind), url))
        }
        if let kind = VirtualBase.namedForge(of: RollPublication.superproject, review: review) {
            targets.append(
                (
                    RollPublication.superproject, snapshot.superproject, VirtualBase.reviewRefPatterns(kind),
                    snapshot.workspace.remoteName
                ))
        }
        _ = try Concurrent.map(targets, jobs: jobs) { target in
            try target.repository.fetchReviewRefs(
                target.patterns, from: target.remote,
                context: "fetch the reviews \(target.name)'s forge keeps (\(target.patterns.joined(separator: " ")))")
        }
    }

    /// The landings by squash or rebase the remotes show, as reviews seen on the remotes (state `landed`, the run
    /// the trailer names, the proposal where seen); none without review settings. Ancestry comes from the
    /// observation's graphs.
    public static func observed(snapshot: Snapshot, observation: ProjectObservation, jobs: Int) throws
        -> [ObservedReview]
    {
        let project = snapshot.project
        guard configured(project.manifest) else { return [] }
        let review = ReviewOptions().reading(project.manifest)
        let tenantBranches = Set(project.tenants.map(\.branch))
        let tenants = project.tenants.map { (id: $0.id, branch: $0.branch) }
        var inputs: [VirtualBase.Input] = []
        for (name, module) in observation.modules.sorted(by: { $0.key < $1.key }) {
            guard let mirror = snapshot.existingMirror(of: name), let generalTip = module.generalTip else { continue }
            let graph = module.graph
            let isAncestor: @Sendable (String, String) -> Bool = { ancestor, descendant in
                graph.contains(ancestor) && graph.contains(descendant) && graph.isAncestor(ancestor, of: descendant)
            }
            let containGeneral = Set(
                module.branches.filter { tenantBranches.contains($0.key) && isAncestor(generalTip, $0.value) }.map(
                    \.key))
            inputs.append(
                VirtualBase.Input(
                    name: name, repository: mirror, branches: module.branches, tenantBranches: tenantBranches,
                    containGeneral: containGeneral, generalBranch: module.generalBranch, generalTip: generalTip,
                    prefix: review.prefix(of: name), isAncestor: isAncestor))
        }
        let superproject = observation.superproject
        let containGeneral = Set(superproject.comparisons.filter { $0.value.behind == 0 }.map(\.key))
        var superprojectAncestry: (@Sendable (String, String) -> Bool)?
        if let graph = superproject.graph {
            superprojectAncestry = { ancestor, descendant in
                graph.contains(ancestor) && graph.contains(descendant) && graph.isAncestor(ancestor, of: descendant)
            }
        }
        inputs.append(
            VirtualBase.Input(
                name: RollPublication.superproject, repository: snapshot.superproject, branches: snapshot.branches,
                tenantBranches: tenantBranches, containGeneral: containGeneral,
                generalBranch: superproject.generalBranch, generalTip: superproject.generalTip,
                prefix: review.prefix(of: RollPublication.superproject),
                isAncestor: superprojectAncestry))
        let landings = try Concurrent.map(inputs.filter { !$0.behind.isEmpty }, jobs: jobs) { input in
            try input.remoteLandings(
                tenants: tenants,
                patterns: VirtualBase.namedForge(of: input.name, review: review).map(VirtualBase.reviewRefPatterns)
                    ?? [])
        }
        .flatMap { $0 }
        return landings.map { landing in
            let run = landing.runId ?? ""
            var observed = ObservedReview(
                runId: run.isEmpty ? "unknown" : run, since: since(runId: run),
                forge: review.forge(of: landing.landing.repository).rawValue,
                repository: landing.landing.repository, tenant: landing.tenant, target: landing.landing.branch,
                ref: landing.ref
                    ?? review.proposalRef(
                        repository: landing.landing.repository, tenant: landing.tenant,
                        target: landing.landing.branch),
                state: "landed", general: landing.landing.general, proposed: landing.proposed)
            observed.landed = landing.landing.landed
            observed.method = landing.method
            observed.followed = false
            observed.seenOnRemotes = true
            return observed
        }
    }

    /// When the run `runId` started, as ISO 8601 (run ids begin with their start, `yyyyMMdd-HHmmss`); "" when it
    /// does not say.
    static func since(runId: String) -> String {
        let parts = runId.split(separator: "-")
        guard parts.count >= 2, parts[0].count == 8, parts[1].count == 6,
            parts[0].allSatisfy(\.isNumber), parts[1].allSatisfy(\.isNumber)
        else { return "" }
        let day = Array(parts[0])
        let time = Array(parts[1])
        return "\(String(day[0..<4]))-\(String(day[4..<6]))-\(String(day[6..<8]))T"
            + "\(String(time[0..<2])):\(String(time[2..<4])):\(String(time[4..<6]))Z"
    }
}

extension VirtualBase.Input {
    /// Every landing by squash or rebase this repository's remote shows, with its details: by the trailer (the run
    /// read from the landed commit's message), by the proposal branch, by the forge's review refs under `patterns`
    /// (none when empty); each once.
    func remoteLandings(tenants: [(id: String, branch: String)], patterns: [String]) throws
        -> [VirtualBase.RemoteLanding]
    {
        let context = "read which tenant branches of \(name) took a general commit by squash or rebase"
        var found: [VirtualBase.RemoteLanding] = []
        for landing in try trailerLandings() {
            guard let tenant = tenants.first(where: { $0.branch == landing.branch }) else { continue }
            let message = try repository.body(of: landing.landed, context: context)
            let run = VirtualBase.rolledBy(message: message).first { $0.general == landing.general }?.run
            found.append(
                VirtualBase.RemoteLanding(
                    landing: landing, tenant: tenant.id, method: "squash", runId: run, ref: nil, proposed: nil))
        }
        for landing in try proposalRemoteLandings(tenants: tenants)
        where !found.contains(where: { $0.landing == landing.landing }) {
            found.append(landing)
        }
        for landing in try reviewRefLandings(patterns: patterns, tenants: tenants, known: found.map(\.landing))
        where !found.contains(where: { $0.landing == landing.landing }) {
            found.append(landing)
        }
        return found
    }

    /// The landings the proposal branches still on the remote show, with the method the landing rule found (roll's
    /// ``proposalLandings(tenants:)`` keeps only the landings).
    func proposalRemoteLandings(tenants: [(id: String, branch: String)]) throws -> [VirtualBase.RemoteLanding] {
        var landings: [VirtualBase.RemoteLanding] = []
        let behind = self.behind
        for tenant in tenants {
            guard let tip = behind[tenant.branch], let proposed = branches[prefix + "/" + tenant.id] else {
                continue
            }
            let context = "read the proposal branch \(prefix)/\(tenant.id) of \(name)"
            let message = try repository.body(of: proposed, context: context)
            guard let rolled = VirtualBase.rolledBy(message: message).first,
                let base = try repository.parents(of: proposed, context: context).first,
                try !contains(tip, rolled.general, context: context)
            else { continue }
            let ref = "refs/heads/\(prefix)/\(tenant.id)"
            let review = RunJournal.Review(
                repository: name, tenant: tenant.id, target: tenant.branch, ref: ref, base: base,
                general: rolled.general, proposed: proposed, state: "open")
            let followed = try ReviewLanding(repository: repository).follow(review, target: tip, proposal: nil)
            guard followed.state == "landed", let landed = followed.landed, let method = followed.method,
                ["squash", "rebase"].contains(method)
            else { continue }
            landings.append(
                VirtualBase.RemoteLanding(
                    landing: SquashedLanding(
                        repository: name, branch: tenant.branch, landed: landed, general: rolled.general),
                    tenant: tenant.id, method: method, runId: rolled.run, ref: ref, proposed: proposed))
        }
        return landings
    }
}
