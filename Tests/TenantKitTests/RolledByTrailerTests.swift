import Foundation
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantRoll

/// The trailer of a review roll's commits is one format whoever writes it: `roll --review` (the executor) and
/// `resolve <t> --review` (``RolledByTrailer``) give the same text, with the same Gerrit `Change-Id` for the same
/// repository, target and tip; the `Change-Id` and the trailer paragraph read back from a message.
@Suite struct RolledByTrailerTests {
    @Test func rollAndResolveWriteTheSameTrailer() throws {
        let sandbox = try GitSandbox()
        try sandbox.makeRepository("repo", files: ["file": "1\n"])
        var executor = RollExecutor(
            superproject: GitRepository(sandbox.path("repo"), git: try sandbox.gitRunner()), mirrors: [:],
            identity: try CommitIdentity.read(in: sandbox.path("repo"), git: try sandbox.gitRunner()))
        let general = String(repeating: "a", count: 40)
        let base = String(repeating: "b", count: 40)
        #expect(executor.trailer("general_dev", general, "Infrastructure", "t2", base).isEmpty, "a plain roll: none")
        executor.reviewRun = "20261127-050000-0aa1b2"
        executor.changeIds = ["Infrastructure"]
        let gerrit = ReviewOptions(forge: .gerrit)
        for repository in ["Infrastructure", "Order"] {
            let options = repository == "Infrastructure" ? gerrit : ReviewOptions(forge: .branch)
            let written = RolledByTrailer.text(
                run: "20261127-050000-0aa1b2", general: "general_dev", commit: general,
                changeId: options.changeId(repository: repository, target: "t2", base: base))
            #expect(written == executor.trailer("general_dev", general, repository, "t2", base), "\(repository)")
        }

        let message =
            "Roll general_dev into t2: merge Infrastructure general_dev aaaaaaa"
            + executor.trailer("general_dev", general, "Infrastructure", "t2", base)
        #expect(RolledByTrailer.paragraph(of: message).hasPrefix("\n\nRolled-by: tenantctl 20261127-050000-0aa1b2 "))
        #expect(
            RolledByTrailer.changeId(in: message)
                == gerrit.changeId(repository: "Infrastructure", target: "t2", base: base))
        #expect(RolledByTrailer.changeId(in: "Subject\n\nChange-Id: I123") == nil, "not a Change-Id")
        #expect(RolledByTrailer.paragraph(of: "Roll general_dev into t2").isEmpty)
    }
}
