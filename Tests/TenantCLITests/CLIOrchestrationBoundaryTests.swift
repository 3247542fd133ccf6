import Foundation
import Testing

/// The command line parses and renders; the features' pipelines live in TenantKit. A file in `Sources/TenantCLI/`
/// calls a feature's entry point (`ComposeRun`, `StatusRun`, `SwitchRun`, `PinRun`, `ResolveRun`, `RunsListing`, …),
/// never the steps under it: the scan reports a line outside comments that names one of ``steps``.
@Suite struct CLIOrchestrationBoundaryTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The steps a command must leave to its entry point, each with the entry point that sequences it.
    static let steps: [(pattern: String, entry: String)] = [
        (#"\bSnapshot\.load\("#, "the feature's entry point"),
        (#"\bComposeReader\b"#, "ComposeRun"),
        (#"\bComposePlanner\b"#, "ComposeRun"),
        (#"\bComposeOutput\b"#, "ComposeRun"),
        (#"\bStatusReport\.inspect\("#, "StatusRun"),
        (#"\bResolutionStatus\.inspect\("#, "StatusRun"),
        (#"\bRunJournal\.(unfinished|all)\("#, "StatusRun, RunsListing"),
        (#"\bTransaction\.begin\("#, "the feature's entry point (Transaction.journalled)"),
        (#"\bWorkingCopySwitch\("#, "SwitchRun"),
        (#"\bWorkingCopyPin\("#, "PinRun"),
        (#"\bResolve(Starter|Continuer|Aborter)\("#, "ResolveRun"),
        (#"\bLifecycleExecutor\b"#, "LifecycleRun"),
        (#"\b(TenantLifecycle|ModuleLifecycle|Customization|Milestone)\.(plan\w*|remoteTags)\("#, "LifecycleRun"),
        (#"\b(RollRunner|RollPlanner|RollExecutor|RollStateLoader|RollUndo)\b"#, "RollRun"),
        (#"\bTransaction\.(journalled|unfinishedRuns|markFinished)\("#, "the feature's entry point"),
        (#"\b(Auditor|FindingJudge|ObservationReader)\."#, "AuditRun, VerifyRun"),
        (#"\bAtomicPush\b"#, "the feature's entry point"),
        (#"\bWorkspaceLock\("#, "the feature's entry point"),
        (#"\bPinReader\.|\.diff\(from:"#, "TenantDiff"),
    ]

    /// File (relative to the package root) → the step patterns it may use, with the reason. None today: every
    /// command loads its snapshot inside its entry point.
    static let exempt: [String: [String]] = [:]

    /// The 1-based lines of `text`, outside `//` comments, that name a step (but those `allowed`), with the entry
    /// point to call instead.
    static func violations(in text: String, allowed: [String] = []) throws -> [(line: Int, entry: String)] {
        var found: [(line: Int, entry: String)] = []
        let expressions = try steps.filter { !allowed.contains($0.pattern) }.map {
            (try NSRegularExpression(pattern: $0.pattern), $0.entry)
        }
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let code = line.components(separatedBy: "//").first ?? line
            let range = NSRange(code.startIndex..., in: code)
            for (expression, entry) in expressions where expression.firstMatch(in: code, range: range) != nil {
                found.append((index + 1, entry))
            }
        }
        return found
    }

    @Test func theCheckFindsAStepCalledFromACommandAndNotItsEntryPointOrAComment() throws {
        let source = """
            /// Reads the input with `ComposeReader.workingCopy`, then plans it.
            func run(context: CommandContext) throws -> ExitStatus {
                let report = try ComposeRun(check: check).run(workspace: workspace, console: nil)
                let input = try ComposeReader.workingCopy(workspace, options: options)
                var status = try StatusReport.inspect(workspace: workspace)  // not StatusRun
                let lock = try context.lock(workspace, wait: wait)
                return try Transaction.begin(workspace, command: "pin", arguments: [])
            }
            """
        let found = try Self.violations(in: source)
        #expect(found.map(\.line) == [4, 5, 7], "\(found)")
        #expect(
            found.map(\.entry) == ["ComposeRun", "StatusRun", "the feature's entry point (Transaction.journalled)"])
        // An exemption allows its step only.
        #expect(
            try Self.violations(in: "let s = try Snapshot.load(workspace: w)", allowed: [#"\bSnapshot\.load\("#])
                .isEmpty)
        #expect(try Self.violations(in: "let s = try Snapshot.load(workspace: w)").count == 1)
        // A tenant's diff read in a command file instead of TenantDiff.
        let diff = """
            let pins = try PinReader.pins(at: tip, paths: paths, in: root, git: git)
            let text = try GitRepository(path, git: git).diff(from: a, to: b, format: .patch, prefix: "", color: false)
            let report = try TenantDiff(tenant: tenant).run(workspace: workspace, validation: validation)
            """
        #expect(try Self.violations(in: diff).map(\.entry) == ["TenantDiff", "TenantDiff"])
        // The write side's steps too: a lifecycle plan executed, a roll planned or a push made in a command file.
        let writes = """
            let plan = try TenantLifecycle.planAdd(request, state: state)
            try LifecycleExecutor(state: state).execute(plan, console: console) { _, _ in }
            let outcome = RollPlanner.plan(state)
            let pushed = try AtomicPush.run(plan)
            let lock = try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: wait)
            let run = try LifecycleRun.run(change, in: workspace, options: options)
            """
        #expect(
            try Self.violations(in: writes).map(\.entry) == [
                "LifecycleRun", "LifecycleRun", "RollRun", "the feature's entry point", "the feature's entry point",
            ])
    }

    @Test func noCommandFileSequencesAFeaturesSteps() throws {
        let directory = Self.packageRoot.appendingPathComponent("Sources/TenantCLI")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".swift")
        }
        .sorted()
        #expect(files.contains("Tenantctl+Compose.swift"), "the scan reads the command files: \(files)")
        var problems: [String] = []
        for file in files {
            let relative = "Sources/TenantCLI/" + file
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for (line, entry) in try Self.violations(in: text, allowed: Self.exempt[relative] ?? []) {
                problems.append("\(relative):\(line): call \(entry) instead")
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
