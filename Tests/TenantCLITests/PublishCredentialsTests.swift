import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantObservation

/// A password in a remote URL reaches the server and nothing else: no file tenantctl writes, no output, no commit.
@Suite("PublishCredentialsTests", .sharedServers, .tags(.slow), .notInTheFastSet)
struct PublishCredentialsTests {
    /// Every file under the common git directory's `tenantctl/` whose bytes contain `secret`, and how many were read.
    static func filesHolding(_ secret: String, under directory: String) throws -> (holding: [String], read: Int) {
        var holding: [String] = []
        var read = 0
        let enumerator = try #require(FileManager.default.enumerator(atPath: directory))
        while let relative = enumerator.nextObject() as? String {
            let path = directory + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            read += 1
            if data.range(of: Data(secret.utf8)) != nil { holding.append(relative) }
        }
        return (holding, read)
    }

    @Test(.enabled(if: ServerAvailability.http, "nginx, fcgiwrap or git-http-backend missing"))
    func aReachablePasswordIsInNoFileTenantctlWritesAndNoOutput() throws {
        let served = try ServedExample(.http, credentialsInURL: true, stage: .conflict)
        let password = try #require(served.http).password
        var outputs: [CLIResult] = []
        // roll publishes what it can and journals it; t2 conflicts.
        let roll = served.tenantctl(["roll", "--verbose"])
        #expect(roll.status == 2, "\(roll.stdout)\(roll.stderr)")
        outputs.append(roll)
        outputs.append(served.tenantctl(["runs", "--json"]))
        outputs.append(served.tenantctl(["audit", "--json"]))
        // resolve writes its state, publishes on --continue (journalled).
        let start = served.tenantctl(["resolve", "t2"])
        #expect(start.status == 2, "\(start.stdout)\(start.stderr)")
        outputs.append(start)
        let common = served.workspace + "/.git/tenantctl"
        let during = try Self.filesHolding(password, under: common)
        #expect(during.holding == [], "files with the password while resolving: \(during.holding)")
        let resolution = ExampleScenario.conflictResolution
        let module = "\(served.workspace)/Modules/\(resolution.module)"
        try resolution.content.write(toFile: "\(module)/\(resolution.file)", atomically: true, encoding: .utf8)
        try served.sandbox.git(["add", "--", resolution.file], in: module)
        let done = served.tenantctl(["resolve", "--continue", "--verbose"])
        #expect(done.status == 0, "\(done.stdout)\(done.stderr)")
        outputs.append(done)
        // Undo of the roll reaches the server with the password it takes from the superproject's remote.
        let runId = try #require(
            try FileManager.default.contentsOfDirectory(atPath: common + "/journal").sorted().first?
                .replacingOccurrences(of: ".json", with: ""))
        let before = try served.remoteBranches()
        let undo = served.tenantctl(["roll", "--undo", runId, "--json"])
        outputs.append(undo)
        let after = try served.remoteBranches()
        #expect(undo.status == 0 || after != before, "\(undo.stdout)\(undo.stderr)")

        let scanned = try Self.filesHolding(password, under: common)
        #expect(scanned.holding == [], "files with the password: \(scanned.holding)")
        // Positive controls: the scan read the journal and the mirrors' configs, and the password was in use.
        #expect(scanned.read > 10)
        #expect(FileManager.default.fileExists(atPath: common + "/mirrors/Infrastructure.git/config"))
        #expect(try served.sandbox.git(["config", "remote.origin.url"], in: served.workspace).contains(password))
        for output in outputs {
            #expect(!output.stdout.contains(password), "\(output.stdout)")
            #expect(!output.stderr.contains(password), "\(output.stderr)")
        }
    }

    @Test func restoringCredentialsTakesTheAuthorityFromItsSource() {
        let origin = "http://alice:s3cret@127.0.0.1:8080/git/Superproject.git"
        #expect(
            ModuleRemotes.restoringCredentials("http://alice:***@127.0.0.1:8080/git/Order.git", from: [origin])
                == "http://alice:s3cret@127.0.0.1:8080/git/Order.git")
        // Another host: the secret is not handed to it; the user name stays for a credential helper.
        #expect(
            ModuleRemotes.restoringCredentials("http://alice:***@evil.example/git/Order.git", from: [origin])
                == "http://alice@evil.example/git/Order.git")
        #expect(ModuleRemotes.restoringCredentials("origin", from: [origin]) == "origin")
    }

    @Test(.enabled(if: ServerAvailability.http, "nginx, fcgiwrap or git-http-backend missing"))
    func moduleAddWithAPasswordInTheURLRefusesUnlessAllowed() throws {
        let served = try ServedExample(.http, stage: .beforeUpdates)
        let server = try #require(served.http)
        try served.sandbox.makeRepository("invoice-src", branch: "general_dev", files: ["Invoice.swift": "// x\n"])
        try served.sandbox.git(["clone", "-q", "--bare", served.sandbox.path("invoice-src"), served.remote("Invoice")])
        let url = server.url("Invoice.git", userInfo: "bob:hunter2")
        let before = try served.remoteBranches()
        let refused = served.tenantctl(["module", "add", "Invoice", "--url", url])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("http://bob:***@127.0.0.1"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--allow-credentials-in-url"))
        #expect(!refused.stderr.contains("hunter2") && !refused.stdout.contains("hunter2"))
        #expect(try served.remoteBranches() == before)
        // Positive control: the same URL with the password for the server's own user, explicitly allowed.
        let allowed = served.tenantctl([
            "module", "add", "Invoice", "--url", server.url("Invoice.git"), "--allow-credentials-in-url",
        ])
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
        #expect(
            try served.sandbox.git(["show", "general_dev:modules.json"], in: served.remote("Superproject"))
                .contains(server.password))
    }
}
