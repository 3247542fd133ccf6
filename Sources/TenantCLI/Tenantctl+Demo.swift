import ArgumentParser
import Foundation
import TenantExample
import TenantKit

extension Tenantctl {
    /// `tenantctl demo`: the whole story on a generated example.
    struct Demo: TenantctlCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Tell the whole story on the thesis' ERP example: switch, a general change, roll, audit, compose, resolve.",
            discussion: """
                Builds the ERP example (four modules, three tenants) in a temporary directory and runs the real \
                commands on it, printing each command and its output: the tenants, the audit matrix, switching \
                the working copy to t2, general changes landing on the modules' general_dev (the thesis' AF.5 \
                and AF.6), the audit showing every tenant behind and since when (audit --history: the example's \
                commits are dated a month apart), roll --dry-run, roll, a clean audit, \
                compose for t1 and t2 (t2's German strings, t1's QR code library), and at the end a general change \
                that conflicts with t2's strings: roll leaves t2 conflicted, resolve t2, a scripted resolution, \
                resolve --continue, a clean audit; then a review round as on protected branches: one more general \
                change, roll --review (exit 75), the forge landing the proposals, roll --land until it exits 0, a \
                clean audit. No network; finishes in seconds. The directory is removed at \
                the end unless --keep is given. With --quiet nothing is printed but errors (the exit status tells \
                whether every step did what it should); with --json only the steps, their commands and exit \
                statuses (docs/schemas/demo.schema.json).

                Examples:
                  tenantctl demo
                  tenantctl demo --keep /tmp/erp-demo
                  cd /tmp/erp-demo/workspace && tenantctl status
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        @Option(help: ArgumentHelp("Build the demo in <dir> (new or empty) and keep it.", valueName: "dir"))
        var keep: String?

        func run(context: CommandContext) throws -> ExitStatus {
            var story = DemoStory(context: context, colorFlag: context.console.color ? "always" : "never")
            let directory: String
            if let keep {
                directory =
                    URL(
                        fileURLWithPath: keep, relativeTo: URL(fileURLWithPath: context.directory, isDirectory: true)
                    ).standardizedFileURL.path
            } else {
                directory =
                    FileManager.default.temporaryDirectory
                    .appendingPathComponent("tenantctl-demo-\(UUID().uuidString.prefix(8))").path
            }
            defer {
                if keep == nil { try? FileManager.default.removeItem(atPath: directory) }
            }
            let status = try story.tell(in: directory, keep: keep != nil)
            if context.options.json {
                context.console.data(
                    try JSONOutput.encode(
                        DemoJSON(
                            ok: status == .success, directory: keep == nil ? nil : directory, steps: story.steps,
                            moduleMerges: story.moduleMerges)))
            }
            return status
        }
    }
}

/// `tenantctl demo --json`.
struct DemoJSON: Encodable {
    /// One command the demo ran.
    struct Step: Encodable {
        var title: String
        var command: [String]
        var exitStatus: Int32
    }

    var schemaVersion = 1
    /// Every step did what it should.
    var ok: Bool
    /// The kept directory (`--keep`), else nil.
    var directory: String?
    var steps: [Step]
    /// Module → merges the roll made.
    var moduleMerges: [String: Int]
}

/// The demo's narration: each step prints what it shows and runs the real command in-process.
struct DemoStory {
    let context: CommandContext
    let colorFlag: String
    var step = 0
    /// The commands run so far (for `--json`).
    var steps: [DemoJSON.Step] = []
    /// Module → merges the roll made.
    var moduleMerges: [String: Int] = [:]
    /// The current step's title.
    private var title = ""

    init(context: CommandContext, colorFlag: String) {
        self.context = context
        self.colorFlag = colorFlag
    }

    /// The narration: silent with `--quiet` and with `--json` (the JSON is printed at the end).
    private var console: Console {
        var console = context.console
        console.quiet = console.quiet || context.options.json
        return console
    }

    mutating func tell(in directory: String, keep: Bool) throws -> ExitStatus {
        let started = Date()
        console.print(
            console.styled("tenantctl demo", .bold)
                + " — one modular app, many customers (the seed thesis' ERP example)")
        // The example's remotes are local directories: its builder hands out its repositories, local remotes allowed.
        let builder = ExampleBuilder(git: context.git.allowingLocalRemotes())
        let example = try builder.build(in: directory, stage: .beforeUpdates)
        let workspace = example.workspace
        narrate(
            "The example",
            """
            Four module repositories (Infrastructure, Article, Customer, Order) and a superproject that pins them
            as git submodules, with local bare remotes in \(example.remotes).
            general_dev carries general development; each tenant has a superproject branch (t1, t2, t3), and a
            module has a tenant branch only where that tenant customised it.
            Working copy: \(workspace)
            """)

        narrate("Tenants and modules", "Which modules each tenant uses, and which it customised (Tenants/*.json).")
        guard try command(["tenant", "list"], in: workspace) == .success else { return .failure }

        narrate(
            "Audit: who customised what",
            "A tenants × modules matrix from the repositories themselves: t2 customised Infrastructure and Customer, "
                + "t3 customised Order.")
        guard try command(["audit"], in: workspace) == .success else { return .failure }

        narrate(
            "Switch the working copy to t2",
            "Every module ends on a named branch at the pinned commit: t2 for the modules t2 customised, general_dev "
                + "for the others. No detached HEAD.")
        guard try command(["switch", "t2"], in: workspace) == .success else { return .failure }

        narrate(
            "General development moves on",
            "The thesis' AF.5 and AF.6 land on the modules' general_dev: a new start screen (Infrastructure), a "
                + "title bar (Article) and a QR code for orders (Order). Nobody has rolled them to the tenants yet.")
        let before = try mergeCounts(example, builder: builder)
        let tips = try builder.landUpdates(remotes: example.remotes)
        for module in ExampleScenario.modules.map(\.name) where tips[module] != nil {
            let subject = try builder.remote(module, in: example.remotes).subject(
                of: "refs/heads/general_dev", context: "read the new commit of \(module)")
            console.print("  \(module.padding(toLength: 15, withPad: " ", startingAt: 0)) general_dev  \(subject)")
        }

        narrate("Audit: every tenant is behind", "`tenantctl audit --check` would now fail a CI gate (exit 2).")
        guard try command(["audit", "--check", "--summary"], in: workspace, expect: [.findings]) == .findings else {
            return .failure
        }

        guard try tellDrift(workspace: workspace) == .success else { return .failure }

        guard try tellRoll(example, builder: builder, before: before) == .success else { return .failure }

        narrate("Audit again: everyone is up to date", "`tenantctl audit --check` passes.")
        guard try command(["audit", "--check", "--summary"], in: workspace) == .success else { return .failure }

        guard try tellCompose(directory: directory, workspace: workspace) == .success else { return .failure }

        guard try tellConflict(example, builder: builder) == .success else { return .failure }

        guard try tellReview(example, builder: builder) == .success else { return .failure }

        console.print("")
        console.print(
            console.styled("Done", .bold) + " in \(String(format: "%.1f", Date().timeIntervalSince(started))) s.")
        if keep {
            console.print("The example is kept in \(directory). Next:")
            console.print("  cd \(ShellWord.quote(workspace)) && tenantctl status")
        } else {
            console.print("Next: `tenantctl demo --keep <dir>` keeps the repositories to explore;")
        }
        console.print("  docs/tutorial.md walks through the scenario, docs/adopting.md brings your own superproject.")
        return .success
    }

    /// Roll's dry run, then the roll, and the module merges it needed (against the merge counts `before` it).
    private mutating func tellRoll(_ example: ExampleResult, builder: ExampleBuilder, before: [String: Int]) throws
        -> ExitStatus
    {
        let workspace = example.workspace
        narrate(
            "Roll, dry run",
            "The plan: merge general_dev into the module tenant branches that need it, re-pin general_dev, merge it "
                + "into every tenant branch and set every pin by the rule. Nothing is written.")
        guard try command(["roll", "--dry-run"], in: workspace) == .success else { return .failure }

        narrate(
            "Roll",
            "The same, for real: plumbing only (no checkout, your working copy stays on t2), modules pushed before "
                + "the superproject, each repository in one atomic push.")
        guard try command(["roll"], in: workspace) == .success else { return .failure }
        let after = try mergeCounts(example, builder: builder)
        for module in ExampleScenario.modules.map(\.name) {
            moduleMerges[module] = (after[module] ?? 0) - (before[module] ?? 0)
        }
        let merges = ExampleScenario.modules.map(\.name).map { "\($0) \(moduleMerges[$0] ?? 0)" }
        console.print("")
        console.print(
            "Module merges this roll needed: " + merges.joined(separator: ", ")
                + " (the thesis' evaluation: only customised modules whose general_dev moved need a merge).")
        return .success
    }

    /// Compose for t1 and t2 into `<directory>/build`, and what differs between them.
    private mutating func tellCompose(directory: String, workspace: String) throws -> ExitStatus {
        narrate(
            "Compose: each tenant's build inputs",
            "The thesis' stringsbuilder and combinepods: strings, ActiveModules.json and the dependency files of a "
                + "tenant's active modules, read from the fetched refs (a CI build matrix needs no working copy).")
        let build = "\(directory)/build"
        for tenant in ["t1", "t2"] {
            guard try command(["compose", tenant, "--out", "\(build)/\(tenant)"], in: workspace) == .success else {
                return .failure
            }
        }
        let t1Package = try String(contentsOfFile: "\(build)/t1/TenantDependencies/Package.swift", encoding: .utf8)
        let t2Package = try String(contentsOfFile: "\(build)/t2/TenantDependencies/Package.swift", encoding: .utf8)
        let t2German = try String(contentsOfFile: "\(build)/t2/de.lproj/Localizable.strings", encoding: .utf8)
        console.print("")
        console.print(
            "t1's TenantDependencies " + (t1Package.contains("QRCode") ? "has" : "lacks")
                + " the QR code library (Order is active); t2's " + (t2Package.contains("QRCode") ? "has" : "lacks")
                + " it. t2 in German: "
                + (t2German.split(separator: "\n").first { $0.contains("customer.validation.name") } ?? "?"))
        return .success
    }

    /// The end of the story: a general change conflicts with t2's customisation; roll leaves t2 untouched, resolve
    /// finishes it with a (scripted) resolution, and audit is clean again.
    private mutating func tellConflict(_ example: ExampleResult, builder: ExampleBuilder) throws -> ExitStatus {
        let workspace = example.workspace
        narrate(
            "A general change that conflicts with a customisation",
            "general_dev rewords the loading message in Infrastructure's Strings.csv, in the very row t2 translated "
                + "into German. roll rolls t1 and t3 and leaves t2 untouched, naming the command that finishes it.")
        try builder.landConflicts(remotes: example.remotes)
        guard try command(["roll"], in: workspace, expect: [.findings]) == .findings else { return .failure }

        narrate(
            "Resolve t2 with git's own merge",
            "resolve switches the working copy to t2 and runs a real git merge of general_dev in every repository "
                + "that needs one (gitlinks follow the pin rule); your editor, git mergetool, Xcode and rerere work "
                + "as usual. Nothing is published yet.")
        guard try command(["resolve", "t2"], in: workspace, expect: [.findings]) == .findings else {
            return .failure
        }

        let resolution = ExampleScenario.conflictResolution
        narrate(
            "The conflict, resolved by hand",
            "A script plays the user: it keeps t2's German column, takes general_dev's new wording and translates "
                + "it, then stages the file.")
        let module = "\(workspace)/Modules/\(resolution.module)"
        try resolution.content.write(toFile: "\(module)/\(resolution.file)", atomically: true, encoding: .utf8)
        console.print("")
        console.print(console.styled("$ git -C Modules/\(resolution.module) add \(resolution.file)", .cyan))
        try builder.repository(at: module).stage(resolution.file, context: "stage the resolution")
        guard try command(["status"], in: workspace) == .success else { return .failure }

        narrate(
            "Continue: commit, pin, publish",
            "resolve --continue commits the merges with roll's messages, pins every module by the rule, commits the "
                + "superproject merge and publishes like roll: modules first, then the superproject, each in one "
                + "atomic push with a lease, journalled for roll --undo.")
        guard try command(["resolve", "--continue"], in: workspace) == .success else { return .failure }

        narrate("Audit: every tenant is up to date again", "`tenantctl audit --check` passes.")
        return try command(["audit", "--check", "--summary"], in: workspace) ?? .failure
    }

    /// A review round: where tenant branches are protected, roll proposes on tenantctl's own branches, the forge
    /// lands them (here a merge button on the example's remotes), and `roll --land` pins exactly what landed.
    private mutating func tellReview(_ example: ExampleResult, builder: ExampleBuilder) throws -> ExitStatus {
        let workspace = example.workspace
        narrate(
            "Protected branches: roll as reviews",
            "Where tenant branches are protected, every change goes through a review. One more general change lands "
                + "on Order's general_dev; roll --review proposes the same merges on tenantctl/roll/<tenant> "
                + "branches (module proposals first; each tenant's superproject proposal waits for them) and exits "
                + "75 while reviews are open.")
        try builder.landReviewChange(remotes: example.remotes)
        guard try command(["roll", "--review"], in: workspace, expect: [.tempfail]) == .tempfail else {
            return .failure
        }
        narrate(
            "The forge lands the reviews; roll --land follows",
            "Reviewers approve and the forge merges the proposals (here: a merge button on the example's remotes). "
                + "roll --land recognises each landing (merge, fast-forward, squash or rebase) and proposes the "
                + "tenants' superproject pins of exactly what landed; once those land too, it exits 0.")
        let modules = ExampleScenario.modules.map(\.name)
        console.print(
            "  the forge merged: "
                + (try landed(modules + [ExampleBuilder.superprojectName], example, builder: builder)))
        guard try command(["roll", "--land"], in: workspace, expect: [.tempfail]) == .tempfail else {
            return .failure
        }
        console.print(
            "  the forge merged: " + (try landed([ExampleBuilder.superprojectName], example, builder: builder)))
        guard try command(["roll", "--land"], in: workspace) == .success else { return .failure }
        guard try command(["audit", "--check", "--summary"], in: workspace) == .success else { return .failure }
        return .success
    }

    /// The forge lands the proposals of `names`; what it merged, as one line.
    private func landed(_ names: [String], _ example: ExampleResult, builder: ExampleBuilder) throws -> String {
        let landed = try builder.landProposals(
            names, remotes: example.remotes, prefix: ReviewOptions.defaultPrefix)
        return landed.isEmpty ? "nothing" : landed.joined(separator: ", ")
    }

    private mutating func narrate(_ title: String, _ text: String) {
        step += 1
        self.title = title
        console.print("")
        console.print(console.styled("\(step). \(title)", .bold))
        for line in Self.wrap(text.replacingOccurrences(of: "\n", with: " "), width: Self.proseWidth(console.width)) {
            console.print(console.styled(line, .dim))
        }
    }

    /// The width the story's prose is wrapped to: the terminal's, else (off a terminal, where tables are not cut)
    /// ``TerminalWidth/fallback``, 80, so that no line breaks mid-word on a terminal of the usual width.
    static func proseWidth(_ width: Int) -> Int {
        width == TerminalWidth.unlimited ? TerminalWidth.fallback : max(width, 20)
    }

    /// Words of `text` in lines of at most `width` columns.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && TextWidth.of(line) + 1 + TextWidth.of(String(word)) > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Runs `tenantctl <arguments>` in-process in `directory`, printing the command and its report.
    /// Progress goes to a buffer that is shown only when the command fails.
    private mutating func command(
        _ arguments: [String], in directory: String, expect: Set<ExitStatus> = [.success]
    ) throws -> ExitStatus? {
        console.print("")
        console.print(console.styled("$ tenantctl " + arguments.joined(separator: " "), .cyan))
        let progress = BufferOutputSink()
        let environment = CommandEnvironment(
            variables: context.environment.variables, currentDirectory: directory,
            stdout: console.quiet ? BufferOutputSink() : context.console.out,
            stderr: progress, stdoutIsTerminal: context.environment.stdoutIsTerminal)
        var full = arguments + ["--color", colorFlag]
        if let git = context.options.git { full += ["--git", git] }
        let code = Tenantctl.run(arguments: full, environment: environment)
        let status = ExitStatus(rawValue: code)
        steps.append(DemoJSON.Step(title: title, command: ["tenantctl"] + arguments, exitStatus: code))
        if let status, expect.contains(status) { return status }
        console.error("`tenantctl \(arguments.joined(separator: " "))` exited with \(code):")
        context.console.err.write(progress.text)
        return status
    }

    /// The drift over time on the example's dated history: every tenant behind since the general change of
    /// 2013-01-31, week by week.
    private mutating func tellDrift(workspace: String) throws -> ExitStatus {
        narrate(
            "Drift over time: since when",
            "The example's commits are dated 2013-01-01, the general change 2013-01-31. `tenantctl audit --history` "
                + "shows the same cells at points in the past, week by week: each tenant's trend of commits behind and "
                + "of lines its customisations change, the tenants that drifted most first.")
        let drift = ["audit", "--history", "--since", "2012-12-15", "--until", "2013-03-15", "--every", "week"]
        return try command(drift, in: workspace) ?? .failure
    }

    /// The number of merge commits on the branches of every module remote.
    private func mergeCounts(_ example: ExampleResult, builder: ExampleBuilder) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for module in ExampleScenario.modules.map(\.name) {
            counts[module] =
                try builder.remote(module, in: example.remotes).mergeCount(
                    context: "count the merges of \(module)") ?? 0
        }
        return counts
    }
}
