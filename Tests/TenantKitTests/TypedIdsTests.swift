import Foundation
import Testing

/// The values that carry refs and object ids between the layers declare them typed (`RefName`, `ObjectID`), not as
/// `String`: a declaration that goes back to a string fails here, naming the file and the field.
///
/// The scan reads the declarations in the sources (`public var <field>: <Type>` inside the named type's file).
@Suite struct TypedIdsTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A stored field a file must declare with a typed id.
    struct Field: Sendable, CustomStringConvertible {
        var file: String
        var name: String
        var type: String

        var description: String { "\(file): \(name): \(type)" }
    }

    static let fields = [
        Field(file: "Sources/TenantGit/Git/RefTransaction.swift", name: "ref", type: "RefName"),
        Field(file: "Sources/TenantGit/Git/RefTransaction.swift", name: "new", type: "ObjectID?"),
        Field(file: "Sources/TenantGit/Git/RefTransaction.swift", name: "old", type: "ObjectID?"),
        Field(file: "Sources/TenantRoll/Roll/ModuleMerge.swift", name: "ours", type: "ObjectID"),
        Field(file: "Sources/TenantRoll/Roll/ModuleMerge.swift", name: "theirs", type: "ObjectID"),
        Field(file: "Sources/TenantRoll/Roll/ModuleMerge.swift", name: "virtualGeneral", type: "ObjectID?"),
        Field(file: "Sources/TenantRoll/Roll/PinChange.swift", name: "old", type: "ObjectID?"),
        Field(file: "Sources/TenantRoll/Roll/PinChange.swift", name: "new", type: "ObjectID"),
        Field(file: "Sources/TenantRoll/Roll/TenantPlan.swift", name: "tip", type: "ObjectID?"),
        Field(file: "Sources/TenantRoll/Roll/TenantPlan.swift", name: "oldPins", type: "[String: ObjectID]"),
        Field(file: "Sources/TenantRoll/Roll/TenantPlan.swift", name: "virtualGeneral", type: "ObjectID?"),
        Field(file: "Sources/TenantRoll/Roll/RollPlan.swift", name: "generalTip", type: "ObjectID"),
        Field(file: "Sources/TenantRoll/Roll/GeneralRepin.swift", name: "base", type: "ObjectID"),
    ]

    /// The type `text` declares the stored field `name` with (`var name: Type`), or nil when it declares none.
    static func declaredType(of name: String, in text: String) -> String? {
        let pattern = #"\bvar "# + name + #": ([A-Za-z0-9_?\[\]: ]+?)\s*(=|$|\n)"#
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]),
            let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }

    @Test func theScanReadsADeclaredType() {
        // Positive control: a typed and a plain declaration are told apart.
        #expect(Self.declaredType(of: "ref", in: "    public var ref: RefName\n") == "RefName")
        #expect(Self.declaredType(of: "new", in: "    public var new: String?\n    var x = 1\n") == "String?")
        #expect(Self.declaredType(of: "old", in: "    public var new: ObjectID?\n") == nil)
    }

    @Test func refChangesHoldTypedNamesAndIds() throws {
        var wrong: [String] = []
        for field in Self.fields {
            let text = try String(
                contentsOf: Self.packageRoot.appendingPathComponent(field.file), encoding: .utf8)
            let declared = Self.declaredType(of: field.name, in: text)
            if declared != field.type { wrong.append("\(field) (declared: \(declared ?? "none"))") }
        }
        #expect(wrong.isEmpty, "fields that no longer hold typed ids: \(wrong)")
    }
}
