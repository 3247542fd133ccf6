import Foundation
import TenantKit

/// A `git fast-import` stream under construction: commits with inline blobs and gitlinks, one mark per commit,
/// `get-mark` after each commit so the importer prints the commit ids in mark order.
struct FastImportStream {
    /// A change of one path.
    enum Change {
        case blob(String)
        case gitlink(String)
        case delete
    }

    private(set) var data = Data()
    /// The number of commits (= marks) written so far.
    private(set) var marks = 0

    static func changes(_ files: [String: String?]) -> [(String, Change)] {
        files.sorted { $0.key < $1.key }.map { path, content in (path, content.map(Change.blob) ?? .delete) }
    }

    /// Appends a commit on `refs/heads/<ref>`; returns its mark.
    mutating func commit(
        ref: String, parent: Int?, parentRef: String? = nil, time: Int, message: String, changes: [(String, Change)]
    ) -> Int {
        marks += 1
        let mark = marks
        append("commit refs/heads/\(ref)\nmark :\(mark)\n")
        append("author \(ExampleBuilder.identity) \(time) +0000\n")
        append("committer \(ExampleBuilder.identity) \(time) +0000\n")
        appendData(message.hasSuffix("\n") ? message : message + "\n")
        if let parent {
            append("from :\(parent)\n")
        } else if let parentRef {
            append("from \(parentRef)\n")
        }
        for (path, change) in changes {
            switch change {
            case .blob(let content):
                append("M 100644 inline \(Self.quote(path))\n")
                appendData(content)
            case .gitlink(let id):
                append("M 160000 \(id) \(Self.quote(path))\n")
            case .delete:
                append("D \(Self.quote(path))\n")
            }
        }
        append("\nget-mark :\(mark)\n")
        return mark
    }

    /// Points `refs/heads/<ref>` at the commit with `mark`.
    mutating func reset(ref: String, to mark: Int) {
        append("reset refs/heads/\(ref)\nfrom :\(mark)\n\n")
    }

    /// The stream with its terminating `done`.
    func finished() -> Data {
        var copy = data
        copy.append(contentsOf: Array("done\n".utf8))
        return copy
    }

    private mutating func append(_ text: String) { data.append(contentsOf: Array(text.utf8)) }

    private mutating func appendData(_ text: String) {
        let bytes = Array(text.utf8)
        append("data \(bytes.count)\n")
        data.append(contentsOf: bytes)
        append("\n")
    }

    /// A path as fast-import reads it: C-style quoted when it starts with `"` or contains a space or control
    /// character.
    static func quote(_ path: String) -> String {
        let needsQuoting = path.hasPrefix("\"") || path.unicodeScalars.contains { $0 == " " || $0.value < 0x20 }
        guard needsQuoting else { return path }
        return Backslashed.quoted(path) { scalar in
            scalar.value < 0x20 ? String(format: "\\%03o", scalar.value) : nil
        }
    }
}
