import ArgumentParser
import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantCLI

/// Unknown names are refused fast and quietly: at most three close names, then where to see them all; a mistyped
/// command gets a suggestion too (a swap of two letters is one edit); a roll naming an unknown tenant fetches no
/// module repository.
@Suite(.tags(.slow), .notInTheFastSet) struct UnknownNameRefusalTests {
    @Test func aSwapOfTwoLettersIsOneEdit() {
        #expect(NameSuggestions.distance("audti", "audit") == 1)
        #expect(NameSuggestions.closest(to: "audti", among: ["audit", "status", "switch"]) == "audit")
        // Positive control: a distance the swap does not change.
        #expect(NameSuggestions.distance("swich", "switch") == 1)
    }

    @Test func aMistypedCommandGetsASuggestion() throws {
        let sandbox = try GitSandbox()
        let typo = sandbox.tenantctl(["audti"])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("did you mean audit?"), "\(typo.stderr)")
        let control = sandbox.tenantctl(["swich"])
        #expect(control.status == 64 && control.stderr.contains("did you mean switch?"), "\(control.stderr)")
    }

    /// A hundred tenants: the error names at most three of them (the close ones), then `tenantctl tenant list`.
    @Test func aHundredTenantsAreNotListed() {
        let known = (1...100).map { "t\($0)" }
        let close = UnknownNameError(kind: "tenant", names: ["t1000"], known: known).description
        let named = known.filter { close.range(of: "\\b\($0)\\b", options: .regularExpression) != nil }
        #expect(named.count >= 1 && named.count <= 3, "\(close)")
        #expect(close.contains("did you mean t100"), "\(close)")
        #expect(close.hasSuffix("; see: tenantctl tenant list"), "\(close)")
        let far = UnknownNameError(kind: "tenant", names: ["nope"], known: known).description
        #expect(far == "unknown tenant nope; see: tenantctl tenant list", "\(far)")
        // A workspace with a few tenants still lists them all, closest first.
        let few = UnknownNameError(kind: "tenant", names: ["t9"], known: ["t1", "t2", "t3"]).description
        #expect(few == "unknown tenant t9; known tenants: t1, t2, t3; see: tenantctl tenant list", "\(few)")
    }

    @Test func switchToAnUnknownTenantSaysWhereToLook() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        let unknown = sandbox.tenantctl(["switch", "t9999"], in: example.workspace)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("see: tenantctl tenant list"), "\(unknown.stderr)")
    }

    /// `switch <unknown>` fetches the superproject once (a colleague may have added the tenant), looks at no module and
    /// fetches none; a known name costs the switch's one superproject fetch, as before.
    @Test func switchToAnUnknownTenantFetchesOnlyTheSuperprojectOnce() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        let shim = try GitShim(in: sandbox)
        // The superproject's own calls (a module's are `-C <workspace>/Modules/…`).
        func superprojectFetches(_ calls: [String]) -> [String] {
            calls.filter { $0.hasPrefix("-C \(example.workspace) ") && $0.contains(" fetch ") }
        }
        let unknown = sandbox.tenantctl(["switch", "t9999", "--git", shim.path], in: example.workspace)
        #expect(unknown.status == 64 && unknown.stderr.contains("see: tenantctl tenant list"), "\(unknown.stderr)")
        var calls = try shim.calls()
        #expect(calls.filter { $0.contains(" fetch ") }.count == 1, "\(calls)")
        #expect(superprojectFetches(calls).count == 1, "\(calls)")
        let inModules = calls.filter { $0.contains("-C \(example.workspace)/Modules") }
        #expect(inModules.isEmpty, "\(inModules)")
        // Positive control: a known tenant is switched to with one superproject fetch, and its modules are looked at.
        try shim.reset()
        let known = sandbox.tenantctl(["switch", "t2", "--git", shim.path], in: example.workspace)
        #expect(known.status == 0, "\(known.stderr)")
        calls = try shim.calls()
        #expect(superprojectFetches(calls).count == 1, "\(calls)")
        #expect(calls.contains { $0.contains("-C \(example.workspace)/Modules") }, "\(calls)")
    }

    /// `roll --dry-run --tenant nope` is refused after the superproject's fetch, before any module's.
    @Test func rollNamingAnUnknownTenantFetchesNoModule() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        let shim = try GitShim(in: sandbox)
        let unknown = sandbox.tenantctl(
            ["roll", "--dry-run", "--tenant", "nope", "--git", shim.path], in: example.workspace)
        #expect(unknown.status == 64, "\(unknown.stderr)")
        #expect(!unknown.stderr.contains("module repositor"), "\(unknown.stderr)")
        let calls = try shim.calls()
        let moduleFetches = calls.filter { ($0.contains(" fetch ") || $0.contains(" clone ")) && $0.contains("mirror") }
        #expect(moduleFetches.isEmpty, "\(moduleFetches)")
        // Positive control: a known tenant fetches the modules.
        try shim.reset()
        let known = sandbox.tenantctl(
            ["roll", "--dry-run", "--tenant", "t1", "--git", shim.path], in: example.workspace)
        #expect(known.status == 0, "\(known.stderr)")
        #expect(known.stderr.contains("module repositor"), "\(known.stderr)")
    }
}

