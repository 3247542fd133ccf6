import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// The example at stage `conflict`, rolled: t2 conflicts in Infrastructure (the example's own conflict) and, with
/// `wide`, also in Customer and in the superproject (a general edit of `TenantSpecificStrings.conf`, which t2
/// branded). Helpers to resolve, inspect the working copy and read the remotes with plain git.
struct ResolveFixture {
    let roll: RollFixture
    var sandbox: GitSandbox { roll.sandbox }
    var workspace: String { roll.workspace }

    /// The conflicting files of the wide fixture and a resolution of each: repository path → (file, resolved).
    static let resolutions: [(path: String, file: String, content: String)] = [
        (
            "Modules/\(ExampleScenario.conflictResolution.module)", ExampleScenario.conflictResolution.file,
            ExampleScenario.conflictResolution.content
        ),
        (
            "Modules/Customer", "Strings.csv",
            """
            key,en,de
            customer.list.title,All customers,Alle Kunden
            customer.validation.name,Name is missing.,Name fehlt.
            customer.validation.email,Email address is invalid.,E-Mail-Adresse ist ungültig.

            """
        ),
        (
            "", "TenantSpecificStrings.conf",
            "Modules/Customer/Strings.csv\nModules/Customer/MyStrings.csv\nGenerated/Extra.csv\n"
        ),
    ]

    /// `prepare` runs on the example before the roll that makes t2 conflict (to add commits of its own). Without
    /// `prepare`, the rolled example is a copy of the one this test process rolled once per `wide`
    /// (``DirectoryTemplates``): the roll's commits have fixed dates, so the copy holds what a roll here would make.
    init(wide: Bool = true, function: String = #function, prepare: ((RollFixture) throws -> Void)? = nil) throws {
        guard let prepare else {
            roll = try Self.rolledCopy(wide: wide, function: function)
            return
        }
        roll = try RollFixture(stage: .conflict, function: function)
        try prepare(roll)
        try Self.rollIntoConflict(roll, wide: wide)
    }

    /// A new sandbox with a copy of the rolled example (`wide` or not) at `erp`.
    static func rolledCopy(wide: Bool, function: String) throws -> RollFixture {
        let sandbox = try GitSandbox(function: function)
        let directory = sandbox.path("erp")
        let (built, template) = try DirectoryTemplates.shared.copy(
            "resolve-fixture-" + (wide ? "wide" : "narrow"), to: directory
        ) { directory in
            let example = try sandbox.exampleCopy(in: directory, stage: .conflict)
            try rollIntoConflict(RollFixture(sandbox: sandbox, example: example), wide: wide)
            return example
        }
        let root = URL(fileURLWithPath: directory).standardizedFileURL.path
        if template != root { try FaultLab.renameInTenantctlFiles(of: root + "/workspace", from: template, to: root) }
        func moved(_ path: String) -> String { path.hasPrefix(template) ? root + path.dropFirst(template.count) : path }
        var example = built
        example.directory = moved(built.directory)
        example.remotes = moved(built.remotes)
        example.workspace = moved(built.workspace)
        return RollFixture(sandbox: sandbox, example: example)
    }

    /// With `wide`, the general edits that make t2 conflict in Customer and the superproject too; then the roll that
    /// stops at t2's conflicts.
    static func rollIntoConflict(_ roll: RollFixture, wide: Bool) throws {
        if wide {
            try roll.commitOnRemote(
                "Customer", branch: "general_dev", file: "Strings.csv",
                content: """
                    key,en
                    customer.list.title,All customers
                    customer.validation.name,Name is missing.
                    customer.validation.email,Email address is invalid.

                    """)
            try roll.commitOnRemote(
                "Superproject", branch: "general_dev", file: "TenantSpecificStrings.conf",
                content: "Modules/Article/Strings.csv\nModules/Customer/Strings.csv\nModules/Order/Strings.csv\n"
                    + "Generated/Extra.csv\n")
        }
        let rolled = roll.roll()
        #expect(rolled.status == 2, "roll: \(rolled.stdout)\(rolled.stderr)")
        #expect(rolled.stdout.contains("tenantctl resolve t2"), "\(rolled.stdout)")
    }

    /// `tenantctl resolve …` in the workspace, with fixed commit dates.
    func resolve(_ arguments: [String], environment: [String: String] = [:]) -> CLIResult {
        sandbox.tenantctl(
            ["resolve"] + arguments, in: workspace, environment: RollFixture.dates.merging(environment) { $1 })
    }

