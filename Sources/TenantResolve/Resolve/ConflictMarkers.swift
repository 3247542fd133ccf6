import Foundation

/// Conflict markers left in files of a working tree after a merge.
enum ConflictMarkers {
    /// Which of `files` (relative to `path`) still hold a conflict marker line (`<<<<<<< ` or `>>>>>>> `, git's
    /// default marker size, at the start of a line) or cannot be read. Missing files and directories (a gitlink) hold
    /// none.
    static func files(_ files: [String], in path: String) -> [String] {
        files.filter { file in
            let full = (path as NSString).appendingPathComponent(file)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue
            else { return false }
            // A file that cannot be read cannot be shown free of markers: it is named (fail closed).
            guard let data = FileManager.default.contents(atPath: full) else { return true }
            return hasMarkers(data)
        }
    }

    /// Rewrites the `>>>>>>> <commit>` marker lines git wrote into `files` (relative to `path`) when it merged the
    /// commit id `commit` to say `>>>>>>> <label>`, as git says when it merges a branch by name (`general_dev`, not
    /// `d3106ea…`). Only lines that start with the marker and the full commit id are changed (a rename's
    /// `<commit>:<path>` keeps its path); files without such a line, and paths that are no regular file, are left
    /// untouched.
    static func label(_ files: [String], in path: String, commit: String, as label: String) throws {
        let from = Array((">>>>>>> " + commit).utf8)
        let to = Array((">>>>>>> " + label).utf8)
        for file in files {
            let full = (path as NSString).appendingPathComponent(file)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                let data = FileManager.default.contents(atPath: full)
            else { continue }
            let bytes = [UInt8](data)
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            var start = 0
            var changed = false
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != 10 { end += 1 }
                let line = bytes[start..<min(end + 1, bytes.count)]
                let after = start + from.count
                if line.starts(with: from), after >= bytes.count || [10, 13, 58].contains(bytes[after]) {
                    output += to
                    output += bytes[after..<min(end + 1, bytes.count)]
                    changed = true
                } else {
                    output += line
                }
                start = end + 1
            }
            if changed { try Data(output).write(to: URL(fileURLWithPath: full)) }
        }
    }

    /// Whether `data` has a line starting with seven `<` or seven `>` followed by a space or the end of the line.
    static func hasMarkers(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 10 { end += 1 }
            if end - start >= 7 {
                let first = bytes[start]
                if first == 60 || first == 62 {  // "<" or ">"
                    let run = bytes[start..<start + 7].allSatisfy { $0 == first }
                    let next = start + 7 < end ? bytes[start + 7] : 10
                    if run && (next == 32 || next == 10 || next == 13) { return true }
                }
            }
            start = end + 1
        }
        return false
    }
}