/// `--help` puts what to type first: the overview, USAGE and the options, then the prose, then the examples;
/// `-h` is the short help; `--version` belongs to the root command.
@Suite(.tags(.slow), .notInTheFastSet) struct HelpLayoutTests {
    static func help(_ command: ParsableCommand.Type) -> String {
        HelpLayout.arranged(Tenantctl.helpMessage(for: command, columns: 80))
    }

    @Test func usageAndOptionsComeBeforeTheProseAndTheExamplesLast() throws {
        let sandbox = try GitSandbox()
        let result = sandbox.tenantctl(["switch", "--help"])
        #expect(result.status == 0)
        let lines = result.stdout.components(separatedBy: "\n")
        let usage = try #require(lines.firstIndex { $0.hasPrefix("USAGE: tenantctl switch") }, "\(result.stdout)")
        #expect(usage < 5, "USAGE at line \(usage + 1)")
        let options = try #require(lines.firstIndex(of: "OPTIONS:"))
        let global = try #require(lines.firstIndex(of: "GLOBAL OPTIONS:"))
        let description = try #require(lines.firstIndex(of: "DESCRIPTION:"))
        let examples = try #require(lines.firstIndex(of: "EXAMPLES:"))
        #expect(usage < options && options < global && global < description && description < examples)
        #expect(lines[examples + 1].hasPrefix("  tenantctl switch "), "\(lines[examples + 1])")
    }

    @Test func everyCommandHasAnExamplesSection() {
        for (name, command) in CLIReferenceTests.allCommands(Tenantctl.self)
        where command.configuration.subcommands.isEmpty {
            let help = Self.help(command)
            guard let examples = help.range(of: "\nEXAMPLES:\n") else {
                Issue.record("\(name) --help has no EXAMPLES section")
                continue
            }
            #expect(help[examples.upperBound...].contains("  tenantctl "), "\(name)")
        }
    }

    @Test func versionIsTheRootCommandsOptionOnly() throws {
        for (name, command) in CLIReferenceTests.allCommands(Tenantctl.self) where command != Tenantctl.self {
            #expect(!Self.help(command).contains("--version"), "\(name) --help lists --version")
        }
        #expect(Self.help(Tenantctl.self).contains("--version"))
        let sandbox = try GitSandbox()
        let misplaced = sandbox.tenantctl(["switch", "--version"])
        #expect(misplaced.status == 64 && misplaced.stderr.contains("tenantctl --version"), "\(misplaced.stderr)")
        let root = sandbox.tenantctl(["--version"])
        #expect(root.status == 0 && root.stdout == TenantKitInfo.version + "\n", "\(root.stdout)")
    }

    @Test func shortHelpIsUsageAndOptions() throws {
        let sandbox = try GitSandbox()
        let short = sandbox.tenantctl(["switch", "-h"])
        #expect(short.status == 0)
        #expect(short.stdout.contains("USAGE: tenantctl switch") && short.stdout.contains("OPTIONS:"))
        #expect(!short.stdout.contains("DESCRIPTION:") && !short.stdout.contains("GLOBAL OPTIONS:"))
        #expect(short.stdout.contains("Run `tenantctl switch --help`"))
        // Positive control: --help has everything.
        let full = sandbox.tenantctl(["switch", "--help"])
        #expect(full.stdout.contains("DESCRIPTION:") && full.stdout.contains("GLOBAL OPTIONS:"))
        #expect(short.stdout.split(separator: "\n").count * 2 < full.stdout.split(separator: "\n").count)
    }
}

