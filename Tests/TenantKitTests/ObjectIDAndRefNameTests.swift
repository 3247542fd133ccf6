import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// Typed object ids and ref names: only valid values can be made, and they read, print and encode exactly as the
/// plain strings they replace.
@Suite struct ObjectIDAndRefNameTests {
    static let sha1 = "0123456789abcdef0123456789abcdef01234567"
    static let sha256 = String(repeating: "0123456789abcdef", count: 4)

    @Test func anObjectIDHoldsOnlyAFullLowerCaseHexID() throws {
        // Positive controls: both hash lengths.
        #expect(ObjectID(Self.sha1)?.hex == Self.sha1)
        #expect(ObjectID(Self.sha256)?.hex == Self.sha256)
        // Negative: short, upper case, not hex, a ref name, empty, a trailing newline.
        #expect(ObjectID(String(Self.sha1.prefix(7))) == nil)
        #expect(ObjectID(Self.sha1.uppercased()) == nil)
        #expect(ObjectID(String(Self.sha1.dropLast()) + "g") == nil)
        #expect(ObjectID("refs/heads/main") == nil)
        #expect(ObjectID("") == nil)
        #expect(ObjectID(Self.sha1 + "\n") == nil)
    }

    @Test func anObjectIDPrintsShortensAndOrdersAsItsHex() throws {
        let id = try #require(ObjectID(Self.sha1))
        #expect("\(id)" == Self.sha1)
        #expect(id.short == "0123456")
        #expect(id.short == ObjectID.short(Self.sha1))
        #expect(id.byteLength == 20)
        #expect(ObjectID.short(nil as ObjectID?, none: "-") == "-")
        #expect(ObjectID.short(id, none: "-") == "0123456")
        let other = try #require(ObjectID("1" + String(Self.sha1.dropFirst())))
        #expect(id < other)
        #expect([other, id].sorted() == [id, other])
        #expect(Set([id, try #require(ObjectID(Self.sha1))]).count == 1)
    }

    @Test func anObjectIDEncodesAsThePlainStringAndRefusesAnythingElse() throws {
        struct Holder: Codable, Equatable {
            var id: ObjectID
            var ids: [ObjectID]
        }
        struct Plain: Codable {
            var id: String
            var ids: [String]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let typed = Holder(id: try #require(ObjectID(Self.sha1)), ids: [try #require(ObjectID(Self.sha256))])
        let plain = Plain(id: Self.sha1, ids: [Self.sha256])
        let typedBytes = try encoder.encode(typed)
        #expect(typedBytes == (try encoder.encode(plain)))
        #expect(try JSONDecoder().decode(Holder.self, from: typedBytes) == typed)
        let bad = Data(#"{"id":"abc","ids":[]}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Holder.self, from: bad) }
    }

    @Test func refNamesAreBuiltAndShortenedByKind() throws {
        #expect(RefName.branch("t2")?.name == "refs/heads/t2")
        #expect(RefName.branch("release/5.5.6")?.name == "refs/heads/release/5.5.6")
        #expect(RefName.tag("v1.0")?.name == "refs/tags/v1.0")
        #expect(RefName.remoteTracking("t2", remote: "origin")?.name == "refs/remotes/origin/t2")
        #expect(RefName.branch("release/5.5.6")?.shortName == "release/5.5.6")
        #expect(RefName.tag("v1.0")?.shortName == "v1.0")
        #expect(RefName.remoteTracking("t2", remote: "origin")?.shortName == "origin/t2")
        #expect(RefName("refs/tenantctl/remotes/origin/t2")?.shortName == "refs/tenantctl/remotes/origin/t2")
        #expect(RefName.branch("t2")?.isBranch == true)
        #expect(RefName.tag("t2")?.isBranch == false)
        #expect("\(try #require(RefName.branch("t2")))" == "refs/heads/t2")
        // Not a full name, or a branch name git refuses.
        #expect(RefName("main") == nil)
        #expect(RefName("HEAD") == nil)
        #expect(RefName.branch("HEAD") == nil)
        #expect(RefName.branch("-x") == nil)
        #expect(RefName.branch("") == nil)
        #expect(RefName.remoteTracking("t2", remote: "a/b") == nil)
    }

    @Test func refNamesEncodeAsThePlainString() throws {
        let ref = try #require(RefName.branch("t2"))
        #expect(try JSONEncoder().encode([ref]) == (try JSONEncoder().encode(["refs/heads/t2"])))
        #expect(try JSONDecoder().decode([RefName].self, from: Data(#"["refs/heads/t2"]"#.utf8)) == [ref])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([RefName].self, from: Data(#"["refs/heads/a..b"]"#.utf8))
        }
    }

    /// The rule agrees with git's own `check-ref-format` on names that pass and names that fail.
    @Test func refNameValidationAgreesWithGitCheckRefFormat() throws {
        let sandbox = try GitSandbox()
        let names = [
            // Accepted by git (positive controls).
            "refs/heads/t2", "refs/heads/release/5.5.6", "refs/tags/v1.0", "refs/remotes/origin/t2",
            "refs/tenantctl/remotes/origin/general_dev", "refs/heads/a.b", "refs/heads/ümlaut", "refs/heads/a@b",
            "refs/heads/x.lockx",
            // Refused by git.
            "refs/heads/a..b", "refs/heads/.hidden", "refs/heads/a/.b", "refs/heads/x.lock", "refs/heads/x.lock/y",
            "refs/heads/a b", "refs/heads/a~1", "refs/heads/a^", "refs/heads/a:b", "refs/heads/a?", "refs/heads/a*",
            "refs/heads/a[b", "refs/heads/a\\b", "refs/heads/a@{1}", "refs/heads/", "refs/heads//a", "refs/heads/a.",
            "refs/heads/a\u{7f}", "refs/heads/a\tb", "refs//heads",
        ]
        var gitAccepted = 0
        for name in names {
            let git = try sandbox.gitResult(["check-ref-format", name]).status == 0
            if git { gitAccepted += 1 }
            #expect((RefName(name) != nil) == git, "\(name): git says \(git ? "valid" : "invalid")")
        }
        #expect(gitAccepted == 9)
    }
}
