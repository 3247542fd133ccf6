import ArgumentParser
import Foundation
import TenantKit

/// Exit statuses, as docs/CLI.md lists them.
public enum ExitStatus: Int32, Sendable {
    /// Everything done.
    case success = 0
    /// Nothing, or only a reported part, done.
    case failure = 1
    /// Completed with conflicts or findings (`roll`, `audit --check`, `verify`).
    case findings = 2
    /// The command line was wrong.
    case usage = 64
    /// Nothing wrong, but not done yet: reviews are still open (`roll --review`, `roll --land`); run it again later.
    case tempfail = 75
    /// Stopped by SIGINT or SIGTERM.
    case interrupted = 130
}
