import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// docs/ci.md's review jobs, run as written on the example with a forge emulated by git hooks: the scheduled
/// `roll --review` step succeeds with reviews open (exit 75), and the land loop runs `roll --land` until it exits 0
/// while the forge lands the proposals.
@Suite(.tags(.slow), .notInTheFastSet) struct ReviewCIGuideTests {
    /// The lines of `section` that run `roll --review` and `roll --land`, as written (without `run:` or `- `).
    static func reviewLines(_ section: String) throws -> (review: String, land: String) {
        let guide = try String(
            contentsOf: CIGuideTests.root.appendingPathComponent("docs/ci.md"), encoding: .utf8)
        let start = try #require(guide.range(of: "## \(section)\n"))
        let rest = guide[start.upperBound...]
        let body = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        let lines = body.split(separator: "\n").map { raw -> String in
            var line = raw.trimmingCharacters(in: .whitespaces)
            for prefix in ["- run: ", "run: ", "- "] where line.hasPrefix(prefix) {
                line = String(line.dropFirst(prefix.count))
                break
            }
            return line
        }
        return (
            try #require(lines.first { $0.contains("tenantctl roll --review") }, "\(section): no roll --review"),
            try #require(lines.first { $0.contains("tenantctl roll --land") }, "\(section): no roll --land")
        )
    }

    /// Starts `script` in `directory` with `bash -e` (GitHub's shell) and the built tenantctl on PATH.
    static func start(_ script: String, in directory: String, sandbox: GitSandbox, environment: [String: String])
        throws -> (Process, Pipe)
    {
        let binary = try #require(TenantctlBinary.path())
        let bin = URL(fileURLWithPath: binary).deletingLastPathComponent().path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-e", "-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = sandbox.environment.merging(environment) { $1 }.merging([
            "PATH": bin + ":" + (sandbox.environment["PATH"] ?? "/usr/bin:/bin")
        ]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return (process, output)
    }

    /// Lands every proposal branch of `bare` into its target by a merge commit, as the forge would.
    static func landAll(in bare: String, forge: EmulatedForge, sandbox: GitSandbox) throws {
        let prefix = ReviewOptions.defaultPrefix + "/"
        for (branch, _) in try sandbox.branches(bare) where branch.hasPrefix(prefix) {
            let target = String(branch.dropFirst(prefix.count))
            let landed = try sandbox.gitResult(
                ["merge-base", "--is-ancestor", "refs/heads/\(branch)", "refs/heads/\(target)"], in: bare)
            if landed.status != 0 { try forge.land("refs/heads/\(branch)", into: target, method: .merge, in: bare) }
        }
    }

    @Test(arguments: ["GitHub Actions", "GitLab CI"])
    func theReviewJobsProposeAndLandUntilExit0(section: String) throws {
        let (review, land) = try Self.reviewLines(section)
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .afterUpdates)
        let forge = EmulatedForge(sandbox: sandbox)
        let url = "file://" + example.remotes + "/Superproject.git"
        let checkout = try CIGuideTests.githubCheckout("review", branch: "general_dev", url: url, sandbox: sandbox)
        let outputs = sandbox.path("github-output")
        // GitHub runs each step in a shell of its own; GitLab one job's lines in one shell.
        let proposing = try Self.start(
            review, in: checkout, sandbox: sandbox, environment: ["GITHUB_OUTPUT": outputs])
        proposing.0.waitUntilExit()
        let proposed = String(decoding: proposing.1.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(proposing.0.terminationStatus == 0, "exit 75 is success for the proposing step: \(proposed)")
        #expect(proposed.contains("exit=75"), "\(proposed)")
        if section == "GitHub Actions" {
            #expect(try String(contentsOfFile: outputs, encoding: .utf8).contains("open=true"))
        }
        #expect(
            try sandbox.branches(example.remotes + "/Infrastructure.git")[ReviewOptions.defaultPrefix + "/t2"] != nil)

        // The loop waits (exit 75) while the forge has not landed everything, and ends when all landed.
        let script = section == "GitLab CI" ? "status=75\n" + land : land
        let (process, output) = try Self.start(
            script, in: checkout, sandbox: sandbox, environment: ["LAND_INTERVAL": "1"])
        let deadline = Date().addingTimeInterval(240)
        while process.isRunning && Date() < deadline {
            for name in ["Infrastructure", "Order", ExampleBuilder.superprojectName] {
                try Self.landAll(in: example.remotes + "/\(name).git", forge: forge, sandbox: sandbox)
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("exit=75") && text.hasSuffix("exit=0\n"), "it waited, then ended: \(text)")
        let runs = try sandbox.runs(in: checkout)
        #expect(!runs.contains { $0["state"] as? String == "waiting" }, "no review run waits any more: \(runs)")
        #expect(runs.contains { $0["reviews"] != nil }, "positive control: the review runs are listed")
    }

    /// The loop fails at once on anything but 75 (the control: 75 makes it wait).
    @Test func theLandLoopStopsOnAnythingBut75() throws {
        let (_, land) = try Self.reviewLines("GitHub Actions")
        let sandbox = try GitSandbox()
        let bin = sandbox.path("fake-bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        // A tenantctl whose --land says 75 twice, then 2 (a conflict).
        try
            "#!/bin/sh\nn=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count\n[ $n -lt 3 ] && exit 75\nexit 2\n"
            .write(toFile: bin + "/tenantctl", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin + "/tenantctl")
        let work = sandbox.path("work")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let result = try CIGuideTests.run(
            "LAND_INTERVAL=0; " + land, in: work, sandbox: sandbox, shell: CIGuideTests.githubShell, bin: bin)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "exit=75").count == 3, "waited twice: \(result.stdout)")
        #expect(result.stdout.contains("exit=2") && !result.stdout.contains("exit=0"), "\(result.stdout)")
    }
}
