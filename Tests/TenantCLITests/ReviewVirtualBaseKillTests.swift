import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

extension ReviewKillSweepTests {
    /// The next `roll --review` after a squash landing writes its virtual base (a local commit) before it merges:
    /// killed at sampled git calls, its re-run converges to the uninterrupted run's proposals.
    @Test func reviewAfterASquashKilledAtSampledGitCallsConverges() throws {
        let lab = try FaultLab()
        let workspace = lab.template + "/workspace"
        let remotes = lab.template + "/remotes"
        let proposed = lab.sandbox.tenantctl(["roll", "--review"], in: workspace, environment: FaultLab.dates)
        #expect(proposed.status == 75, "\(proposed.stderr)")
        // The forge squashes the module proposals, merges the re-pin, and then every superproject proposal.
        let forge = EmulatedForge(sandbox: lab.sandbox)
        let prefix = "refs/heads/\(ReviewOptions.defaultPrefix)/"
        try forge.land(prefix + "t2", into: "t2", method: .squash, in: remotes + "/Infrastructure.git")
        try forge.land(prefix + "t3", into: "t3", method: .squash, in: remotes + "/Order.git")
        try forge.land(prefix + "general_dev", into: "general_dev", method: .merge, in: remotes + "/Superproject.git")
        let land = lab.sandbox.tenantctl(["roll", "--land"], in: workspace, environment: FaultLab.dates)
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        for tenant in ["t1", "t2", "t3"] {
            try forge.land(prefix + tenant, into: tenant, method: .merge, in: remotes + "/Superproject.git")
        }
        let done = lab.sandbox.tenantctl(["roll", "--land"], in: workspace, environment: FaultLab.dates)
        #expect(done.status == 0, "\(done.stdout)\(done.stderr)")
        // A general change of Infrastructure to the lines its squashed change had changed.
        let developer = lab.sandbox.path("infrastructure-developer")
        try lab.sandbox.git(["clone", "-q", "--branch", "general_dev", remotes + "/Infrastructure.git", developer])
        try lab.sandbox.commit(
            in: "infrastructure-developer", file: ReviewLandingMethodTests.sameLines.file,
            content: ReviewLandingMethodTests.sameLines.content, message: "Start screen: wider tile borders")
        try lab.sandbox.git(["push", "-q", "origin", "general_dev"], in: developer)

        let arguments = ["roll", "--review", "--jobs", "1"]
        let clean = try lab.copy("virtual-base-reference")
        let reference = try lab.runShimmed(arguments, in: clean, environment: FaultLab.dates)
        #expect(reference.result.status == 75, "merges cleanly: \(reference.result.stdout)\(reference.result.stderr)")
        let expected = try Self.branches(lab, clean)
        #expect(expected["Infrastructure"]?[ReviewOptions.defaultPrefix + "/t2"] != nil, "\(expected)")
        let run = Reference(
            status: reference.result.status, stderr: reference.result.stderr, calls: reference.calls, expected: expected
        )
        let count = try Self.sweep(
            lab, arguments, reference: run, label: "virtual-base", shard: SweepShard(index: 0, count: 1))
        print("roll --review after a squash SIGKILL sweep: \(count) of \(reference.calls.count) git calls")
    }
}
