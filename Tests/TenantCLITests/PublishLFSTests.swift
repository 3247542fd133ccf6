import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantGit

/// Git LFS: the objects a pushed commit needs reach the server before the ref, though the repositories' hooks (and
/// so git-lfs's pre-push hook) never run.
@Suite("PublishLFSTests", .tags(.slow), .notInTheFastSet)
struct PublishLFSTests {
    static let installed: Bool = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let found = path.split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/git-lfs")
        }
        if !found { print("note: Git LFS tests skipped: git-lfs is not installed (apt-get install git-lfs)") }
        return found
    }()

    /// Image bytes that are not text (a pointer file would be).
    static let image = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 3) })

    /// Installs git-lfs's filters in the sandbox's global config (as `git lfs install` does on a developer machine).
    static func installLFS(_ sandbox: GitSandbox) throws {
        try sandbox.git(["lfs", "install", "--skip-repo"])
    }

    @Test(.enabled(if: PublishLFSTests.installed, "git-lfs is not installed"))
    func pinPushUploadsTheLFSObjectsOfATenantsModuleBranch() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        try Self.installLFS(sandbox)
        let switched = example.tenantctl(["switch", "t3"])
        try #require(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
        // A developer adds the tenant's logo to its Order branch, tracked by LFS, with the hooks git-lfs installs.
        let order = example.workspace + "/Modules/Order"
        try sandbox.git(["lfs", "install", "--local"], in: order)
        try sandbox.git(["lfs", "track", "*.png"], in: order)
        try Self.image.write(to: URL(fileURLWithPath: order + "/logo.png"))
        try sandbox.git(["add", ".gitattributes", "logo.png"], in: order)
        try sandbox.git(["commit", "-q", "-m", "t3 logo"], in: order)
        let pointer = try sandbox.git(["cat-file", "-p", "HEAD:logo.png"], in: order)
        try #require(pointer.hasPrefix("version https://git-lfs.github.com/spec/v1"), "\(pointer)")
        // Before: the server has no LFS object.
        #expect(!FileManager.default.fileExists(atPath: example.remote("Order") + "/lfs/objects"))

        let pin = example.tenantctl(["pin", "--push"])
        #expect(pin.status == 0, "\(pin.stdout)\(pin.stderr)")
        // The server has the object: git lfs fsck of the pushed branch, on the server side.
        let fsck = try sandbox.gitResult(["lfs", "fsck", "t3"], in: example.remote("Order"))
        #expect(fsck.status == 0 && fsck.stdout.contains("Git LFS fsck OK"), "\(fsck.stdout)\(fsck.stderr)")

        // A fresh clone of the superproject, switched to t3, gets the real bytes.
        let clone = sandbox.path("fresh")
        try sandbox.git(["clone", "-q", "-b", "general_dev", example.remote("Superproject"), clone])
        let fresh = sandbox.tenantctl(["switch", "t3"], in: clone)
        #expect(fresh.status == 0, "\(fresh.stdout)\(fresh.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: clone + "/Modules/Order/logo.png"))
        #expect(bytes == Self.image)
    }

    /// The same over smart HTTP with basic auth (nginx, the server's LFS endpoint, a credential helper): the objects
    /// reach the server through git-lfs's batch API, and a fresh clone over HTTP switched to t3 gets the real bytes.
    @Test(
        .enabled(
            if: PublishLFSTests.installed && ServerAvailability.http && GitHTTPServer.servesLFS,
            "git-lfs, nginx, fcgiwrap, git-http-backend or python3 missing"))
    func pinPushUploadsTheLFSObjectsOverSmartHTTP() throws {
        let served = try ServedExample(.http)
        let sandbox = served.sandbox
        try Self.installLFS(sandbox)
        let switched = served.tenantctl(["switch", "t3"])
        try #require(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
        let order = served.workspace + "/Modules/Order"
        try sandbox.git(["lfs", "install", "--local"], in: order)
        try sandbox.git(["lfs", "track", "*.png"], in: order)
        try Self.image.write(to: URL(fileURLWithPath: order + "/logo.png"))
        try sandbox.git(["add", ".gitattributes", "logo.png"], in: order)
        try sandbox.git(["commit", "-q", "-m", "t3 logo"], in: order)
        #expect(!FileManager.default.fileExists(atPath: served.remote("Order") + "/lfs/objects"))

        let pin = served.tenantctl(["pin", "--push"])
        #expect(pin.status == 0, "\(pin.stdout)\(pin.stderr)")
        let fsck = try sandbox.gitResult(["lfs", "fsck", "t3"], in: served.remote("Order"))
        #expect(fsck.status == 0 && fsck.stdout.contains("Git LFS fsck OK"), "\(fsck.stdout)\(fsck.stderr)")

        let http = try #require(served.http)
        let clone = sandbox.path("fresh")
        try sandbox.git(["clone", "-q", "-b", "general_dev", http.anonymousURL("Superproject.git"), clone])
        let fresh = sandbox.tenantctl(["switch", "t3"], in: clone, environment: served.environment)
        #expect(fresh.status == 0, "\(fresh.stdout)\(fresh.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: clone + "/Modules/Order/logo.png"))
        #expect(bytes == Self.image)
    }

    @Test(.enabled(if: PublishLFSTests.installed, "git-lfs is not installed"))
    func rollPublishesMergesOfLFSContentTheCloneCanCheckOut() throws {
        let fixture = try RollFixture()
        let sandbox = fixture.sandbox
        try Self.installLFS(sandbox)
        // general_dev of Order gets an LFS file, pushed the plain way (git-lfs's hook uploads it).
        let work = sandbox.path("order-dev")
        try sandbox.git(["clone", "-q", "-b", "general_dev", fixture.remote("Order"), work])
        try sandbox.git(["lfs", "track", "*.png"], in: work)
        try Self.image.write(to: URL(fileURLWithPath: work + "/manual.png"))
        try sandbox.git(["add", ".gitattributes", "manual.png"], in: work)
        try sandbox.git(["commit", "-q", "-m", "manual"], in: work)
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: work)
        let roll = fixture.roll()
        #expect(roll.status == 0 || roll.status == 2, "\(roll.stdout)\(roll.stderr)")
        let fsck = try sandbox.gitResult(["lfs", "fsck", "--pointers", "--objects"], in: fixture.remote("Order"))
        #expect(fsck.status == 0, "\(fsck.stdout)\(fsck.stderr)")
        let clone = sandbox.path("fresh")
        try sandbox.git(["clone", "-q", "-b", "general_dev", fixture.remote("Superproject"), clone])
        let fresh = sandbox.tenantctl(["switch", "t1"], in: clone)
        #expect(fresh.status == 0, "\(fresh.stdout)\(fresh.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: clone + "/Modules/Order/manual.png")) == Self.image)
    }

    @Test(.enabled(if: PublishLFSTests.installed, "git-lfs is not installed"))
    func withoutGitLFSARepositoryWithLFSObjectsIsNotPushed() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        try Self.installLFS(sandbox)
        try #require(example.tenantctl(["switch", "t3"]).status == 0)
        let order = example.workspace + "/Modules/Order"
        try sandbox.git(["lfs", "track", "*.png"], in: order)
        try Self.image.write(to: URL(fileURLWithPath: order + "/logo.png"))
        try sandbox.git(["add", ".gitattributes", "logo.png"], in: order)
        try sandbox.git(["commit", "-q", "-m", "t3 logo"], in: order)
        let before = try example.snapshot()["Order"]
        // Then a machine without git-lfs: no filter configured, a PATH with git but without git-lfs.
        try sandbox.git(["config", "--global", "--remove-section", "filter.lfs"])
        // Such a machine's checkout holds the pointer file, not the image: without it the working tree would look
        // modified (whenever git re-reads the file) and pin would refuse for that reason instead.
        try sandbox.git(["checkout", "--", "logo.png"], in: order)
        #expect(try sandbox.git(["status", "--porcelain"], in: order).isEmpty)
        let bin = sandbox.path("git-only-bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let git = try #require(
            (sandbox.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/git" }.first {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        try FileManager.default.createSymbolicLink(atPath: bin + "/git", withDestinationPath: git)
        let pin = sandbox.tenantctl(
            ["pin", "--push", "-C", example.workspace], environment: ["PATH": bin, "TENANTCTL_GIT": bin + "/git"])
        #expect(pin.status != 0)
        #expect(pin.stderr.contains("git-lfs is not installed"), "\(pin.stderr)")
        #expect(try example.snapshot()["Order"] == before)
    }

    @Test func aRepositoryStoresLFSObjectsOnlyWithAnLFSDirectory() throws {
        let sandbox = try GitSandbox()
        try sandbox.makeRepository("plain")
        #expect(!LFSUpload.storesObjects(sandbox.path("plain")))
        try FileManager.default.createDirectory(
            atPath: sandbox.path("plain/.git/lfs/objects"), withIntermediateDirectories: true)
        #expect(LFSUpload.storesObjects(sandbox.path("plain")))
        #expect(LFSUpload.arguments(remote: "origin") == ["origin"])
        #expect(LFSUpload.arguments(remote: "/srv/Order.git") == ["/srv/Order.git", "file:///srv/Order.git"])
    }
}
