import ArgumentParser
import TenantKit

/// A command that takes the workspace lock, and so accepts `--wait`.
protocol LockingCommand: TenantctlCommand {
    /// Its `--wait`.
    var lockOptions: LockOptions { get }
}
