import Foundation

extension FindingJudge {
    /// The reviews audit shows, of each repository and tenant (`reviews` oldest run first, as the journal lists
    /// them):
    ///
    /// - the newest proposal, when its run is still followed (open, waiting, in conflict, closed, rejected, or landed
    ///   while the run waits for others);
    /// - the newest one that landed by squash or rebase, while the target does not contain the general commit it
    ///   rolled in by ancestry (also beside a newer open proposal).
    public static func shownReviews(_ reviews: [ObservedReview], observation: ProjectObservation) -> [ObservedReview] {
        var newest: [String: ObservedReview] = [:]
        var squashed: [String: ObservedReview] = [:]
        var order: [String] = []
        for review in reviews {
            let key = review.repository + "\u{0}" + review.tenant
            if newest[key] == nil { order.append(key) }
            newest[key] = review
            if review.landedWithoutAncestry { squashed[key] = review }
        }
        return order.flatMap { key -> [ObservedReview] in
            var shown: [ObservedReview] = []
            if let squash = squashed[key], !targetContainsGeneral(squash, observation: observation) {
                shown.append(squash)
            }
            if let current = newest[key], current != shown.first, current.state != "landed" || current.followed {
                shown.append(current)
            }
            return shown
        }
    }

    /// The review findings of one shown review, each with its next command:
    ///
    /// - `pending-review`: open (or a superproject proposal waiting for its module proposals); `tenantctl roll
    ///   --land` follows it;
    /// - `stale-review`: open, but the general branch moved on since it was proposed (`tenantctl roll --review`
    ///   updates it), or closed without landing (`tenantctl roll --review` proposes it again);
    /// - `review-conflict`: its target moved so that it no longer merges (`tenantctl resolve <t> --review`);
    /// - `squashed-roll` (information): landed by squash or rebase, so the target has the general commit's changes
    ///   but not the commit: contained by content, not behind by it (``behindByContent(_:tip:observation:)``);
    ///   `tenantctl roll --review` only once the general branch moved on.
    public static func reviewFindings(_ review: ObservedReview, observation: ProjectObservation) -> [Finding] {
        let place = "\(review.repository) \(review.target)"
        let general = ObjectID.short(review.general)
        let followed = "review run \(review.runId)"
        func finding(_ code: FindingCode, _ message: String) -> Finding {
            Finding(
                code: code, message: message, tenant: review.tenant,
                module: review.repository == Finding.superproject ? nil : review.repository,
                repository: review.repository, branch: review.target)
        }
        switch review.state {
        case "proposed", "open", "waiting":
            if let tip = generalTip(of: review, observation: observation), tip != review.general,
                isAncestor(review.general, of: tip, review: review, observation: observation)
            {
                return [
                    finding(
                        .staleReview,
                        "the proposal \(review.proposal) into \(place) rolls in \(general), but the general branch "
                            + "moved on to \(ObjectID.short(tip)) since (\(followed)); update it: tenantctl roll "
                            + "--review")
                ]
            }
            let message =
                review.state == "waiting"
                ? "the superproject proposal into \(review.target) waits for the proposals it pins to land (its "
                    + "module merges, the general branch's re-pin; \(followed)); once the forge landed them: tenantctl "
                    + "roll --land"
                : "the proposal \(review.proposal) into \(place) is open for review (\(followed)); once the forge "
                    + "landed it: tenantctl roll --land"
            return [finding(.pendingReview, message)]
        case "closed":
            // The general branch's re-pin is no tenant's: plain `roll --review` proposes it again.
            let tenantOption =
                review.tenant == observation.superproject.generalBranch ? "" : " --tenant \(review.tenant)"
            return [
                finding(
                    .staleReview,
                    "the proposal \(review.proposal) into \(place) was closed without landing (\(followed)); "
                        + "propose it again: tenantctl roll --review\(tenantOption), or stop following it: tenantctl "
                        + "roll --abandon \(review.runId)\(tenantOption)")
            ]
        case "conflict":
            let next =
                review.tenant == observation.superproject.generalBranch
                ? "tenantctl roll --review" : "tenantctl resolve \(review.tenant) --review"
            return [
                finding(
                    .reviewConflict,
                    "\(review.target) moved since the proposal \(review.proposal) into \(place) was made, and it no "
                        + "longer merges cleanly (\(followed)); resolve it: \(next)")
            ]
        case "landed" where review.landedWithoutAncestry && !targetContainsGeneral(review, observation: observation):
            let method = review.method ?? "squash"
            let tip = generalTip(of: review, observation: observation)
            // Nothing to do while the general branch is where the landing left it: a roll would propose nothing.
            let movedOn = tip.map { $0 != review.general && $0 != review.landed } ?? false
            return [
                finding(
                    .squashedRoll,
                    "the proposal into \(place) landed by \(method) as \(ObjectID.short(review.landed ?? "")): "
                        + "\(review.target) has the changes of \(general) by content, not the commit (contained by "
                        + "\(method)), so it is not behind by them; the next roll merges from a virtual base"
                        + (movedOn
                            ? "; the general branch moved on since: tenantctl roll --review"
                            : "; nothing to do"))
            ]
        default:
            return []
        }
    }

