/// tenantctl's JSON byte writer: JSON exactly as Foundation's `JSONEncoder` writes it with `.prettyPrinted`,
/// `.sortedKeys` and `.withoutEscapingSlashes` (`"key" : value`, each member and element on its own line, two spaces
/// per level, an empty object or array as `{` or `[`, an empty line and the closing bracket; `"` `\` and control
/// characters escaped, everything else as UTF-8). For the large documents (the audit report, the run journal), where
/// `JSONEncoder` costs tens of milliseconds each time; their tests compare the bytes with `JSONEncoder`'s. The String
/// Catalog compose writes has the same layout, with its strings escaped as the other files compose writes.
///
/// The writer keeps the nesting: ``object(_:)`` and ``array(_:_:)`` open a level, ``key(_:)`` and the `member`
/// functions write the separator, the new line and the indentation before a member. The caller writes the keys in
/// sorted order, as `JSONEncoder` sorts them.
package struct JSONBytes {
    package private(set) var bytes: [UInt8] = []
    /// The depth of the object or array being written (0: the top level).
    package private(set) var level: Int
    /// Whether the object or array being written has no member or element yet (none is preceded by `,`).
    private var empty = true

    /// How strings are escaped: as `JSONEncoder` does, or as another format (a file Xcode reads in the same layout).
    package let format: JSONString.Format

    /// A writer whose top-level value stands at `level` (its lines indented as at that depth): for a part of a
    /// larger document written on its own, joined with ``array(joining:)``.
    package init(capacity: Int = 1 << 16, level: Int = 0, strings format: JSONString.Format = .encoder) {
        bytes.reserveCapacity(capacity)
        self.level = level
        self.format = format
    }

    // MARK: Values

    package mutating func string(_ value: String) { JSONString.append(value, format, to: &bytes) }

    package mutating func int(_ value: Int) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))  // most counts are one digit
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    package mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    package mutating func null() { raw("null") }

    /// An object: `body` writes its members (``key(_:)`` or a `member` function each).
    package mutating func object(_ body: (inout JSONBytes) -> Void) {
        open("{")
        body(&self)
        close("}")
    }

    /// An array of `elements`, each written by `body` on its own line.
    package mutating func array<Elements: Sequence>(
        _ elements: Elements, _ body: (inout JSONBytes, Elements.Element) -> Void
    ) {
        open("[")
        for element in elements {
            nextLine()
            body(&self, element)
        }
        close("]")
    }

    package mutating func strings(_ values: [String]) { array(values) { $0.string($1) } }

    /// An array of elements written apart (each by a writer made with `level: level + 1`, say on other threads),
    /// joined in order: the bytes ``array(_:_:)`` writes for them.
    package mutating func array(joining elements: [[UInt8]]) {
        bytes.reserveCapacity(bytes.count + elements.reduce(0) { $0 + $1.count + 2 * level + 4 } + 64)
        array(elements) { $0.bytes.append(contentsOf: $1) }
    }

    /// ``array(joining:)`` for elements that come in parts, with the document handed on as it is written: `next`
    /// gives the next part's elements (nil: none left); after each part, the bytes written so far go to `flush` and
    /// are dropped here. The bytes are those of ``array(joining:)`` for all the parts' elements; a large document
    /// never has to be whole in memory (nor its elements and their join at the same time).
    package mutating func array(joiningParts next: () -> [[UInt8]]?, flush: ([UInt8]) -> Void) {
        open("[")
        while let part = next() {
            for element in part {
                nextLine()
                bytes.append(contentsOf: element)
            }
            flush(takeBytes())
        }
        close("]")
    }

    /// The bytes written so far, removed from the writer, which stays where it is in the document (the rest follows
    /// in ``bytes`` from here on).
    package mutating func takeBytes() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        return taken
    }

    /// A value whose bytes `write` appends itself, at this writer's level and in its layout (a template of fixed
    /// bytes with the values between them, for a value written many times); the writer's nesting is unchanged.
    package mutating func written(_ write: (inout [UInt8]) -> Void) { write(&bytes) }

    // MARK: Members

    /// `"name" : ` on a new line (after a `,` unless it is the object's first member): the value follows.
    package mutating func key(_ name: StaticString) {
        nextLine()
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        raw("\" : ")
    }

    /// A key that is data (a string table's key, a language), escaped as any string.
    package mutating func key(string name: String) {
        nextLine()
        string(name)
        raw(" : ")
    }

    /// `"name" : value`; a nil is written as `null` (as `JSONEncoder`'s `encode`).
    package mutating func member<Value: JSONBytesValue>(_ name: StaticString, _ value: Value) {
        key(name)
        value.write(to: &self)
    }

    /// The member when `value` is set, none when it is nil (as `JSONEncoder`'s `encodeIfPresent`).
    package mutating func member<Value: JSONBytesValue>(_ name: StaticString, ifPresent value: Value?) {
        if let value { member(name, value) }
    }

    // MARK: Layout

    private mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func open(_ bracket: StaticString) {
        raw(bracket)
        level += 1
        empty = true
    }

    /// The end of an object or array; an empty one has an empty line inside.
    private mutating func close(_ bracket: StaticString) {
        if empty { bytes.append(UInt8(ascii: "\n")) }
        level -= 1
        newLine()
        raw(bracket)
        // The object or array is a member or element of the one it stands in, which is therefore not empty.
        empty = false
    }

    /// `,` unless this is the first member or element, then ``newLine()``.
    private mutating func nextLine() {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        newLine()
    }

    /// A new line and the indentation of the current level.
    private mutating func newLine() {
        bytes.append(UInt8(ascii: "\n"))
        let count = 2 * level
        if count <= Self.blanks.count {
            bytes.append(contentsOf: Self.blanks[0..<count])
        } else {
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
        }
    }

    private static let blanks = [UInt8](repeating: UInt8(ascii: " "), count: 32)
}

/// A value ``JSONBytes`` writes in one call, as the value of a `member`.
package protocol JSONBytesValue {
    func write(to json: inout JSONBytes)
}

extension String: JSONBytesValue {
    package func write(to json: inout JSONBytes) { json.string(self) }
}

extension Int: JSONBytesValue {
    package func write(to json: inout JSONBytes) { json.int(self) }
}

extension Bool: JSONBytesValue {
    package func write(to json: inout JSONBytes) { json.bool(self) }
}

/// The wrapped value, or `null`.
extension Optional: JSONBytesValue where Wrapped: JSONBytesValue {
    package func write(to json: inout JSONBytes) {
        if let self { self.write(to: &json) } else { json.null() }
    }
}

extension Array: JSONBytesValue where Element == String {
    package func write(to json: inout JSONBytes) { json.strings(self) }
}
