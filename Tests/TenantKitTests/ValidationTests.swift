import Foundation
import TenantKit
import Testing

/// Runs the real `git check-ref-format --branch` with the machine configuration isolated.
private func gitAcceptsBranch(_ name: String) throws -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
    process.arguments = ["check-ref-format", "--branch", name]
    var environment = ProcessInfo.processInfo.environment
    environment["GIT_CONFIG_NOSYSTEM"] = "1"
    environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
    environment["LC_ALL"] = "C"
    process.environment = environment
    process.currentDirectoryURL = FileManager.default.temporaryDirectory
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus == 0
}

private let branchNames = [
    "main", "t1", "general_dev", "feature/x", "a/b/c", "tenant-42", "ä-umlaut", "x@y", "@a", "a.b",
    "a..b", "-x", "x.lock", "a/x.lock/b", "x.lock/b", "x@{1}", "@{-1}", "a b", "a/", "a.", "a//b",
    "/a", ".a", "a/.b", "HEAD", "a~1", "a^", "a:b", "a?", "a*", "a[b", "a\\b", "a\u{7F}", "a\tb", "a\nb",
    "", "refs/heads/x", "a/b.", "x.lo", ".lock", "a@", "@@", "a/-b",
]

@Suite("Validation helpers")
struct ValidationTests {
    @Test func branchRulesAgreeWithGit() throws {
        #expect(branchNames.count >= 30)
        for name in branchNames {
            let git = try gitAcceptsBranch(name)
            let ours = RefName.validateBranch(name) == nil
            #expect(ours == git, "\(name.debugDescription): git \(git ? "accepts" : "refuses"), we do not agree")
        }
    }

    @Test func branchRulesFromReliability12() {
        for name in ["a..b", "-x", "x.lock", "x@{1}", "@", "a b", "a/"] {
            #expect(RefName.validateBranch(name) != nil, "\(name)")
        }
        #expect(RefName.validateBranch("a..b") == "contains '..'")
        #expect(RefName.validateBranch("a/") == "ends with '/'")
        #expect(RefName.validateBranch("@")?.contains("HEAD") == true)
    }

    @Test(arguments: ["a/b", "a\\b", "a..b", "a b", "a\tb", "-a", ".a", "", "a\u{0}", "a\u{202E}b"])
    func invalidModuleNames(name: String) {
        #expect(ModuleName.validate(name) != nil, "\(name.debugDescription)")
    }

    @Test func validModuleNames() {
        for name in ["Infrastructure", "Order_2", "a.b", "Küche", "a-b"] {
            #expect(ModuleName.validate(name) == nil, "\(name)")
        }
    }

    @Test(arguments: [
        "../x", "a/../../x", "/abs", "C:\\x", "C:x", "\\\\srv\\x", "", ".", "a/", "a\\b", "a//b", "a/./b",
        ".git", "a/.git", ".GIT/x", "a/.Git", "git~1", "a/GIT~2", "a /b", "a/b.", "a/b ", ".gitmodules",
        "a\u{200C}b", "a\u{200F}", "a\u{202A}b", "a\u{202E}", "a\u{2066}b", "a\u{2069}", "\u{FEFF}a",
        "a\rb", "a\nb", "a\u{7}b", ":(top)a",
    ])
    func invalidPaths(path: String) {
        #expect(RepoPath.validate(path) != nil, "\(path.debugDescription)")
    }

    @Test func validPaths() {
        for path in ["Modules/Infrastructure", "a", "a/b/c", "Module A/x", "Über/ß", ".github/x", "a.b/c", "git~x"] {
            #expect(RepoPath.validate(path) == nil, "\(path)")
        }
        #expect(RepoPath.validate("a/../../x") == "contains a '..' component")
        #expect(RepoPath.validate("a/.GIT") == "contains a '.GIT' component")
    }

