import Foundation
import TenantKit
import Testing

@testable import TenantCompose

/// The JSON byte writer lays out any nesting as `JSONEncoder` does (the audit report and the run journal use only
/// some of the shapes; their own tests compare whole documents).
@Suite struct JSONBytesTests {
    /// A JSON value with its keys in sorted order, written both ways.
    indirect enum Value: Encodable, Sendable {
        case string(String)
        case optionalString(String?)
        case int(Int?)
        case bool(Bool)
        case strings([String])
        case array([Value])
        case object([(key: StaticString, value: Value)])

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        /// The value of a scalar case (or of an array of strings); nil for an array or an object.
        var single: (any Encodable)? {
            switch self {
            case .string(let value): value
            case .optionalString(let value): value as any Encodable  // a nil too, as null
            case .int(let value): value as any Encodable
            case .bool(let value): value
            case .strings(let values): values
            case .array, .object: nil
            }
        }

        func encode(to encoder: any Encoder) throws {
            if let single {
                var container = encoder.singleValueContainer()
                try container.encode(single)
            } else if case .array(let values) = self {
                var container = encoder.unkeyedContainer()
                for value in values { try container.encode(value) }
            } else if case .object(let members) = self {
                var container = encoder.container(keyedBy: Key.self)
                for member in members { try container.encode(member.value, forKey: Key(stringValue: "\(member.key)")) }
            }
        }

        func write(to json: inout JSONBytes) {
            switch self {
            case .string(let value): json.string(value)
            case .optionalString(let value): value.write(to: &json)
            case .int(let value): value.write(to: &json)
            case .bool(let value): json.bool(value)
            case .strings(let values): json.strings(values)
            case .array(let values): json.array(values) { json, value in value.write(to: &json) }
            case .object(let members):
                json.object { json in
                    for member in members {
                        json.key(member.key)
                        member.value.write(to: &json)
                    }
                }
            }
        }
    }

    static func encoder(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func written(_ value: Value) -> String {
        var json = JSONBytes()
        value.write(to: &json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// Empty and filled objects and arrays inside each other down to five levels, values of every kind, and a
    /// member after a nested container.
    static let nested: Value = .object([
        ("a", .object([])),
        ("b", .array([])),
        ("c", .array([.object([]), .array([]), .strings([]), .strings(["x", "y / \"z\""])])),
        (
            "d",
            .object([
                ("after", .bool(false)),
                ("deep", .array([.array([.object([("e", .object([("f", .array([.int(-12), .int(7)]))]))])])])),
                ("more", .string("after a nested container")),
            ])
        ),
        ("e", .optionalString(nil)),
        ("f", .int(nil)),
        ("g", .int(1_234_567)),
        ("h", .string("Zürich \u{1} 🙂")),
    ])

    @Test func everyNestingAsJSONEncoder() throws {
        #expect(Self.written(Self.nested) == (try Self.encoder(Self.nested)))
        for value: Value in [.object([]), .array([]), .strings(["only"]), .array([.bool(true)])] {
            #expect(Self.written(value) == (try Self.encoder(value)))
        }
    }

    /// Positive control: the comparison sees a container missing its empty line.
    @Test func comparisonDetectsADifference() throws {
        let expected = try Self.encoder(Self.nested)
        #expect(expected.contains("\"a\" : {\n\n  }"))
        #expect(expected.contains("\"e\" : null,\n  \"f\" : null"), "the nil values are in the document")
        #expect(Self.written(Self.nested) != expected.replacingOccurrences(of: "{\n\n  }", with: "{\n  }"))
    }

    /// Elements written apart at the next level and joined: the same bytes as writing them in place, at any depth.
    @Test func joinedElementsAreTheArraysBytes() throws {
        let elements: [Value] = [.object([("k", .strings(["v"]))]), .object([]), .int(3)]
        for parts in [0, 1, 3] {
            var inPlace = JSONBytes()
            var joined = JSONBytes()
            inPlace.object { json in
                json.key("list")
                json.array(elements.prefix(parts)) { json, value in value.write(to: &json) }
                json.member("z", true)
            }
            joined.object { json in
                json.key("list")
                let level = json.level + 1
                json.array(
                    joining: elements.prefix(parts).map { value in
                        var part = JSONBytes(level: level)
                        value.write(to: &part)
                        return part.bytes
                    })
                json.member("z", true)
            }
            #expect(joined.bytes == inPlace.bytes, "\(parts) elements")
            let expected = try Self.encoder(
                .object([("list", .array(Array(elements.prefix(parts)))), ("z", .bool(true))]))
            #expect(String(decoding: joined.bytes, as: UTF8.self) == expected)
        }
    }
}

/// The String Catalog is laid out as Xcode (and `JSONEncoder`) lays it out, with the files' escaping: pinned, so that
/// writing it with the JSON byte writer changes no byte.
@Suite struct StringCatalogBytesTests {
    @Test func catalogBytesArePinned() {
        let strings = ComposedStrings(
            sourceLanguage: "en", languages: ["de", "en"],
            values: [
                "a.key": ["en": "Hello \"you\" \\ / \u{7}\u{2028}", "de": "Grüße 👋"], "b": ["en": ""], "none": [:],
            ],
            overrides: [], missing: [])
        let expected = """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "a.key" : {
                  "extractionState" : "manual",
                  "localizations" : {
                    "de" : {
                      "stringUnit" : {
                        "state" : "translated",
                        "value" : "Grüße 👋"
                      }
                    },
                    "en" : {
                      "stringUnit" : {
                        "state" : "translated",
                        "value" : "Hello \\"you\\" \\\\ / \\u0007\\u2028"
                      }
                    }
                  }
                },
                "b" : {
                  "extractionState" : "manual",
                  "localizations" : {
                    "en" : {
                      "stringUnit" : {
                        "state" : "translated",
                        "value" : ""
                      }
                    }
                  }
                },
                "none" : {
                  "extractionState" : "manual",
                  "localizations" : {

                  }
                }
              },
              "version" : "1.0"
            }

            """
        #expect(String(decoding: StringCatalogWriter.catalog(strings), as: UTF8.self) == expected)
        let empty = ComposedStrings(sourceLanguage: "de", languages: ["de"], values: [:], overrides: [], missing: [])
        #expect(
            String(decoding: StringCatalogWriter.catalog(empty), as: UTF8.self)
                == "{\n  \"sourceLanguage\" : \"de\",\n  \"strings\" : {\n\n  },\n  \"version\" : \"1.0\"\n}\n")
    }
}
