import ArgumentParser
import Foundation
import TenantKit

/// A refused or failed command's error under `--json` (docs/schemas/error.schema.json), on stdout.
struct CommandErrorJSON: Encodable {
    struct Body: Encodable {
        /// What kind of error: `usage` (exit 64, the command line), `unknown-tenant`, `unknown-module` (exit 64),
        /// `git` (a git command failed), `failed` (anything else, exit 1).
        var code: String
        /// The error as printed on stderr (without `error: `); several errors a line each.
        var message: String
        /// The tenants or modules the error is about (empty when none is).
        var names: [String]
    }

    var schemaVersion = 1
    var error: Body

    init(_ failure: CommandFailure) {
        error = Body(code: failure.code, message: failure.log.all.joined(separator: "\n"), names: failure.names)
    }

    init(code: String, message: String) {
        error = Body(code: code, message: message, names: [])
    }
}
