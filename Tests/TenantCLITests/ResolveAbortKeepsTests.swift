import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// `resolve --abort` puts back only what the resolution left as it left it: a file the user edited, staged or
/// resolved since is kept (in the repository's stash, on the commit the repository goes back to) and named with the
/// commands that show it and bring it back.
@Suite(.tags(.slow), .notInTheFastSet) struct ResolveAbortKeepsTests {
    /// The top stash entry's version of `file` in `directory` (nil: no stash there).
    static func stashed(_ file: String, in directory: String, _ sandbox: GitSandbox) throws -> String? {
        let result = try sandbox.gitResult(["show", "stash@{0}:\(file)"], in: directory)
        return result.status == 0 ? result.stdout : nil
    }

    @Test func anAbortKeepsTheEditsMadeDuringTheResolutionAndPutsTheRestBack() throws {
        let fixture = try ResolveFixture(wide: false)
        let before = try fixture.workingCopy()
        let started = fixture.resolve(["t2"])
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        let infrastructure = "\(fixture.workspace)/Modules/Infrastructure"
        // Half-way: the conflicted file resolved by hand and staged; a superproject file edited, not staged.
        try "half done\n".write(toFile: "\(infrastructure)/Strings.csv", atomically: true, encoding: .utf8)
        try fixture.sandbox.git(["add", "Strings.csv"], in: infrastructure)
        let conf = "\(fixture.workspace)/TenantSpecificStrings.conf"
        try "my own list\n".write(toFile: conf, atomically: true, encoding: .utf8)

        let aborted = fixture.resolve(["--abort"])
        #expect(aborted.status == 0, "\(aborted.stdout)\(aborted.stderr)")
        #expect(aborted.stdout.contains("Strings.csv"), "\(aborted.stdout)")
        #expect(aborted.stdout.contains("git -C Modules/Infrastructure stash pop"), "\(aborted.stdout)")
        #expect(aborted.stdout.contains("TenantSpecificStrings.conf"), "\(aborted.stdout)")
        // Every repository is back as before; the user's changes are in the stashes.
        let after = try fixture.workingCopy()
        #expect(after == before, "\(after)")
        #expect(try Self.stashed("Strings.csv", in: infrastructure, fixture.sandbox) == "half done\n")
        #expect(
            try Self.stashed("TenantSpecificStrings.conf", in: fixture.workspace, fixture.sandbox) == "my own list\n")
        // The stash goes back onto the branch it was kept on.
        let popped = try fixture.sandbox.gitResult(["stash", "pop"], in: infrastructure)
        #expect(popped.status == 0, "\(popped.stdout)\(popped.stderr)")
        #expect(try String(contentsOfFile: "\(infrastructure)/Strings.csv", encoding: .utf8) == "half done\n")
    }

    /// The positive control: without a change of the user's, the abort puts every repository back exactly and keeps
    /// nothing aside.
    @Test func anAbortWithoutAnEditPutsEverythingBackAndKeepsNothing() throws {
        let fixture = try ResolveFixture(wide: false)
        let before = try fixture.workingCopy()
        let started = fixture.resolve(["t2"])
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        let aborted = fixture.resolve(["--abort"])
        #expect(aborted.status == 0, "\(aborted.stdout)\(aborted.stderr)")
        #expect(!aborted.stdout.contains("kept your changes"), "\(aborted.stdout)")
        #expect(try fixture.workingCopy() == before)
        for directory in [fixture.workspace] + RollFixture.modules.map({ "\(fixture.workspace)/Modules/\($0)" }) {
            let stash = try fixture.sandbox.gitResult(["rev-parse", "--verify", "-q", "refs/stash"], in: directory)
            #expect(stash.status != 0, "a stash in \(directory)")
        }
    }
}
