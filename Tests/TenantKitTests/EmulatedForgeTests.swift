import Foundation
import TenantTestSupport
import Testing

/// The forge emulated with git hooks behaves as a forge: protected branches refuse pushes, proposal branches are
/// accepted, and its merge button lands a proposal by merge commit, fast-forward, squash and rebase.
@Suite struct EmulatedForgeTests {
    /// A bare remote with `main` (one commit) and a proposal branch `topic` (two commits on top of it), pushed from
    /// a clone; `main` protected afterwards. Returns the sandbox, bare and clone paths.
    static func forge() throws -> (GitSandbox, EmulatedForge, String, String) {
        let sandbox = try GitSandbox()
        let bare = sandbox.path("remote.git")
        try sandbox.git(["init", "-q", "--bare", "-b", "main", bare])
        try sandbox.makeRepository("clone", files: ["a": "1\n"])
        let clone = sandbox.path("clone")
        try sandbox.git(["remote", "add", "origin", bare], in: clone)
        try sandbox.git(["push", "-q", "origin", "main"], in: clone)
        try sandbox.git(["checkout", "-q", "-b", "topic"], in: clone)
        try sandbox.commit(in: "clone", file: "b", content: "2\n", message: "add b")
        try sandbox.commit(in: "clone", file: "c", content: "3\n", message: "add c")
        try sandbox.git(["push", "-q", "origin", "topic"], in: clone)
        let forge = EmulatedForge(sandbox: sandbox)
        try forge.protect(["main"], in: bare)
        return (sandbox, forge, bare, clone)
    }

    @Test func protectedBranchesRefusePushesAndProposalsAreAccepted() throws {
        let (sandbox, _, bare, clone) = try Self.forge()
        let main = try sandbox.git(["rev-parse", "refs/heads/main"], in: bare)
        let refused = try sandbox.gitResult(["push", "origin", "topic:main"], in: clone)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains(EmulatedForge.refusal + " refs/heads/main"), "\(refused.stderr)")
        #expect(try sandbox.git(["rev-parse", "refs/heads/main"], in: bare) == main, "nothing changed")
        // Positive control: a proposal branch is accepted.
        let accepted = try sandbox.gitResult(["push", "origin", "topic:tenantctl/roll/main"], in: clone)
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }

    @Test(arguments: EmulatedForge.Method.allCases)
    func theMergeButtonLandsAProposal(method: EmulatedForge.Method) throws {
        let (sandbox, forge, bare, _) = try Self.forge()
        let main = try sandbox.git(["rev-parse", "refs/heads/main"], in: bare)
        let topic = try sandbox.git(["rev-parse", "refs/heads/topic"], in: bare)
        let landed = try forge.land("topic", into: "main", method: method, in: bare)
        #expect(try sandbox.git(["rev-parse", "refs/heads/main"], in: bare) == landed)
        #expect(
            try sandbox.git(["rev-parse", "\(landed)^{tree}"], in: bare)
                == sandbox.git(["rev-parse", "\(topic)^{tree}"], in: bare))
        let parents = try sandbox.git(["rev-list", "--parents", "-n", "1", landed], in: bare).split(separator: " ")
            .dropFirst().map(String.init)
        let count = try sandbox.git(["rev-list", "--count", "\(main)..\(landed)"], in: bare)
        switch method {
        case .merge: #expect(parents == [main, topic])
        case .fastForward: #expect(landed == topic)
        case .squash:
            #expect(parents == [main])
            #expect(count == "1")
            // Its message lists the proposal's messages, oldest first, as GitHub's default does.
            let message = try sandbox.git(["log", "-1", "--format=%B", landed], in: bare)
            #expect(message == "Squash topic into main\n\n* add b\n\n* add c", "\(message)")
        case .rebase:
            #expect(landed != topic)
            #expect(count == "2", "both commits replayed")
            #expect(try sandbox.gitResult(["merge-base", "--is-ancestor", topic, landed], in: bare).status != 0)
        }
    }

    /// Each forge kind makes of a push what its forge does, records what it received with the push options, and
    /// leaves no `refs/for` ref behind; Gerrit refuses a commit without `Change-Id` and one it has already.
    @Test(arguments: [EmulatedForge.Kind.agit, .gitlab, .gerrit])
    func eachKindOpensAReviewAsItsForgeDoes(kind: EmulatedForge.Kind) throws {
        let (sandbox, forge, bare, clone) = try Self.forge()
        try forge.serve(kind, in: bare)
        let main = try sandbox.git(["rev-parse", "refs/heads/main"], in: bare)
        let topic = try sandbox.git(["rev-parse", "HEAD"], in: clone)
        let push: [String]
        switch kind {
        case .agit: push = ["push", "-o", "topic=t", "origin", "HEAD:refs/for/main"]
        case .gitlab:
            push = ["push", "-o", "merge_request.create", "-o", "merge_request.target=main", "origin", "HEAD:mr"]
        case .gerrit, .branch: push = ["push", "origin", "HEAD:refs/for/main%topic=t"]
        }
        if kind == .gerrit {
            let refused = try sandbox.gitResult(push, in: clone)
            #expect(refused.status != 0 && refused.stderr.contains("missing Change-Id"), "\(refused.stderr)")
            try sandbox.git(
                ["commit", "-q", "--amend", "-m", "add c\n\nChange-Id: I" + String(repeating: "a", count: 40)],
                in: clone)
        }
        let commit = try sandbox.git(["rev-parse", "HEAD"], in: clone)
        let pushed = try sandbox.gitResult(push, in: clone)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let reviews = try forge.reviews(in: bare)
        #expect(reviews.count == 1, "\(reviews)")
        let review = try #require(reviews.first)
        #expect(review.target == "main" && review.commit == commit, "\(review)")
        #expect(try sandbox.git(["rev-parse", review.ref], in: bare) == commit)
        let expectedRef =
            kind == .agit ? "refs/pull/1/head" : kind == .gitlab ? "refs/merge-requests/1/head" : "refs/changes/01/1/1"
        #expect(review.ref == expectedRef)
        #expect(try sandbox.refs(bare).keys.allSatisfy { !$0.hasPrefix("refs/for/") }, "no refs/for ref is left")
        #expect(try sandbox.git(["rev-parse", "refs/heads/main"], in: bare) == main, "the target is unchanged")
        let received = try forge.received(in: bare)
        #expect(received.last?.new == commit, "\(received)")
        if kind == .agit { #expect(received.last?.options == ["topic=t"], "\(received)") }
        if kind == .gitlab {
            #expect(received.last?.options == ["merge_request.create", "merge_request.target=main"], "\(received)")
        }
        if kind == .gerrit {
            let again = try sandbox.gitResult(push, in: clone)
            #expect(again.status != 0 && again.stderr.contains("no new changes"), "\(again.stderr)")
        }
        _ = topic
    }
}