    /// Writes the resolution of every conflicted file of the wide fixture (those that exist) and stages it.
    func resolveFiles(only: [String]? = nil) throws {
        for entry in Self.resolutions where only == nil || only?.contains(entry.path) == true {
            let directory = entry.path.isEmpty ? workspace : "\(workspace)/\(entry.path)"
            try entry.content.write(toFile: "\(directory)/\(entry.file)", atomically: true, encoding: .utf8)
            try sandbox.git(["add", "--", entry.file], in: directory)
        }
    }

    /// A remote's branch tip.
    func remoteTip(_ repository: String, _ branch: String) throws -> String {
        try sandbox.git(["rev-parse", "refs/heads/\(branch)"], in: roll.remote(repository))
    }

    /// The parents of a commit in a remote.
    func parents(_ repository: String, _ commit: String) throws -> [String] {
        try sandbox.git(["rev-list", "--parents", "-n", "1", commit], in: roll.remote(repository))
            .split(separator: " ").dropFirst().map(String.init)
    }

    /// The user's whole view of one repository of the working copy: HEAD (symbolic and commit), local branches with
    /// their upstream configuration, the index, the working tree's status (untracked files too) and every tracked
    /// file's content hash.
    func userView(_ directory: String) throws -> [String] {
        [
            try sandbox.gitResult(["symbolic-ref", "-q", "HEAD"], in: directory).stdout,
            try sandbox.git(["rev-parse", "HEAD"], in: directory),
            try sandbox.git(
                ["for-each-ref", "--format=%(refname) %(objectname) %(upstream)", "refs/heads/"], in: directory),
            try sandbox.gitResult(["config", "--get-regexp", "^branch\\."], in: directory).stdout,
            try sandbox.git(["ls-files", "--stage"], in: directory),
            try sandbox.git(
                ["status", "--porcelain=v2", "--untracked-files=all", "--ignore-submodules=none"], in: directory),
            try sandbox.git(["ls-files", "-z"], in: directory).split(separator: "\0").compactMap { file in
                let path = "\(directory)/\(file)"
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
                else { return nil }
                return try? sandbox.git(["hash-object", "--no-filters", "--", String(file)], in: directory)
            }.joined(separator: " "),
        ]
    }

    /// ``userView`` of the superproject and every module.
    func workingCopy() throws -> [String: [String]] {
        var result = ["superproject": try userView(workspace)]
        for module in RollFixture.modules { result[module] = try userView("\(workspace)/Modules/\(module)") }
        return result
    }

    /// Every remote's branches.
    func remotes() throws -> [String: [String: String]] { try roll.remoteBranches() }

    /// docs/schemas/resolve.schema.json.
    static let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/schemas/resolve.schema.json").path

    /// Whether the resolve state file exists.
    var stateExists: Bool {
        FileManager.default.fileExists(atPath: "\(workspace)/.git/tenantctl/resolve.json")
    }
}