    /// How many commits of the general branch `tip` lacks (a tenant's pin of the review's module, or its superproject
    /// branch's tip), counting the general commit the review rolled in as contained by content: the commits of the
    /// general tip that neither `tip` nor that general commit reaches. Nil unless the review landed by squash or
    /// rebase and `tip` contains the commit that landed it (the graph knowing them all).
    public static func behindByContent(_ review: ObservedReview, tip: String, observation: ProjectObservation) -> Int? {
        let graph =
            review.repository == Finding.superproject
            ? observation.superproject.graph : observation.modules[review.repository]?.graph
        guard review.landedWithoutAncestry, let landed = review.landed, let graph,
            let generalTip = generalTip(of: review, observation: observation),
            [tip, landed, review.general, generalTip].allSatisfy(graph.contains), graph.isAncestor(landed, of: tip)
        else { return nil }
        let contained = graph.reachability(from: [tip, review.general])
        return graph.reachable(from: [generalTip]).filter { !contained.contains($0) }.count
    }

    /// The general branch's tip of the review's repository, as observed.
    static func generalTip(of review: ObservedReview, observation: ProjectObservation) -> String? {
        review.repository == Finding.superproject
            ? observation.superproject.generalTip : observation.modules[review.repository]?.generalTip
    }

    /// Whether `ancestor` is an ancestor of `descendant` in the review's repository's graph (false when either is
    /// not in it).
    static func isAncestor(
        _ ancestor: String, of descendant: String, review: ObservedReview, observation: ProjectObservation
    ) -> Bool {
        let graph =
            review.repository == Finding.superproject
            ? observation.superproject.graph : observation.modules[review.repository]?.graph
        guard let graph, graph.contains(ancestor), graph.contains(descendant) else { return false }
        return graph.isAncestor(ancestor, of: descendant)
    }

    /// Whether the review's target, as observed, contains the general commit it rolled in by ancestry (true when
    /// the target or the commit is not known: nothing to say then).
    static func targetContainsGeneral(_ review: ObservedReview, observation: ProjectObservation) -> Bool {
        let tip: String?
        if review.repository == Finding.superproject {
            tip =
                review.target == observation.superproject.generalBranch
                ? observation.superproject.generalTip : observation.superproject.tenantTips[review.target]
        } else {
            tip = observation.modules[review.repository]?.branches[review.target]
        }
        guard let tip else { return true }
        let graph =
            review.repository == Finding.superproject
            ? observation.superproject.graph : observation.modules[review.repository]?.graph
        guard let graph, graph.contains(tip), graph.contains(review.general) else { return true }
        return graph.isAncestor(review.general, of: tip)
    }
}
