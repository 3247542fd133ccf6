import Foundation
import TenantExample
import TenantTestSupport
import Testing

/// The copies tests start from (``DirectoryTemplates``): built once per process, copied per test, and a copy never
/// reaches back into the template or into another copy.
@Suite(
    .disabled(if: DirectoryTemplates.buildEveryCopy, "TENANTCTL_TEMPLATES=0: no templates to check"), .tags(.slow),
    .notInTheFastSet)
struct ExampleCopyTests {
    static let repositories = ["Infrastructure", "Article", "Customer", "Order", "Superproject"]

    /// Every ref of the remotes, the workspace and its module checkouts below `root`, and the workspace's status.
    static func state(_ root: String, _ sandbox: GitSandbox) throws -> [String: [String: String]] {
        var state: [String: [String: String]] = [:]
        for name in repositories { state["remote \(name)"] = try sandbox.refs("\(root)/remotes/\(name).git") }
        state["workspace"] = try sandbox.refs("\(root)/workspace")
        for name in repositories.dropLast() {
            state["module \(name)"] = try sandbox.refs("\(root)/workspace/Modules/\(name)")
        }
        // Without the optional index lock: another test may be copying this template at the same moment.
        state["status"] = [
            "": try sandbox.git(["--no-optional-locks", "status", "--porcelain=v2", "-uall"], in: "\(root)/workspace")
        ]
        return state
    }

    /// The files below `root` whose bytes contain `text`.
    static func files(under root: String, containing text: String) -> [String] {
        let below = FileManager.default.enumerator(atPath: root)?.allObjects.compactMap { $0 as? String } ?? []
        return below.filter { relative in
            guard let data = FileManager.default.contents(atPath: root + "/" + relative) else { return false }
            return data.range(of: Data(text.utf8)) != nil
        }.sorted()
    }

    /// A roll on one copy pushes to that copy's remotes only: the template's refs and a second copy stay as built,
    /// and no file of a copy names the template. The control: a plain `cp -a` of the template still points its
    /// workspace at the template's remotes, which is what the rewrite is for.
    @Test func aRollOnACopyLeavesTheTemplateAndTheNextCopyAsBuilt() throws {
        let sandbox = try GitSandbox()
        let first = try sandbox.exampleCopy(in: sandbox.path("first"), stage: .afterUpdates)
        let template = try sandbox.exampleTemplate(stage: .afterUpdates)
        let before = try Self.state(template, sandbox)
        #expect(Self.files(under: first.directory, containing: template).isEmpty)
        #expect(
            try sandbox.git(["config", "remote.origin.url"], in: first.workspace)
                == first.remotes + "/Superproject.git")
        for name in Self.repositories {
            #expect(try sandbox.branches("\(first.remotes)/\(name).git") == first.branches[name], "\(name)")
        }
        #expect(try sandbox.git(["status", "--porcelain"], in: first.workspace).isEmpty)

        let roll = sandbox.tenantctl(["roll"], in: first.workspace, environment: RollFixture.dates)
        #expect(roll.status == 0, "\(roll.stderr)")
        #expect(try sandbox.branches("\(first.remotes)/Superproject.git") != first.branches["Superproject"])
        #expect(try Self.state(template, sandbox) == before)

        let second = try sandbox.exampleCopy(in: sandbox.path("second"), stage: .afterUpdates)
        #expect(second.branches == first.branches)
        for name in Self.repositories {
            #expect(try sandbox.branches("\(second.remotes)/\(name).git") == second.branches[name], "\(name)")
        }

        let plain = sandbox.path("plain")
        #expect(try sandbox.run("/bin/cp", ["-a", template, plain]).status == 0)
        #expect(
            try sandbox.git(["config", "remote.origin.url"], in: plain + "/workspace")
                == template + "/remotes/Superproject.git")
        #expect(!Self.files(under: plain, containing: template).isEmpty)
    }

    /// Each stage is its own template, with the commit ids the builder gives it.
    @Test func eachStageIsItsOwnTemplate() throws {
        let sandbox = try GitSandbox()
        let before = try sandbox.exampleCopy(in: sandbox.path("before"), stage: .beforeUpdates)
        let after = try sandbox.exampleCopy(in: sandbox.path("after"), stage: .afterUpdates)
        let conflict = try sandbox.exampleCopy(in: sandbox.path("conflict"), stage: .conflict)
        #expect(before.stage == .beforeUpdates && after.stage == .afterUpdates && conflict.stage == .conflict)
        #expect(before.branches["Article"]?["general_dev"] != after.branches["Article"]?["general_dev"])
        #expect(after.branches["Infrastructure"]?["general_dev"] != conflict.branches["Infrastructure"]?["general_dev"])
        #expect(after.branches["Article"] == conflict.branches["Article"])
        for (name, example) in [("before", before), ("after", after), ("conflict", conflict)] {
            #expect(example.directory == sandbox.path(name))
            #expect(example.workspace == sandbox.path(name) + "/workspace")
            #expect(try sandbox.branches(example.remotes + "/Article.git") == example.branches["Article"])
        }
    }

    /// A copy goes only into a missing or empty place: it refuses to mix with what is there.
    @Test func aCopyRefusesToOverwrite() throws {
        let sandbox = try GitSandbox()
        try sandbox.write("erp/workspace/keep", "mine\n")
        #expect(throws: SandboxError.self) { try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates) }
        #expect(try sandbox.read("erp/workspace/keep") == "mine\n")
    }

    /// The plain-git switch fixture is a template too: a push in one test's copy is not in another's, nor in the
    /// template, and no file of a copy names the template or the sandbox it was built in.
    @Test func switchFixtureCopiesAreIndependent() throws {
        let one = try SwitchFixture(sandbox: try GitSandbox())
        let other = try SwitchFixture(sandbox: try GitSandbox())
        let template = try DirectoryTemplates.shared.template("switch-fixture") { _ in
            throw SandboxError(description: "built by SwitchFixture")
        }.directory
        let remote = "remotes/Superproject.git"
        let before = try one.sandbox.refs("\(template)/\(remote)")
        #expect(try one.sandbox.refs(one.sandbox.path(remote)) == before)
        for fixture in [one, other] {
            #expect(Self.files(under: fixture.sandbox.root, containing: template).isEmpty)
            #expect(Self.files(under: fixture.sandbox.root, containing: "switchFixtureTemplate").isEmpty)
        }
        let pushed = try one.pushColour("teal", on: "t2")
        #expect(try one.sandbox.refs(one.sandbox.path(remote))["refs/heads/t2"] == pushed)
        #expect(try other.sandbox.refs(other.sandbox.path(remote)) == before)
        #expect(try one.sandbox.refs("\(template)/\(remote)") == before)
        #expect(one.sandbox.tenantctl(["switch", "t2"], in: one.workspace).status == 0)
        #expect(try other.sandbox.git(["symbolic-ref", "--short", "HEAD"], in: other.workspace) == "general_dev")
    }
}
