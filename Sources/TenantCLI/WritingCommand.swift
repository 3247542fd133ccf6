import ArgumentParser
import TenantKit

/// A command that changes remotes: `--dry-run` and `--wait`.
protocol WritingCommand: LockingCommand {
    /// Its `--dry-run` and `--wait`.
    var writeOptions: WriteOptions { get }
}

extension WritingCommand {
    var lockOptions: LockOptions { writeOptions.lock }
}