/// `verify` before the files' first push takes the snapshot twice; the superproject is fetched once.
@Suite(.tags(.slow), .notInTheFastSet) struct VerifyFetchesOnceTests {
    @Test func verifyBeforeTheFirstPushFetchesTheSuperprojectOnce() throws {
        let sandbox = try GitSandbox()
        let app = try RealSuperproject(sandbox: sandbox)
        #expect(sandbox.tenantctl(["init"], in: app.work).status == 0)
        let verify = sandbox.tenantctl(["verify"], in: app.work)
        #expect(verify.stdout.contains("has no modules.json yet"), "\(verify.stdout)")
        let said = verify.stderr.components(separatedBy: "fetching the superproject").count - 1
        #expect(said == 1, "\(verify.stderr)")
    }
}

/// `audit` right after `init`, before the files are pushed, reads the working tree's files as verify does and says
/// so; once they are pushed it reads the remote's, and says nothing of the kind.
@Suite(.tags(.slow), .notInTheFastSet) struct AuditBeforeTheFirstPushTests {
    @Test func auditRightAfterInitReadsTheWorkingTreesFiles() throws {
        let sandbox = try GitSandbox()
        let app = try RealSuperproject(sandbox: sandbox)
        #expect(sandbox.tenantctl(["init"], in: app.work).status == 0)
        let audit = sandbox.tenantctl(["audit"], in: app.work)
        #expect(audit.status == 0, "\(audit.stderr)")
        #expect(!audit.stderr.contains("is this a tenantctl superproject"), "\(audit.stderr)")
        #expect(audit.stderr.contains("has no modules.json yet"), "\(audit.stderr)")
        #expect(audit.stderr.contains("audit reads modules.json and Tenants/ from the working tree"), "\(audit.stderr)")
        let said = audit.stderr.components(separatedBy: "fetching the superproject").count - 1
        #expect(said == 1, "\(audit.stderr)")
        let json = sandbox.tenantctl(["audit", "--json"], in: app.work)
        #expect(json.status == 0, "\(json.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        let tenants = try #require(report["tenants"] as? [[String: Any]])
        #expect(!tenants.isEmpty, "\(report)")

        // Positive control: once the files are pushed, audit reads the remote's and says nothing of the kind.
        try sandbox.git(["add", "modules.json", "Tenants"], in: app.work)
        try sandbox.git(["commit", "-q", "-m", "Describe modules and tenants"], in: app.work)
        try sandbox.git(["push", "-q", "origin", "HEAD"], in: app.work)
        let pushed = sandbox.tenantctl(["audit"], in: app.work)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(!pushed.stderr.contains("has no modules.json yet"), "\(pushed.stderr)")
    }
}

