import Foundation

/// A failure to start a process.
package enum SpawnError: Error, CustomStringConvertible {
    /// The system refused (no such file, too many processes, no pipes left).
    case failed(String)
    /// The run was interrupted: no new process starts after SIGINT/SIGTERM.
    case cancelled

    package var description: String {
        switch self {
        case .failed(let reason): return reason
        case .cancelled: return "tenantctl was interrupted"
        }
    }
}
