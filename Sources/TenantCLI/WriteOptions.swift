import ArgumentParser
import TenantKit

/// The options of a command that changes remotes: `--dry-run` and the lock's `--wait`.
struct WriteOptions: ParsableArguments, Sendable {
    @Flag(help: "Print the plan; change no branch, file or remote.")
    var dryRun = false

    @OptionGroup var lock: LockOptions

    /// `--wait`.
    var wait: Bool { lock.wait }
}