/// A read-only command waits for the workspace lock (a bounded wait, said on stderr) instead of failing: a second
/// audit in the same clone runs once the first has fetched. A writing command still fails fast.
@Suite(.tags(.slow), .notInTheFastSet) struct ReadOnlyLockWaitTests {
    final class Box: @unchecked Sendable {
        var result: CLIResult?
    }

    @Test func auditWaitsForTheLockAndAWritingCommandDoesNot() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        let common = "\(example.workspace)/.git"
        let lock = try WorkspaceLock(gitDirectory: common)
        // Positive control: a writing command refuses at once while another run holds the lock.
        let roll = sandbox.tenantctl(["roll", "--dry-run"], in: example.workspace)
        #expect(roll.status == 1 && roll.stderr.contains("another tenantctl run"), "\(roll.stderr)")
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = sandbox.tenantctl(["audit"], in: example.workspace)
            done.signal()
        }
        thread.start()
        Thread.sleep(forTimeInterval: 1.5)
        lock.release()
        done.wait()
        let audit = try #require(box.result)
        #expect(audit.status == 0, "\(audit.stderr)")
        #expect(audit.stderr.contains("waiting for another tenantctl run"), "\(audit.stderr)")
    }
}

/// The daily verbs: `switch -` goes back, `diff` shows a tenant's customisation as git prints it, `runs --limit`
/// shows the newest runs.
@Suite struct DailyVerbTests {
    func branch(_ sandbox: GitSandbox, _ workspace: String) throws -> String {
        try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: workspace)
    }

    @Test(.tags(.slow), .notInTheFastSet) func switchDashGoesBackToThePreviousTenant() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        let none = sandbox.tenantctl(["switch", "-"], in: example.workspace)
        #expect(none.status != 0 && none.stderr.contains("no previous tenant"), "\(none.stderr)")
        #expect(sandbox.tenantctl(["switch", "t2"], in: example.workspace).status == 0)
        #expect(sandbox.tenantctl(["switch", "t3"], in: example.workspace).status == 0)
        let back = sandbox.tenantctl(["switch", "-"], in: example.workspace)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try branch(sandbox, example.workspace) == "t2")
        #expect(sandbox.tenantctl(["switch", "-"], in: example.workspace).status == 0)
        #expect(try branch(sandbox, example.workspace) == "t3")
        // A dry run records nothing.
        #expect(sandbox.tenantctl(["switch", "general_dev", "--dry-run"], in: example.workspace).status == 0)
        #expect(sandbox.tenantctl(["switch", "-"], in: example.workspace).status == 0)
        #expect(try branch(sandbox, example.workspace) == "t2")
    }

    /// diff is the tenant's customisation from the merge base, as `git diff general_dev...t2` and audit's ✎ count:
    /// per module the tenant customised, git's three-dot diff of the pins; general_dev's newer work never shows. The
    /// general updates are rolled to general_dev and t3 only: t1 and t2 are behind general_dev in every module they
    /// did not customise, and t1 says it customised nothing there; t2's own superproject files (its
    /// ColourScheme.conf) come first.
    @Test func diffPrintsEachCustomisedModuleFromTheMergeBaseAsGitDoes() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .afterUpdates)
        let rolled = sandbox.tenantctl(["roll", "--tenant", "t3"], in: example.workspace)
        try #require(rolled.status == 0, "\(rolled.stdout)\(rolled.stderr)")
        #expect(sandbox.tenantctl(["audit"], in: example.workspace).status == 0)
        let superproject = "\(example.remotes)/Superproject.git"
        func pin(_ branch: String, _ module: String) throws -> String {
            let line = try sandbox.git(["ls-tree", branch, "--", "Modules/\(module)"], in: superproject)
            return String(line.split(separator: " ")[2].prefix(40))
        }
        func behind(_ module: String, _ from: String, _ to: String) throws -> Bool {
            try sandbox.gitResult(
                ["merge-base", "--is-ancestor", to, from], in: "\(example.remotes)/\(module).git"
            ).status == 0
        }
        // t1 customised nothing: general_dev is ahead of it in some module, and that is not shown as its work.
        var t1Behind: [String] = []
        for module in ["Infrastructure", "Article", "Customer", "Order"] {
            let from = try pin("general_dev", module)
            let to = try pin("t1", module)
            if from != to, try behind(module, from, to) { t1Behind.append(module) }
        }
        #expect(!t1Behind.isEmpty, "the example has general_dev ahead of t1")
        let t1 = sandbox.tenantctl(["diff", "t1"], in: example.workspace)
        #expect(t1.status == 0, "\(t1.stderr)")
        #expect(!t1.stdout.contains("Submodule "), "\(t1.stdout)")
        // Its own superproject files (its AppName) are its customisation.
        #expect(t1.stdout.hasPrefix("Superproject ") && t1.stdout.contains("AppName"), "\(t1.stdout)")
        for module in t1Behind {
            let one = sandbox.tenantctl(["diff", "t1", module], in: example.workspace)
            #expect(one.status == 0, "\(one.stderr)")
            #expect(
                one.stdout == "t1 customised nothing in \(module) since it forked off general_dev: its pins are "
                    + "general_dev's or behind them\n", "\(one.stdout)")
        }
        let t1JSON = sandbox.tenantctl(["diff", "t1", "--json"], in: example.workspace)
        let t1Report = try #require(
            try JSONSerialization.jsonObject(with: Data(t1JSON.stdout.utf8)) as? [String: Any], "\(t1JSON.stdout)")
        #expect((t1Report["modules"] as? [Any])?.isEmpty == true, "\(t1Report)")

        let result = sandbox.tenantctl(["diff", "t2"], in: example.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        var differing: [String] = []
        for module in ["Infrastructure", "Article", "Customer", "Order"] {
            let from = try pin("general_dev", module)
            let to = try pin("t2", module)
            let header = "Submodule Modules/\(module) \(from.prefix(7))...\(to.prefix(7)):"
            let onlyBehind = try from != to && behind(module, from, to)
            if from == to || onlyBehind {
                #expect(!result.stdout.contains("Submodule Modules/\(module) "), "\(module)")
                continue
            }
            differing.append(module)
            let expected = try sandbox.git(
                [
                    "diff", "--src-prefix=a/Modules/\(module)/", "--dst-prefix=b/Modules/\(module)/",
                    "\(from)...\(to)",
                ], in: "\(example.remotes)/\(module).git")
            #expect(result.stdout.contains(header + "\n" + expected), "\(module): \(result.stdout)")
        }
        #expect(!differing.isEmpty)
        // The superproject's own customisation, as audit lists its files: t2's ColourScheme.conf.
        let own = try sandbox.git(
            ["diff", "--ignore-submodules=all", "general_dev...t2"], in: superproject)
        #expect(own.contains("ColourScheme.conf"), "\(own)")
        #expect(result.stdout.hasPrefix("Superproject "), "\(result.stdout)")
        #expect(result.stdout.contains(own), "\(result.stdout)")
        let stat = sandbox.tenantctl(["diff", "t2", differing[0], "--stat"], in: example.workspace)
        #expect(stat.status == 0, "\(stat.stderr)")
        #expect(stat.stdout.contains("changed"), "\(stat.stdout)")
        #expect(stat.stdout.components(separatedBy: "Submodule ").count == 2, "only the module named: \(stat.stdout)")
        #expect(!stat.stdout.contains("Superproject "), "only the module named: \(stat.stdout)")
        let unknown = sandbox.tenantctl(["diff", "t9999"], in: example.workspace)
        #expect(unknown.status == 64 && unknown.stderr.contains("see: tenantctl tenant list"), "\(unknown.stderr)")
    }

    @Test(.tags(.slow), .notInTheFastSet) func runsLimitShowsTheNewestAndSaysHowManyAreLeftOut() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        for tenant in ["t2", "t3", "t1", "t2"] {
            #expect(sandbox.tenantctl(["switch", tenant], in: example.workspace).status == 0)
        }
        let all = try sandbox.runs(in: example.workspace)
        #expect(all.count == 4)
        let newest = try #require(all.last?["runId"] as? String)
        let oldest = try #require(all.first?["runId"] as? String)
        let limited = sandbox.tenantctl(["runs", "--limit", "2"], in: example.workspace, terminal: true)
        #expect(limited.status == 0, "\(limited.stderr)")
        #expect(limited.stdout.contains("2 older runs not shown"), "\(limited.stdout)")
        #expect(limited.stdout.contains(newest) && !limited.stdout.contains(oldest), "\(limited.stdout)")
        // Positive control: --limit 0 lists every run.
        let every = sandbox.tenantctl(["runs", "--limit", "0"], in: example.workspace, terminal: true)
        #expect(every.stdout.contains(oldest) && !every.stdout.contains("not shown"), "\(every.stdout)")
        // The JSON says how many runs the limit left out, 0 when it left none out.
        for (arguments, leftOut, count) in [(["--limit", "2"], 2, 2), (["--limit", "0"], 0, 4), ([], 0, 4)] {
            let json = sandbox.tenantctl(["runs", "--json"] + arguments, in: example.workspace)
            #expect(json.status == 0, "\(json.stderr)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
            #expect(object["leftOut"] as? Int == leftOut, "\(arguments): \(json.stdout)")
            #expect((object["runs"] as? [Any])?.count == count, "\(arguments): \(json.stdout)")
        }
    }
}

