import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// The network timeout at the runner: a remote that accepts the connection and then says nothing. `Git.runNetwork`
/// stops the call at the network timeout — git and the helpers it started (`git-remote-http`, `ssh`) — and throws an
/// error naming the (redacted) remote and the setting. A time limit: without the network timeout these calls would wait
/// forever; broken code fails instead of hanging. The limit counts from the moment a test is started, which in the full
/// parallel suite includes waiting for a thread behind long sweeps, so it is generous: it only has to end a hang.
@Suite(.timeLimit(.minutes(10)), .tags(.slow), .notInTheFastSet) struct NetworkTimeoutTests {
    /// Processes whose command line mentions `needle` (the silent server's port): git, git-remote-http, ssh.
    static func processes(mentioning needle: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> String? in
            guard Int32(entry) != nil,
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { return nil }
            let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return line.contains(needle) ? "\(entry): \(line)" : nil
        }
    }

    static func expectTimedOut(
        _ git: Git, url: String, in sandbox: GitSandbox, server: SilentServer, seconds: Double
    ) throws -> String {
        let started = Date()
        let error = #expect(throws: GitError.self) {
            try git.runNetwork(
                ["ls-remote", "--end-of-options", url], in: sandbox.root, remote: url,
                context: "list the branches of x")
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= seconds - 0.1 && elapsed < seconds + 10, "took \(elapsed) s")
        #expect(server.connections >= 1, "the client never connected: the test would not test a stall")
        let thrown = try #require(error)
        guard case .timedOut(let limit, _) = thrown.kind else {
            Issue.record("not a timeout: \(thrown)")
            return thrown.description
        }
        #expect(limit == seconds)
        // git and every helper it started are gone (a process group is stopped, not only git).
        #if os(Linux)
            let left = processes(mentioning: "127.0.0.1:\(server.port)")
            #expect(left.isEmpty, "\(left)")
        #endif
        return thrown.description
    }

    @Test func aSilentHTTPServerIsCutOffAtTheTimeoutAndTheMessageNamesItRedacted() throws {
        let sandbox = try GitSandbox()
        let server = try SilentServer()
        let git = try sandbox.gitRunner().withNetworkTimeout(1)
        let url = "http://alice:hunter2@127.0.0.1:\(server.port)/git/Article.git"
        let text = try Self.expectTimedOut(git, url: url, in: sandbox, server: server, seconds: 1)
        #expect(
            text.hasPrefix(
                "list the branches of x: timed out after 1 s talking to http://alice:***@127.0.0.1:\(server.port)/git/"
                    + "Article.git; raise --network-timeout"), "\(text)")
        #expect(!text.contains("hunter2"), "\(text)")
    }

    @Test func aSilentSSHServerIsCutOffAtTheTimeout() throws {
        let sandbox = try GitSandbox()
        let server = try SilentServer()
        // The runner's own ssh (`BatchMode=yes`): it waits for the server's banner, which never comes.
        let git = try sandbox.gitRunner().withNetworkTimeout(1.5)
        let url = "ssh://git@127.0.0.1:\(server.port)/srv/Article.git"
        let text = try Self.expectTimedOut(git, url: url, in: sandbox, server: server, seconds: 1.5)
        #expect(text.contains("timed out after 1.5 s talking to \(url)"), "\(text)")
    }

    /// A remote given by name is named with its URL.
    @Test func aRemoteNameIsShownWithItsURL() throws {
        let sandbox = try GitSandbox()
        let server = try SilentServer()
        let repository = try sandbox.makeRepository("repo")
        let url = "http://127.0.0.1:\(server.port)/git/Superproject.git"
        try sandbox.git(["remote", "add", "origin", url], in: repository)
        let git = try sandbox.gitRunner().withNetworkTimeout(1)
        let error = #expect(throws: GitError.self) {
            try git.runNetwork(
                ["fetch", "origin"], in: repository, remote: "origin", context: "fetch the superproject")
        }
        #expect(try #require(error).description.contains("talking to origin (\(url))"))
        #expect(try sandbox.refs(repository).keys.filter { $0.hasPrefix("refs/remotes/") }.isEmpty)
    }

    /// Positive control: the same call against a remote that answers finishes normally, well within the limit, and
    /// a call that fails on its own is a failure, not a timeout.
    @Test func aRemoteThatAnswersIsNotCutOff() throws {
        let sandbox = try GitSandbox()
        let repository = try sandbox.makeRepository("repo")
        let git = try sandbox.gitRunner().withNetworkTimeout(30)
        let output = try git.runNetwork(["ls-remote", "--", repository], in: sandbox.root, remote: repository)
        #expect(output.text.contains("refs/heads/main"))
        let error = #expect(throws: GitError.self) {
            try git.runNetwork(["ls-remote", "--", sandbox.path("missing")], in: sandbox.root, remote: "missing")
        }
        #expect(try #require(error).kind == .failed(status: 128))
    }
}
