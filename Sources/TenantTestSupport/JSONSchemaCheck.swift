import Foundation

/// A small JSON Schema validator for the subset the project's schemas use (`docs/*-schema.json`):
/// `type` (one or a list), `const`, `enum`, `required`, `properties`, `additionalProperties: false`, `items`,
/// `minLength`, `minimum`, `pattern`, and local `$ref` (`#/$defs/<name>`).
public struct JSONSchemaCheck {
    /// The schema as decoded by `JSONSerialization`.
    public let schema: [String: Any]

    /// Loads a schema file.
    public init(contentsOf path: String) throws {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        guard let schema = object as? [String: Any] else {
            throw CheckError(description: "\(path) is not a JSON object")
        }
        self.schema = schema
    }

    struct CheckError: Error, CustomStringConvertible {
        var description: String
    }

    /// Every violation of the schema by `json` (text), as `path: problem`; empty when it validates.
    public func violations(of json: String) throws -> [String] {
        let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
        var problems: [String] = []
        check(value, against: schema, at: "$", problems: &problems)
        return problems
    }

    private func resolve(_ schema: [String: Any]) -> [String: Any] {
        guard let reference = schema["$ref"] as? String, reference.hasPrefix("#/$defs/") else { return schema }
        let name = String(reference.dropFirst("#/$defs/".count))
        return (self.schema["$defs"] as? [String: Any])?[name] as? [String: Any] ?? [:]
    }

    private func typeName(_ value: Any) -> String {
        if value is NSNull { return "null" }
        if let number = value as? NSNumber {
            if String(describing: type(of: number)).contains("Boolean") { return "boolean" }
            return number.doubleValue == number.doubleValue.rounded() ? "integer" : "number"
        }
        if value is String { return "string" }
        if value is [Any] { return "array" }
        if value is [String: Any] { return "object" }
        return "unknown"
    }

    /// Equality of two scalar JSON values (type and text).
    private func same(_ lhs: Any, _ rhs: Any) -> Bool {
        typeName(lhs) == typeName(rhs) && "\(lhs)" == "\(rhs)"
    }

    private func check(_ value: Any, against raw: [String: Any], at path: String, problems: inout [String]) {
        let schema = resolve(raw)
        let type = typeName(value)
        if let expected = schema["type"] {
            let allowed = (expected as? [String]) ?? [(expected as? String) ?? ""]
            let matches = allowed.contains(type) || (type == "integer" && allowed.contains("number"))
            if !matches {
                problems.append("\(path): \(type) is not \(allowed.joined(separator: "|"))")
                return
            }
        }
        if let constant = schema["const"], !same(constant, value) {
            problems.append("\(path): \(value) is not \(constant)")
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { same($0, value) }) {
            problems.append("\(path): \(value) is not one of \(options)")
        }
        if let string = value as? String {
            if let minimum = schema["minLength"] as? Int, string.count < minimum {
                problems.append("\(path): shorter than \(minimum)")
            }
            if let pattern = schema["pattern"] as? String,
                string.range(of: pattern, options: .regularExpression) == nil
            {
                problems.append("\(path): \(string) does not match \(pattern)")
            }
        }
        if type == "integer" || type == "number", let number = value as? NSNumber,
            let minimum = schema["minimum"] as? NSNumber, number.doubleValue < minimum.doubleValue
        {
            problems.append("\(path): \(number) < \(minimum)")
        }
        if let object = value as? [String: Any] {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(path): missing \(key)")
            }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                if let property = properties[key] as? [String: Any] {
                    check(member, against: property, at: "\(path).\(key)", problems: &problems)
                } else if schema["additionalProperties"] as? Bool == false {
                    problems.append("\(path): unexpected key \(key)")
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, element) in array.enumerated() {
                check(element, against: items, at: "\(path)[\(index)]", problems: &problems)
            }
        }
    }
}
