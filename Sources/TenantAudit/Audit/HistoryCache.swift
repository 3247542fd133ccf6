import Foundation

/// What `audit --history` computed, kept under the superproject's git directory (`tenantctl/history/`) and keyed by
/// commit ids only, so that it is never stale: a commit's pins, a (pin, general commit) pair's comparison and a
/// (pin, merge base) pair's lines never change. A second run over the same points reads the cache instead of the
/// trees, the graphs and the diffs: about the git processes of one plain audit. A line that does not parse is left
/// out (computed again); a cache that cannot be written costs the next run the time, nothing else.
struct HistoryCache: Sendable {
    static let header = "tenantctl-history-cache 1"

    /// The cache's directory for `workspace`.
    static func directory(_ workspace: Workspace) -> String { workspace.commonDirectory + "/tenantctl/history" }

    /// One module's comparisons and lines.
    struct Module: Sendable {
        var comparisons: [String: DatedComparison] = [:]
        var lines: [String: LineCount] = [:]
        var changed = false

        static func key(_ pin: String, _ other: String) -> String { pin + " " + other }
    }

    /// Superproject commit → module path → pin (`""`: no gitlink there).
    var pins: [String: [String: String]] = [:]
    var pinsChanged = false

    /// The superproject's pins from `directory` (empty when there is none yet).
    static func loadPins(_ directory: String) -> HistoryCache {
        var cache = HistoryCache()
        for fields in rows(directory + "/superproject.pins", count: 3) {
            cache.pins[fields[0], default: [:]][fields[1]] = fields[2] == "-" ? "" : fields[2]
        }
        return cache
    }

    /// A module's entries from `directory`.
    static func loadModule(_ name: String, directory: String) -> Module {
        var module = Module()
        let file = directory + "/module-" + hex(name)
        for fields in rows(file + ".pairs", count: 6) {
            guard let behind = Int(fields[2]), let ahead = Int(fields[3]) else { continue }
            let base = fields[4] == "-" ? nil : fields[4]
            module.comparisons[Module.key(fields[0], fields[1])] = DatedComparison(
                comparison: Comparison(ahead: ahead, behind: behind, mergeBase: base), oldestBehind: Int(fields[5]))
        }
        for fields in rows(file + ".lines", count: 4) {
            guard let added = Int(fields[2]), let removed = Int(fields[3]) else { continue }
            module.lines[Module.key(fields[0], fields[1])] = LineCount(added: added, removed: removed)
        }
        return module
    }

    /// Writes the superproject's pins when they changed.
    func savePins(_ directory: String) throws {
        guard pinsChanged else { return }
        var lines: [String] = []
        for (commit, paths) in pins {
            for (path, pin) in paths { lines.append("\(commit)\t\(path)\t\(pin.isEmpty ? "-" : pin)") }
        }
        try Self.write(lines, to: directory + "/superproject.pins")
    }

    /// Writes a module's entries when they changed.
    static func saveModule(_ name: String, _ module: Module, directory: String) throws {
        guard module.changed else { return }
        let file = directory + "/module-" + hex(name)
        try write(
            module.comparisons.map { key, value in
                let pair = key.replacingOccurrences(of: " ", with: "\t")
                let comparison = value.comparison
                return "\(pair)\t\(comparison.behind)\t\(comparison.ahead)\t\(comparison.mergeBase ?? "-")\t"
                    + (value.oldestBehind.map(String.init) ?? "-")
            }, to: file + ".pairs")
        try write(
            module.lines.map { key, value in
                "\(key.replacingOccurrences(of: " ", with: "\t"))\t\(value.added)\t\(value.removed)"
            }, to: file + ".lines")
    }

    /// The tab-separated rows of `path` with `count` fields, after the header; none when the file is missing or
    /// has another header.
    static func rows(_ path: String, count: Int) -> [[String]] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }  // no cache yet
        let lines = text.split(separator: "\n")
        guard lines.first == Substring(header) else { return [] }
        return lines.dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            .filter { $0.count == count }
    }

    static func write(_ lines: [String], to path: String) throws {
        let text = ([header] + lines.sorted()).joined(separator: "\n") + "\n"
        try DurableFile.write(Data(text.utf8), to: path)
    }

    /// A module name as a file name (its UTF-8 bytes in hex: any name, no separator).
    static func hex(_ name: String) -> String { name.utf8.map { String(format: "%02x", $0) }.joined() }
}