    @Test func classifiesURLs() {
        #expect(RemoteURL.classify("../Order.git") == .relative)
        #expect(RemoteURL.classify("./Order.git") == .relative)
        #expect(RemoteURL.classify("/srv/git/x.git") == .localPath)
        #expect(RemoteURL.classify("repos/x.git") == .localPath)
        #expect(RemoteURL.classify("a/b:c") == .localPath)
        #expect(RemoteURL.classify("C:\\repos\\x") == .localPath)
        #expect(RemoteURL.classify("file:///srv/x.git") == .file)
        #expect(RemoteURL.classify("https://example.com/x.git") == .network("https"))
        #expect(RemoteURL.classify("SSH://git@example.com/x.git") == .network("ssh"))
        #expect(RemoteURL.classify("git://example.com/x.git") == .network("git"))
        #expect(RemoteURL.classify("git@example.com:org/x.git") == .scpLike)
        #expect(RemoteURL.classify("host:x") == .scpLike)
        #expect(RemoteURL.isLocal("/srv/x") && RemoteURL.isLocal("file:///srv/x"))
        #expect(!RemoteURL.isLocal("../x") && !RemoteURL.isLocal("git@h:x") && !RemoteURL.isLocal("https://h/x"))
    }

    @Test(arguments: [
        "--upload-pack=touch /tmp/pwned", "-u./x", "ext::sh -c touch% /tmp/pwned", "fd::17", "foo::bar",
        "ssh://-oProxyCommand=touch /tmp/pwned/x", "ssh://user@-oProxyCommand=x/y", "ssh://-user@host/x",
        "git@-oProxyCommand=x:y", "-oProxyCommand=x@h:y", "ssh://%2doProxyCommand=x/y", "ftp://host/x",
        "https://", "", "https://host/x\n", "https://host/\u{0}x", " https://host/x",
    ])
    func refusedURLs(url: String) {
        #expect(RemoteURL.validate(url) != nil, "\(url.debugDescription)")
    }

    @Test func acceptedURLs() {
        for url in [
            "https://example.com/org/x.git", "http://h/x", "ssh://git@host:22/x.git", "git://h/x", "git@h:org/x.git",
            "../x.git", "./x", "/srv/git/x.git", "file:///srv/x.git", "https://user:secret@host/x.git",
            "ssh://[::1]/x",
        ] {
            #expect(RemoteURL.validate(url) == nil, "\(url)")
        }
    }

    @Test func validationReasonNeverRepeatsTheURL() throws {
        // The URL must be refused (a nil reason would make the check below pass for nothing), without its password.
        let reason = try #require(RemoteURL.validate("ftp://user:hunter2@host/x"))
        #expect(!reason.isEmpty)
        #expect(!reason.contains("hunter2"))
    }

    @Test(arguments: [
        ("https://h/org/super.git", "../A.git", "https://h/org/A.git"),
        ("https://h/org/super.git/", "../A.git", "https://h/org/A.git"),
        ("https://h/org/super.git", "./A.git/", "https://h/org/super.git/A.git"),
        ("https://h/org/super.git", "../../A", "https://h/A"),
        ("git@h:org/super.git", "../A.git", "git@h:org/A.git"),
        ("git@h:super.git", "../A.git", "git@h:A.git"),
        ("/srv/git/super.git", "../A.git", "/srv/git/A.git"),
        ("super", "../x", "x"),
        ("foo/bar", "../x", "foo/x"),
        ("../super", "../x", "../x"),
        ("https://h/org/super.git", "https://other/x", "https://other/x"),
    ])
    func resolvesRelativeURLsLikeGit(base: String, relative: String, expected: String) {
        #expect(RemoteURL.resolve(relative: relative, against: base) == expected)
    }

    @Test func resolveFailsWhereGitFails() {
        #expect(RemoteURL.resolve(relative: "../../x", against: "super") == nil)
    }

    @Test func redactsPasswordsKeepingTheUser() {
        #expect(RemoteURL.redacted("https://user:hunter2@host/x.git") == "https://user:***@host/x.git")
        // A lone user name over https may be a token: it is hidden too.
        #expect(RemoteURL.redacted("https://ghp_token@host/x.git") == "https://***@host/x.git")
        #expect(RemoteURL.redacted("ssh://git@host/x.git") == "ssh://git@host/x.git")
        #expect(RemoteURL.redacted("git@host:x.git") == "git@host:x.git")
        #expect(RemoteURL.redacted("https://u:p:q@host/a@b") == "https://u:***@host/a@b")
    }
}