/// While a staged file still has conflict markers, status says what `resolve --continue` will say, not that it is
/// next.
@Suite(.tags(.slow), .notInTheFastSet) struct ResolveStatusNextStepTests {
    @Test func statusNamesTheMarkersThatContinueRefuses() throws {
        let fixture = try ResolveFixture(wide: false)
        #expect(fixture.resolve(["t2"]).status == 2)
        let module = "\(fixture.workspace)/Modules/Infrastructure"
        // The markers name the general branch, as git's own merge of a branch by name does.
        let marked = try String(contentsOfFile: "\(module)/Strings.csv", encoding: .utf8)
        #expect(marked.contains("\n>>>>>>> general_dev\n"), "\(marked)")
        #expect(marked.contains("<<<<<<< HEAD\n"), "\(marked)")
        try fixture.sandbox.git(["add", "Strings.csv"], in: module)
        let status = fixture.sandbox.tenantctl(["status"], in: fixture.workspace)
        let next = try #require(
            status.stdout.components(separatedBy: "\n").first { $0.contains("next: ") }, "\(status.stdout)")
        #expect(next.contains("Strings.csv: still has conflict markers"), "\(next)")
        let refused = fixture.resolve(["--continue"])
        #expect(refused.status == 1 && refused.stderr.contains("still has conflict markers"), "\(refused.stderr)")
        // Positive control: resolved and staged, status says --continue, which then goes on.
        try fixture.resolveFiles(only: ["Modules/Infrastructure"])
        let ready = fixture.sandbox.tenantctl(["status"], in: fixture.workspace)
        #expect(ready.stdout.contains("next: tenantctl resolve --continue"), "\(ready.stdout)")
    }
}

/// Tenant-file errors name their place in one style, `file:line:column:`, with or without a field.
@Suite struct ManifestLocationStyleTests {
    @Test func everyProblemUsesTheCompilersLocationStyle() {
        let field = ManifestProblem(
            file: "Tenants/t2.json", field: "modules[1]", line: 3, column: 14, message: "unknown module Ordr")
        #expect(field.description == "Tenants/t2.json:3:14: modules[1]: unknown module Ordr")
        let syntax = ManifestProblem(file: "modules.json", line: 4, column: 17, message: "unexpected end of input")
        #expect(syntax.description == "modules.json:4:17: unexpected end of input")
        let nowhere = ManifestProblem(file: "Tenants/t9.json", field: "id", message: "must match the file name")
        #expect(nowhere.description == "Tenants/t9.json: id: must match the file name")
    }
}
