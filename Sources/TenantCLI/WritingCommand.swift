import ArgumentParser
import TenantKit

/// `--wait`: every command that takes the workspace lock accepts it (the lock error tells the user to use it).
struct LockOptions: ParsableArguments, Sendable {
    @Flag(
        help: ArgumentHelp(
            "Wait for another tenantctl run on this superproject to finish, however long it takes (without it a "
                + "writing command fails at once; audit, verify and compose wait up to 2 minutes)."))
    var wait = false
}

/// The options of a command that changes remotes: `--dry-run` and the lock's `--wait`.
struct WriteOptions: ParsableArguments, Sendable {
    @Flag(help: "Print the plan; change no branch, file or remote.")
    var dryRun = false

    @OptionGroup var lock: LockOptions

    /// `--wait`.
    var wait: Bool { lock.wait }
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
