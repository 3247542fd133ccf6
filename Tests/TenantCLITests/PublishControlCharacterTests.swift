import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// Control characters from repositories are shown escaped in text, table and Markdown output; JSON keeps them exact.
@Suite("PublishControlCharacterTests", .tags(.slow), .notInTheFastSet)
struct PublishControlCharacterTests {
    static let esc = "\u{1B}"
    static let bel = "\u{07}"

    /// No raw control character but line breaks and tabs.
    static func isClean(_ text: String) -> Bool {
        !text.unicodeScalars.contains {
            ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F || (0x80...0x9F).contains($0.value)
        }
    }

    /// Whether a string in the JSON document equals or contains `needle`.
    static func json(_ text: String, contains needle: String) throws -> Bool {
        func search(_ value: Any) -> Bool {
            if let string = value as? String { return string.contains(needle) }
            if let array = value as? [Any] { return array.contains(where: search) }
            if let object = value as? [String: Any] { return object.values.contains(where: search) }
            return false
        }
        return search(try JSONSerialization.jsonObject(with: Data(text.utf8)))
    }

    @Test func theEscaperShowsEveryControlCharacterAndLeavesOtherTextAlone() {
        #expect(
            TerminalText.escaped("Evil\u{1B}]0;x\u{07}Co\r\u{7F}\u{9B}2J\u{00}")
                == "Evil\\e]0;x\\aCo\\r\\x7f\\u{9b}2J\\x00")
        #expect(TerminalText.escaped("a\tb\nc") == "a\\tb\\nc")
        #expect(TerminalText.escaped("a\tb\nc", keepingLayout: true) == "a\tb\nc")
        #expect(TerminalText.escaped("Müller AG — ü ß 日本") == "Müller AG — ü ß 日本")
    }

    @Test func aTenantNameIsEscapedInTheListAndExactInJSON() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let name = "Evil \(Self.esc)]0;pwned\(Self.bel)\(Self.esc)[2JCorp"
        let file = example.workspace + "/Tenants/t1.json"
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        object["name"] = name
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: file))
        let list = example.tenantctl(["tenant", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Evil \\e]0;pwned\\a\\e[2JCorp"), "\(list.stdout.debugDescription)")
        #expect(Self.isClean(list.stdout))
        let json = example.tenantctl(["tenant", "list", "--json"])
        #expect(json.status == 0)
        #expect(try Self.json(json.stdout, contains: name))
    }

    /// A commit on Order's t3 branch whose subject and file name carry terminal sequences, pinned by t3.
    static func pushHostileCommit(_ example: LifecycleExample) throws {
        let sandbox = example.sandbox
        let clone = sandbox.path("hostile-order")
        try sandbox.git(["clone", "-q", "-b", "t3", example.remote("Order"), clone])
        try "x\n".write(toFile: clone + "/A\(Self.esc)[31mevil.txt", atomically: true, encoding: .utf8)
        try sandbox.git(["add", "-A"], in: clone)
        try sandbox.git(["commit", "-q", "-m", "subject \(Self.esc)[2J\(Self.esc)]0;title\(Self.bel)ring"], in: clone)
        try sandbox.git(["push", "-q", "origin", "t3"], in: clone)
        let commit = try sandbox.git(["rev-parse", "HEAD"], in: clone)
        try example.editSuperproject("t3", gitlinks: ["Modules/Order": commit])
    }

    @Test func commitSubjectsAndPathsAreEscapedInCustomizeUndoAndAudit() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        try Self.pushHostileCommit(example)
        let undo = example.tenantctl(["customize", "--undo", "t3", "Order"])
        #expect(undo.status != 0)
        #expect(undo.stderr.contains("subject \\e[2J\\e]0;title\\aring"), "\(undo.stderr.debugDescription)")
        #expect(Self.isClean(undo.stderr) && Self.isClean(undo.stdout))

        let audit = example.tenantctl(["audit"])
        #expect(audit.stdout.contains("A\\e[31mevil.txt"), "\(audit.stdout.debugDescription)")
        #expect(Self.isClean(audit.stdout) && Self.isClean(audit.stderr))
        let markdown = example.tenantctl(["audit", "--format", "markdown"])
        #expect(markdown.stdout.contains("A\\\\e\\[31mevil.txt"), "\(markdown.stdout.debugDescription)")
        #expect(Self.isClean(markdown.stdout))
        let json = example.tenantctl(["audit", "--json", "--changed-files"])
        #expect(try Self.json(json.stdout, contains: "A\(Self.esc)[31mevil.txt"))
    }

    @Test func aRemoteMessageIsEscapedInRollsTableAndExactInItsJSON() throws {
        let fixture = try RollFixture()
        let message = "no \(Self.esc)[31mway\(Self.bel)"
        _ = try fixture.sandbox.writeExecutable(
            String(fixture.remote("Order").dropFirst(fixture.sandbox.root.count + 1)) + "/hooks/pre-receive",
            "#!/bin/sh\nprintf 'no \\033[31mway\\007\\n' >&2\nexit 1\n")
        let roll = fixture.roll()
        #expect(roll.stdout.contains("no \\e[31mway\\a"), "\(roll.stdout.debugDescription)")
        #expect(Self.isClean(roll.stdout) && Self.isClean(roll.stderr), "\(roll.stderr.debugDescription)")
        let json = fixture.roll(["--json"])
        #expect(try Self.json(json.stdout, contains: message), "\(json.stdout)")
    }
}
