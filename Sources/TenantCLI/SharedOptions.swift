import ArgumentParser
import TenantKit

/// `--wait`: every command that takes the workspace lock accepts it (the lock error tells the user to use it).
struct LockOptions: ParsableArguments, Sendable {
    @Flag(help: "Wait for another tenantctl run on this superproject to finish instead of failing.")
    var wait = false
}

/// `--no-fetch`: work from the refs and module mirrors as the last fetch left them.
struct FetchOptions: ParsableArguments, Sendable {
    @Flag(help: "Do not fetch; use the remote-tracking refs and module mirrors as the last fetch left them.")
    var noFetch = false

    /// Whether to fetch first.
    var fetch: Bool { !noFetch }
}

/// `--jobs`: how many module repositories are fetched at the same time.
struct JobsOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Module repositories fetched at the same time (at least 1).", valueName: "n"))
    var jobs = 4

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }
}

/// The options of a command that changes remotes: `--dry-run` and the lock's `--wait`.
struct WriteOptions: ParsableArguments, Sendable {
    @Flag(help: "Print the plan; change no branch, file or remote.")
    var dryRun = false

    @OptionGroup var lock: LockOptions

    /// `--wait`.
    var wait: Bool { lock.wait }
}

extension CommandContext {
    /// Takes the workspace lock of `workspace`: fails fast naming the holder, or waits for it with `wait`.
    /// Every command that changes refs, mirrors or files of a superproject takes it through here.
    func lock(_ workspace: Workspace, wait: Bool) throws -> WorkspaceLock {
        try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: wait)
    }
}

/// A command that takes the workspace lock, and so accepts `--wait`.
protocol LockingCommand: TenantctlCommand {
    /// Its `--wait`.
    var lockOptions: LockOptions { get }
}

/// A command that changes remotes: `--dry-run` and `--wait`.
protocol WritingCommand: LockingCommand {
    /// Its `--dry-run` and `--wait`.
    var writeOptions: WriteOptions { get }
}

extension WritingCommand {
    var lockOptions: LockOptions { writeOptions.lock }
}

extension CommandContext {
    /// Runs a working-copy command (`switch`, `pin`) under the workspace lock: a refusal (nothing changed) is
    /// printed and exits 1; the report is printed as JSON with `--json`, else with `text`.
    /// With `journal` (the command's words; nil for a dry run) the run is journalled (``journalled(_:command:arguments:aborting:unfinished:_:)``)
    /// and `run` gets its transaction; with `aborting`, the stopped runs of the same command it went on from end
    /// aborted (a switch puts back what a stopped switch moved), not finished.
    func runOnWorkingCopy<Report: Encodable>(
        wait: Bool, journal command: String? = nil, aborting: Bool = false,
        unfinished: (any Error) -> Bool = { _ in false }, _ run: (Workspace, Transaction?) throws -> Report,
        text: (Report) -> Void
    ) throws -> ExitStatus {
        let workspace = try workspace()
        let lock = try lock(workspace, wait: wait)
        defer { lock.release() }
        let report: Report
        do {
            if let command {
                report = try journalled(workspace, command: command, aborting: aborting, unfinished: unfinished) {
                    try run(workspace, $0)
                }
            } else {
                report = try run(workspace, nil)
            }
        } catch let refusal as WorkingCopyRefusal {
            console.error(refusal.description)
            return .failure
        }
        if options.json {
            console.data(try JSONOutput.encode(report))
        } else {
            text(report)
        }
        return .success
    }
}
