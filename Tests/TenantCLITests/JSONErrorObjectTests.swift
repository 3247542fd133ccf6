import Foundation
import TenantKit
import Testing

@testable import TenantCLI

/// With `--json`, the JSON error object a failed command prints on stdout: when it cannot be encoded, stderr says so
/// (the error itself is already there), and stdout does not pretend to hold a report.
@Suite struct JSONErrorObjectTests {
    /// A value whose encoding fails, as an encoder refusing a value would.
    struct Unencodable: Encodable {
        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(
                self, EncodingError.Context(codingPath: [], debugDescription: "refused on purpose"))
        }
    }

    static func environment() -> (CommandEnvironment, stdout: BufferOutputSink, stderr: BufferOutputSink) {
        let stdout = BufferOutputSink()
        let stderr = BufferOutputSink()
        let environment = CommandEnvironment(variables: [:], currentDirectory: "/", stdout: stdout, stderr: stderr)
        return (environment, stdout, stderr)
    }

    @Test func anObjectThatCannotBeEncodedIsSaidOnStderr() throws {
        let (environment, stdout, stderr) = Self.environment()
        Tenantctl.writeJSONError(Unencodable(), environment: environment)
        #expect(stdout.text.isEmpty, "\(stdout.text)")
        #expect(stderr.text.hasPrefix("error: the JSON error object could not be written"), "\(stderr.text)")
        #expect(stderr.text.contains("refused on purpose"), "\(stderr.text)")

        // Positive control: an error object that encodes is on stdout, stderr stays empty.
        let (plain, out, err) = Self.environment()
        Tenantctl.writeJSONError(CommandErrorJSON(code: "usage", message: "unknown option '--x'"), environment: plain)
        let object = try JSONSerialization.jsonObject(with: Data(out.text.utf8)) as? [String: Any]
        #expect((object?["error"] as? [String: Any])?["code"] as? String == "usage", "\(out.text)")
        #expect(err.text.isEmpty, "\(err.text)")
    }
}
