import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// A first switch clones the modules the tenant needs. Their objects are downloaded once: into tenantctl's mirrors by
/// the check that every pin can be cloned, and the clone copies them from its mirror (`--reference … --dissociate`)
/// instead of downloading them again. Counted where the remotes send them: git runs `uploadpack.packObjectsHook` for
/// every pack an upload sends.
@Suite(.tags(.slow), .notInTheFastSet) struct SwitchDownloadTests {
    @Test func aFirstSwitchDownloadsEachModuleOnce() throws {
        let fixture = try SwitchCloneFixture(recurse: false)
        let sandbox = fixture.sandbox
        // Over git's protocol (a `file://` URL): from a plain path git clones by copying the object files, sending
        // no pack to count. The modules' relative URLs follow the superproject's.
        try sandbox.git(
            ["remote", "set-url", "origin", "file://" + fixture.remote("Superproject")], in: fixture.workspace)
        let log = sandbox.path("packs-sent")
        let hook = try sandbox.writeExecutable("count-packs", "#!/bin/sh\npwd >> '\(log)'\nexec \"$@\"\n")
        try sandbox.git(["config", "--global", "uploadpack.packObjectsHook", hook])

        // The executable, as a user runs it (`TENANTCTL_BINARY` runs another build: the counts compare builds).
        let switched = try sandbox.tenantctlProcess(["switch", "t2"], in: fixture.workspace)
        #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
        let sent = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        for module in SwitchCloneFixture.modules {
            // One pack: the mirror's fetch (the hook counts, or this would be 0), none for the clone.
            let packs = sent.split(separator: "\n").filter { $0.hasSuffix("/\(module).git") }.count
            #expect(packs == 1, "\(module): \(packs) packs sent\n\(sent)")
            // The clone is complete on its own (no link to the mirror), at the pin, with origin's branches.
            let checkout = fixture.module(module)
            let gitDirectory = try sandbox.git(["rev-parse", "--absolute-git-dir"], in: checkout)
            #expect(!FileManager.default.fileExists(atPath: gitDirectory + "/objects/info/alternates"), "\(module)")
            #expect(try sandbox.git(["rev-parse", "HEAD"], in: checkout) == fixture.pin(module, on: "t2"))
            let fsck = try sandbox.gitResult(["fsck", "--connectivity-only", "--no-dangling"], in: checkout)
            #expect(fsck.status == 0, "\(module): \(fsck.stdout)\(fsck.stderr)")
            let remoteBranches = try sandbox.git(
                ["for-each-ref", "--format=%(refname)", "refs/remotes/origin/"], in: checkout)
            #expect(remoteBranches.contains("refs/remotes/origin/general_dev"), "\(module): \(remoteBranches)")
        }
    }
}