@Suite(.tags(.slow), .notInTheFastSet) struct ResolveCommandTests {
    /// `example --stage conflict` is after-updates plus the conflicting change on Infrastructure's general_dev, and
    /// `landConflicts` (the demo) lands the same commit on an after-updates example.
    @Test func exampleStageConflictAddsTheConflictingChangeOnly() throws {
        let sandbox = try GitSandbox()
        let built = sandbox.tenantctl(["example", sandbox.path("c"), "--stage", "conflict", "--json"])
        #expect(built.status == 0, "\(built.stderr)")
        let conflict = try JSONDecoder().decode(ExampleResult.self, from: Data(built.stdout.utf8))
        let after = try sandbox.exampleCopy(in: sandbox.path("a"), stage: .afterUpdates)
        for repository in ["Article", "Customer", "Order", "Superproject"] {
            #expect(conflict.branches[repository] == after.branches[repository], "\(repository)")
        }
        let landed = try ExampleBuilder(git: try sandbox.gitRunner()).landConflicts(remotes: after.remotes)
        #expect(landed["Infrastructure"] == conflict.branches["Infrastructure"]?["general_dev"])
        #expect(
            try sandbox.git(
                ["rev-parse", "general_dev^"], in: "\(conflict.remotes)/Infrastructure.git")
                == after.branches["Infrastructure"]?["general_dev"])
    }

    /// A conflict in two modules and in the superproject, resolved with git and published: merges with
    /// the right parents, pins by the rule, modules pushed before the superproject (a pre-receive hook on the
    /// superproject's remote checks that every pinned module commit is already on its module's remote), the working
    /// copy on t2 at the new pins, audit clean, and `roll --undo` can take it back.
    @Test func resolvesConflictsInTwoModulesAndTheSuperprojectAndPublishesModulesFirst() throws {
        let fixture = try ResolveFixture()
        let remotes = fixture.roll.example.remotes
        var hook = "#!/bin/sh\nwhile read old new ref; do\n  [ \"$ref\" = refs/heads/t2 ] || continue\n"
        for module in RollFixture.modules {
            hook += """
                  pin=$(git ls-tree "$new" Modules/\(module) | cut -d' ' -f3 | cut -f1)
                  env -u GIT_DIR -u GIT_OBJECT_DIRECTORY -u GIT_ALTERNATE_OBJECT_DIRECTORIES -u GIT_QUARANTINE_PATH git --git-dir='\(remotes)/\(module).git' cat-file -e "$pin^{commit}" || { echo "\(module) $pin not pushed yet" >&2; exit 1; }

                """
        }
        hook += "  echo checked >> '\(fixture.sandbox.path("hook-ran"))'\ndone\n"
        _ = try fixture.sandbox.writeExecutable(
            String("\(remotes)/Superproject.git/hooks/pre-receive".dropFirst(fixture.sandbox.root.count + 1)), hook)

        let before = try fixture.remotes()
        let started = fixture.resolve(["t2", "--json"])
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(started.stdout.utf8)) as? [String: Any])
        #expect(report["schemaVersion"] as? Int == 1)
        #expect(try JSONSchemaCheck(contentsOf: ResolveFixture.schema).violations(of: started.stdout) == [])
        let lines = report["repositories"] as? [[String: Any]] ?? []
        let status = Dictionary(uniqueKeysWithValues: lines.map { ($0["repository"] as? String ?? "", $0) })
        #expect(status["superproject"]?["status"] as? String == "conflict")
        #expect(status["superproject"]?["conflicts"] as? [String] == ["TenantSpecificStrings.conf"])
        #expect(status["Infrastructure"]?["conflicts"] as? [String] == ["Strings.csv"])
        #expect(status["Customer"]?["conflicts"] as? [String] == ["Strings.csv"])
        #expect(status["Article"]?["status"] as? String == "up-to-date")
        #expect(report["next"] as? String == "tenantctl resolve --continue")
        // The merges are real git merges in the module checkouts.
        #expect(
            FileManager.default.fileExists(
                atPath: try fixture.sandbox.git(
                    ["rev-parse", "--path-format=absolute", "--git-path", "MERGE_HEAD"],
                    in: "\(fixture.workspace)/Modules/Customer")))
        // Nothing is published yet.
        #expect(try fixture.remotes() == before)

        let shown = fixture.sandbox.tenantctl(["status"], in: fixture.workspace)
        #expect(shown.stdout.contains("resolving t2"), "\(shown.stdout)")
        #expect(shown.stdout.contains("Customer: conflicted (Strings.csv)"), "\(shown.stdout)")

        try fixture.resolveFiles()
        let finished = fixture.resolve(["--continue", "--json"])
        #expect(finished.status == 0, "\(finished.stdout)\(finished.stderr)")
        #expect(try JSONSchemaCheck(contentsOf: ResolveFixture.schema).violations(of: finished.stdout) == [])
        let continued = try JSONDecoder().decode(ResolveReport.self, from: Data(finished.stdout.utf8))
        #expect(continued.published)
        #expect(continued.pushes.map(\.repository) == ["Infrastructure", "Customer", "superproject"])
        #expect(!fixture.stateExists)
        #expect(FileManager.default.fileExists(atPath: fixture.sandbox.path("hook-ran")))

        // Module merges: the tenant branch first, the general branch second.
        for module in ["Infrastructure", "Customer"] {
            let tip = try fixture.remoteTip(module, "t2")
            #expect(
                try fixture.parents(module, tip)
                    == [try #require(before[module]?["t2"]), try fixture.remoteTip(module, "general_dev")], "\(module)")
            #expect(
                try fixture.sandbox.git(["show", "\(tip):Strings.csv"], in: fixture.roll.remote(module)) + "\n"
                    == ResolveFixture.resolutions.first { $0.path == "Modules/\(module)" }?.content)
        }
        // The superproject merge, and every pin by the rule.
        let superTip = try fixture.remoteTip("Superproject", "t2")
        #expect(
            try fixture.parents("Superproject", superTip)
                == [try #require(before["Superproject"]?["t2"]), try fixture.remoteTip("Superproject", "general_dev")])
        let pins = try fixture.roll.pins("t2")
        #expect(pins["Modules/Infrastructure"] == (try fixture.remoteTip("Infrastructure", "t2")))
        #expect(pins["Modules/Customer"] == (try fixture.remoteTip("Customer", "t2")))
        #expect(pins["Modules/Article"] == (try fixture.remoteTip("Article", "general_dev")))
        #expect(pins["Modules/Order"] == (try fixture.remoteTip("Order", "general_dev")))
        // Other tenants untouched by resolve.
        #expect(try fixture.remoteTip("Superproject", "t1") == before["Superproject"]?["t1"])

        // The working copy is t2 at the new pins; audit shows t2 up to date.
        let after = fixture.sandbox.tenantctl(["status", "--json"], in: fixture.workspace)
        let statusReport = try #require(JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
        #expect(statusReport["resolution"] == nil)
        for module in statusReport["modules"] as? [[String: Any]] ?? [] {
            #expect(module["relation"] as? String == "at-pin", "\(module)")
            #expect(module["dirty"] as? Bool == false, "\(module)")
        }
        let audit = fixture.sandbox.tenantctl(["audit", "--check"], in: fixture.workspace)
        #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")

        // Journalled: roll --undo takes the publication back.
        let runId = try #require(continued.runId)
        let undo = fixture.sandbox.tenantctl(["roll", "--undo", runId], in: fixture.workspace)
        #expect(undo.status == 0, "\(undo.stdout)\(undo.stderr)")
        #expect(try fixture.remotes() == before)
    }

    /// `--abort` puts every repository back byte for byte: refs, HEADs, branch configuration, index, working files
    /// (an untracked file too); nothing is published.
    @Test func abortRestoresEveryRepositoryExactly() throws {
        let fixture = try ResolveFixture()
        try "my notes\n".write(
            toFile: "\(fixture.workspace)/Modules/Customer/notes.txt", atomically: true, encoding: .utf8)
        let before = try fixture.workingCopy()
        let remotes = try fixture.remotes()

        let started = fixture.resolve(["t2"])
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        #expect(try fixture.workingCopy() != before)
        // Half-way through: one file resolved and staged, another edited.
        try fixture.resolveFiles(only: ["Modules/Infrastructure"])
        try "half done\n".write(
            toFile: "\(fixture.workspace)/Modules/Customer/Strings.csv", atomically: true, encoding: .utf8)

        let aborted = fixture.resolve(["--abort", "--json"])
        #expect(aborted.status == 0, "\(aborted.stdout)\(aborted.stderr)")
        #expect(try JSONSchemaCheck(contentsOf: ResolveFixture.schema).violations(of: aborted.stdout) == [])
        #expect(try fixture.workingCopy() == before)
        #expect(try fixture.remotes() == remotes)
        #expect(!fixture.stateExists)
        let again = fixture.resolve(["--abort"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("no resolution is in progress"), "\(again.stderr)")
    }

    /// `--continue` refuses while a conflicted file is unmerged or still has markers, naming it, and commits
    /// nothing; once resolved it goes on (positive control).
    @Test func continueRefusesWhileConflictsOrMarkersRemain() throws {
        let fixture = try ResolveFixture(wide: false)
        let started = fixture.resolve(["t2"])
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        let module = "\(fixture.workspace)/Modules/Infrastructure"
        let head = try fixture.sandbox.git(["rev-parse", "HEAD"], in: module)

        let unmerged = fixture.resolve(["--continue"])
        #expect(unmerged.status == 1)
        #expect(unmerged.stderr.contains("Modules/Infrastructure/Strings.csv: unmerged"), "\(unmerged.stderr)")

        // Staged with the markers still in.
        try fixture.sandbox.git(["add", "Strings.csv"], in: module)
        let marked = fixture.resolve(["--continue"])
        #expect(marked.status == 1)
        #expect(marked.stderr.contains("Strings.csv: still has conflict markers"), "\(marked.stderr)")
        #expect(marked.stderr.contains("resolve --continue"), "\(marked.stderr)")
        #expect(try fixture.sandbox.git(["rev-parse", "HEAD"], in: module) == head)
        #expect(fixture.stateExists)

        try fixture.resolveFiles(only: ["Modules/Infrastructure"])
        let finished = fixture.resolve(["--continue"])
        #expect(finished.status == 0, "\(finished.stdout)\(finished.stderr)")
        #expect(try fixture.sandbox.git(["rev-parse", "HEAD"], in: module) != head)
    }

    /// Merges committed by hand (`git commit` in the module and in the superproject) are taken as they are; the
    /// superproject's pins are set by the rule (the commit is amended, its parents kept).
    @Test func mergesCommittedByHandAreAcceptedAndPinnedByTheRule() throws {
        let fixture = try ResolveFixture(wide: false)
        let before = try fixture.remotes()
        #expect(fixture.resolve(["t2"]).status == 2)
        try fixture.resolveFiles(only: ["Modules/Infrastructure"])
        try fixture.sandbox.git(["commit", "-q", "--no-edit"], in: "\(fixture.workspace)/Modules/Infrastructure")
        try fixture.sandbox.git(["commit", "-q", "--no-edit"], in: fixture.workspace)
        let finished = fixture.resolve(["--continue"])
        #expect(finished.status == 0, "\(finished.stdout)\(finished.stderr)")
        let moduleTip = try fixture.remoteTip("Infrastructure", "t2")
        #expect(
            try fixture.parents("Infrastructure", moduleTip)
                == [
                    try #require(before["Infrastructure"]?["t2"]),
                    try fixture.remoteTip("Infrastructure", "general_dev"),
                ])
        #expect(try fixture.roll.pins("t2")["Modules/Infrastructure"] == moduleTip)
        let superTip = try fixture.remoteTip("Superproject", "t2")
        #expect(
            try fixture.parents("Superproject", superTip)
                == [try #require(before["Superproject"]?["t2"]), try fixture.remoteTip("Superproject", "general_dev")])
        #expect(fixture.sandbox.tenantctl(["audit", "--check"], in: fixture.workspace).status == 0)
    }

    /// A remote that moved during the resolution: nothing of the tenant is published, the local result stays, the
    /// message says how to go on; `--abort` then restores the working copy.
    @Test func aRemoteThatMovedMeanwhilePublishesNothing() throws {
        let fixture = try ResolveFixture()
        let started = fixture.resolve(["t2"])
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        try fixture.resolveFiles()
        // Someone pushes to Customer's t2 meanwhile.
        try fixture.roll.commitOnRemote("Customer", branch: "t2", file: "Other.md", content: "meanwhile\n")
        let before = try fixture.remotes()

        let refused = fixture.resolve(["--continue"])
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("refusing to publish"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Customer t2"), "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was published"), "\(refused.stderr)")
        #expect(refused.stderr.contains("tenantctl resolve --abort"), "\(refused.stderr)")
        #expect(try fixture.remotes() == before)
        // The local result is kept: the merges are committed in the working copy.
        let infrastructure = "\(fixture.workspace)/Modules/Infrastructure"
        #expect(
            try fixture.sandbox.git(["rev-list", "--parents", "-n", "1", "HEAD"], in: infrastructure)
                .split(separator: " ").count == 3)
        #expect(fixture.stateExists)

        let aborted = fixture.resolve(["--abort"])
        #expect(aborted.status == 0, "\(aborted.stdout)\(aborted.stderr)")
        #expect(try fixture.remotes() == before)
    }

    /// A second `resolve` while one is unfinished is refused with the way out; an unknown tenant is a usage error;
    /// a dirty working copy is refused before anything changes.
    @Test func refusesASecondResolutionAnUnknownTenantAndADirtyWorkingCopy() throws {
        let fixture = try ResolveFixture(wide: false)
        let unknown = fixture.resolve(["t9"])
        #expect(unknown.status == 64, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("unknown tenant t9; known tenants: t1, t2, t3"), "\(unknown.stderr)")

        try "dirty\n".write(toFile: "\(fixture.workspace)/AppName", atomically: true, encoding: .utf8)
        let before = try fixture.workingCopy()
        let dirty = fixture.resolve(["t2"])
        #expect(dirty.status == 1)
        #expect(dirty.stderr.contains("AppName"), "\(dirty.stderr)")
        #expect(try fixture.workingCopy() == before)
        #expect(!fixture.stateExists)
        try fixture.sandbox.git(["checkout", "--", "AppName"], in: fixture.workspace)

        let started = fixture.resolve(["t2"])
        #expect(started.status == 2, "\(started.stderr)")
        let second = fixture.resolve(["t2"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("resolve --continue"), "\(second.stderr)")
        #expect(second.stderr.contains("resolve --abort"), "\(second.stderr)")
        let neither = fixture.resolve([])
        #expect(neither.status == 64)
    }
}
