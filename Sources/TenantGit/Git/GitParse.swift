import Foundation

/// One entry of a tree.
public struct TreeEntry: Sendable, Hashable {
    /// Octal mode as git writes it (`100644`, `40000`, `160000`).
    public var mode: String
    /// Entry name (one path component).
    public var name: String
    /// Object id (hex).
    public var id: String

    /// True for a submodule pin (gitlink).
    public var isGitlink: Bool { mode == "160000" }
    /// True for a subdirectory.
    public var isTree: Bool { mode == "40000" || mode == "040000" }
}

/// Pure parsers for git's machine formats.
public enum GitParse {
    static let hexDigits = Array("0123456789abcdef".utf8)

    /// Hex text of raw object id bytes.
    static func hex<C: Collection<UInt8>>(_ bytes: C) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses a raw tree object (`<mode> SP <name> NUL <raw id>` repeated), as `cat-file --batch` returns it.
    /// - Parameter idLength: 20 for SHA-1 repositories, 32 for SHA-256.
    public static func treeObject(_ data: [UInt8], idLength: Int = 20) -> [TreeEntry]? {
        var entries: [TreeEntry] = []
        var index = 0
        while index < data.count {
            guard let space = data[index...].firstIndex(of: UInt8(ascii: " ")),
                let nul = data[space...].firstIndex(of: 0), nul + idLength < data.count + 1
            else { return nil }
            let mode = String(decoding: data[index..<space], as: UTF8.self)
            let name = String(decoding: data[(space + 1)..<nul], as: UTF8.self)
            let idEnd = nul + 1 + idLength
            guard idEnd <= data.count else { return nil }
            entries.append(TreeEntry(mode: mode, name: name, id: hex(data[(nul + 1)..<idEnd])))
            index = idEnd
        }
        return entries
    }

    /// The gitlinks of a raw tree object: entry name → pinned commit (the first entry of a name), the entries of
    /// ``treeObject(_:idLength:)`` whose mode is `160000`; nil when ``treeObject(_:idLength:)`` rejects the data.
    /// No String for the other entries: the audit reads the module directory of 1000 tenant branches.
    public static func treeGitlinks(_ data: [UInt8], idLength: Int = 20) -> [String: String]? {
        data.withUnsafeBufferPointer { bytes -> [String: String]? in
            let count = bytes.count
            var gitlinks: [String: String] = [:]
            var index = 0
            while index < count {
                var space = index
                while space < count && bytes[space] != UInt8(ascii: " ") { space += 1 }
                guard space < count else { return nil }
                var nul = space
                while nul < count && bytes[nul] != 0 { nul += 1 }
                let idEnd = nul + 1 + idLength
                guard nul < count, idEnd <= count else { return nil }
                // "160000": a gitlink's mode.
                let isGitlink =
                    space - index == 6 && bytes[index] == UInt8(ascii: "1") && bytes[index + 1] == UInt8(ascii: "6")
                    && bytes[index + 2] == UInt8(ascii: "0") && bytes[index + 3] == UInt8(ascii: "0")
                    && bytes[index + 4] == UInt8(ascii: "0") && bytes[index + 5] == UInt8(ascii: "0")
                if isGitlink {
                    let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(space + 1)..<nul]), as: UTF8.self)
                    if gitlinks[name] == nil {
                        gitlinks[name] = hex(UnsafeBufferPointer(rebasing: bytes[(nul + 1)..<idEnd]))
                    }
                }
                index = idEnd
            }
            return gitlinks
        }
    }

    /// Parses `git ls-tree -z` output: `<mode> SP <type> SP <id> TAB <path> NUL`.
    public static func lsTree(_ data: Data) -> [(entry: TreeEntry, path: String)]? {
        var result: [(entry: TreeEntry, path: String)] = []
        for record in data.split(separator: 0, omittingEmptySubsequences: true) {
            guard let tab = record.firstIndex(of: UInt8(ascii: "\t")) else { return nil }
            let fields = record[record.startIndex..<tab].split(separator: UInt8(ascii: " "))
            guard fields.count == 3 else { return nil }
            let path = String(decoding: record[(tab + 1)...], as: UTF8.self)
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let entry = TreeEntry(
                mode: String(decoding: fields[0], as: UTF8.self), name: name,
                id: String(decoding: fields[2], as: UTF8.self))
            result.append((entry, path))
        }
        return result
    }

    /// Parses `for-each-ref --format=%(refname)%00%(objectname)` output into a map ref → id.
    public static func refs(_ text: String) -> [String: String]? {
        refs(bytes: Data(text.utf8))
    }

    /// ``refs(_:)`` on git's bytes in one pass: per ref one String for the name and one for the id, nothing per
    /// line or field besides (50 mirrors of hundreds of tenant branches at 1000 × 50).
    public static func refs(bytes data: Data) -> [String: String]? {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> [String: String]? in
            let bytes = buffer.bindMemory(to: UInt8.self)
            let count = bytes.count
            var refs: [String: String] = [:]
            var start = 0
            while start < count {
                var end = start
                var nul = -1
                var nuls = 0
                while end < count && bytes[end] != UInt8(ascii: "\n") {
                    if bytes[end] == 0 {
                        nuls += 1
                        nul = end
                    }
                    end += 1
                }
                if end > start {  // empty lines are skipped
                    guard nuls == 1, nul > start, nul + 1 < end else { return nil }
                    refs[String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<nul]), as: UTF8.self)] = String(
                        decoding: UnsafeBufferPointer(rebasing: bytes[(nul + 1)..<end]), as: UTF8.self)
                }
                start = end + 1
            }
            return refs
        }
    }

    /// Parses `rev-list --parents` output: each line `<commit> <parent>…`.
    public static func parents(_ text: String) -> [(commit: String, parents: [String])] {
        text.split(separator: "\n").map { line in
            let ids = line.split(separator: " ").map(String.init)
            return (ids[0], Array(ids.dropFirst()))
        }
    }
}
