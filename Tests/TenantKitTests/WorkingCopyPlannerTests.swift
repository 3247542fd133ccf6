import Foundation
import TenantKit
import Testing

@Suite struct WorkingCopyPlannerTests {
    @Test func parsesPorcelainV2WithBranchAndEveryEntryKind() throws {
        let fields = [
            "# branch.oid 1111111111111111111111111111111111111111", "# branch.head t2",
            "# branch.upstream origin/t2", "# branch.ab +2 -1",
            "1 .M N... 100644 100644 100644 aaaa bbbb a file.txt",
            "1 .M SC.. 160000 160000 160000 cccc cccc Modules/Article",
            "1 M. N... 100644 100644 100644 aaaa bbbb staged.txt",
            "2 R. N... 100644 100644 100644 aaaa aaaa R100 new name", "old name",
            "u UU N... 100644 100644 100644 100644 a b c conflict.txt", "? untracked.txt",
        ]
        let data = Data((fields.joined(separator: "\0") + "\0").utf8)
        let status = try #require(PorcelainStatus.parse(data))
        #expect(status.head == "t2")
        #expect(status.upstream == "origin/t2")
        #expect(status.ahead == 2 && status.behind == 1)
        #expect(status.entries.count == 6)
        #expect(status.entries[0].path == "a file.txt")
        #expect(status.entries[3].path == "new name" && status.entries[3].originalPath == "old name")
        // The submodule only at another commit and the untracked file do not block.
        #expect(
            status.blockingEntries.map(\.path) == ["a file.txt", "staged.txt", "new name", "conflict.txt"])
    }

    @Test func parsesDetachedAndRejectsGarbage() {
        let detached = PorcelainStatus.parse(Data("# branch.oid abc\0# branch.head (detached)\0".utf8))
        #expect(detached?.isDetached == true)
        #expect(PorcelainStatus.parse(Data("garbage\0".utf8)) == nil)
        #expect(PorcelainStatus.parse(Data("1 .M\0".utf8)) == nil)
    }

    func observation(tip: String?, counts: (Int, Int)?, current: String? = nil, available: Bool = true)
        -> BranchObservation
    {
        BranchObservation(
            repository: "Order", path: "Modules/Order", branch: "t3", target: "pin", currentBranch: current,
            head: "x", branchTip: tip, tipVersusTarget: counts.map { (ahead: $0.0, behind: $0.1) },
            remoteBranchExists: true, targetAvailable: available)
    }

    @Test func plansEveryBranchState() throws {
        #expect(
            try SwitchPlanner.plan(observation(tip: nil, counts: nil)).get().action == .create(upstream: "origin/t3"))
        #expect(try SwitchPlanner.plan(observation(tip: "pin", counts: nil, current: "t3")).get().action == .none)
        #expect(try SwitchPlanner.plan(observation(tip: "pin", counts: nil)).get().action == .checkout)
        #expect(
            try SwitchPlanner.plan(observation(tip: "old", counts: (0, 2))).get().action == .fastForward(from: "old"))
        let ahead = try SwitchPlanner.plan(observation(tip: "mine", counts: (3, 0))).get()
        #expect(ahead.action == .checkout && ahead.aheadOfTarget == 3 && ahead.finalCommit == "mine")
        guard case .failure(let diverged) = SwitchPlanner.plan(observation(tip: "mine", counts: (1, 1))) else {
            Issue.record("diverged branch planned")
            return
        }
        #expect(diverged.reason.contains("diverged"))
        guard case .failure(let missing) = SwitchPlanner.plan(observation(tip: nil, counts: nil, available: false))
        else {
            Issue.record("missing pin planned")
            return
        }
        #expect(missing.reason.contains("not in the repository"))
    }

    /// A module's branch beyond the pin moves back only when every commit it leaves is published.
    @Test func aModuleBranchMovesBackOnlyWhenEveryCommitLeftIsPublished() throws {
        for counts in [(3, 0), (2, 1)] {
            var published = observation(tip: "tip", counts: counts, current: "t3")
            published.movesBack = true
            published.publishedOn = "origin/general_dev"
            let plan = try SwitchPlanner.plan(published).get()
            #expect(plan.action == .moveBack(from: "tip", leaving: counts.0, on: "origin/general_dev"))
            #expect(plan.finalCommit == "pin" && plan.aheadOfTarget == 0)

            var mine = published
            mine.publishedOn = nil
            mine.unpublishedCount = 12
            mine.unpublished = (1...10).map { "c\($0) work \($0)" }
            guard case .failure(let problem) = SwitchPlanner.plan(mine) else {
                Issue.record("unpublished commits planned away")
                continue
            }
            #expect(problem.reason.contains("12 commits that no remote branch holds"))
            #expect(problem.reason.contains("c1 work 1") && problem.reason.contains("and 2 more"))
        }
    }

    @Test func pinRelation() {
        #expect(PinRelation.of(ahead: 0, behind: 0) == .atPin)
        #expect(PinRelation.of(ahead: 2, behind: 0) == .ahead)
        #expect(PinRelation.of(ahead: 0, behind: 1) == .behind)
        #expect(PinRelation.of(ahead: 1, behind: 1) == .diverged)
    }
}
