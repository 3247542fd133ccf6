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
