import Foundation
import Testing

/// Every snapshot a command takes gets its options from one place, `Snapshot.Options(purpose:…)`: how strict a
/// snapshot is (invalid tenant files, unreachable module remotes) is decided there, not at each caller.
@Suite struct SnapshotEntryPointTests {
    /// `Snapshot.Options(` calls outside `Sources/TenantObservation/Snapshot/` whose first argument is not `purpose:`, as
    /// `file:line`, in the `.swift` files under `root`.
    static func callsWithoutPurpose(under root: String) throws -> [String] {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let name = enumerator?.nextObject() as? String {
            guard name.hasSuffix(".swift"), !name.hasPrefix("TenantObservation/Snapshot/") else { continue }
            let text = try String(contentsOfFile: "\(root)/\(name)", encoding: .utf8)
            var rest = Substring(text)
            while let call = rest.range(of: "Snapshot.Options(") {
                let after = rest[call.upperBound...].drop { $0 == " " || $0 == "\n" }
                if !after.hasPrefix("purpose:") {
                    let line = text[..<call.lowerBound].filter { $0 == "\n" }.count + 1
                    found.append("\(name):\(line)")
                }
                rest = rest[call.upperBound...]
            }
        }
        return found.sorted()
    }

    @Test func everySnapshotTakesItsOptionsFromItsPurpose() throws {
        let sources = FolderLayerTests.packageRoot.appendingPathComponent("Sources").path
        let found = try Self.callsWithoutPurpose(under: sources)
        #expect(found.isEmpty, "build them with Snapshot.Options(purpose: …): \(found)")
    }

    /// Positive control: a call with the memberwise options is found, one with a purpose is not.
    @Test func theScanFindsACallWithoutAPurpose() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(
            atPath: root + "/TenantResolve/Resolve", withIntermediateDirectories: true)
        try
            "let a = Snapshot.Options(\n    purpose: .strict, allowLocalRemotes: false)\nlet b = Snapshot.Options(fetch: true)\n"
            .write(toFile: root + "/TenantResolve/Resolve/X.swift", atomically: true, encoding: .utf8)
        #expect(try Self.callsWithoutPurpose(under: root) == ["TenantResolve/Resolve/X.swift:3"])
    }
}
