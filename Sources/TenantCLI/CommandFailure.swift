import ArgumentParser
import Foundation
import TenantKit

/// What made a command fail: the errors it printed, a code and the names involved.
final class CommandFailure {
    /// `failed`, `usage`, `unknown-tenant`, `unknown-module` or `git`.
    var code = "failed"
    /// The tenants or modules the error is about.
    var names: [String] = []
    /// Every error printed.
    let log = ErrorLog()
}
