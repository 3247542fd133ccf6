import Foundation

/// How one output file compares with the directory, or what writing did to it.
public struct ComposeFileState: Sendable, Equatable, Codable {
    /// The state of a file.
    public enum State: String, Sendable, Equatable, Codable {
        /// Identical on disk (nothing to do).
        case unchanged
        /// On disk with other content (`--check`: stale).
        case stale
        /// Not on disk (`--check`: stale).
        case missing
        /// On disk but not part of the output (`--check`: stale; writing removes it).
        case extra
        /// Written (new or changed).
        case written
        /// Removed because compose no longer writes it.
        case removed
    }

    /// Relative path.
    public var path: String
    /// The state.
    public var state: State

    /// Creates a file state.
    public init(path: String, state: State) {
        self.path = path
        self.state = state
    }
}

/// The output directory: compared with a plan, or replaced by it atomically.
///
/// The directory belongs to compose (it holds ``ComposePlan/marker``): writing builds the complete new directory next
/// to it and swaps it in with renames, so a reader sees the old or the new files, never a mix, and a failure leaves
/// the old directory as it was. A non-empty directory without the marker is refused, never replaced.
public enum ComposeOutput {
    /// Compares `plan` with `directory` without writing anything.
    public static func compare(_ plan: ComposePlan, with directory: String) throws(ComposeError) -> [ComposeFileState] {
        let existing = try listing(directory)
        var states: [ComposeFileState] = []
        for path in plan.paths {
            let content = plan.files[path] ?? Data()
            guard let url = existing[path] else {
                states.append(ComposeFileState(path: path, state: .missing))
                continue
            }
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw ComposeError(.output, "cannot read \(url.path): \(error.localizedDescription)")
            }
            states.append(ComposeFileState(path: path, state: data == content ? .unchanged : .stale))
        }
        for path in existing.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        where plan.files[path] == nil {
            states.append(ComposeFileState(path: path, state: .extra))
        }
        return states
    }

    /// Writes `plan` to `directory` unless it is already up to date; returns what changed (every file
    /// `unchanged` when nothing was written).
    public static func write(_ plan: ComposePlan, to directory: String) throws(ComposeError) -> [ComposeFileState] {
        let before = try compare(plan, with: directory)
        if before.allSatisfy({ $0.state == .unchanged }) { return before }
        let fileManager = FileManager.default
        let target = URL(fileURLWithPath: directory).standardizedFileURL
        let parent = target.deletingLastPathComponent()
        let exists = try checkReplaceable(target)
        do {
            try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw ComposeError(.output, "cannot create \(parent.path): \(error.localizedDescription)")
        }
        let token = UUID().uuidString.prefix(8)
        let staging = parent.appendingPathComponent(".\(target.lastPathComponent).compose-\(token)")
        let old = parent.appendingPathComponent(".\(target.lastPathComponent).old-\(token)")
        do {
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: false)
            for path in plan.paths {
                let url = staging.appendingPathComponent(path)
                try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try (plan.files[path] ?? Data()).write(to: url)
            }
        } catch {
            try? fileManager.removeItem(at: staging)  // best effort: the target is untouched either way
            throw ComposeError(
                .output, "cannot write the new files next to \(target.path): \(error.localizedDescription)")
        }
        do {
            if exists { try fileManager.moveItem(at: target, to: old) }
        } catch {
            try? fileManager.removeItem(at: staging)
            throw ComposeError(.output, "cannot replace \(target.path): \(error.localizedDescription)")
        }
        do {
            try fileManager.moveItem(at: staging, to: target)
        } catch {
            let restored = !exists || (try? fileManager.moveItem(at: old, to: target)) != nil
            try? fileManager.removeItem(at: staging)
            throw ComposeError(
                .output,
                "cannot move the new files to \(target.path): \(error.localizedDescription)"
                    + (restored ? "" : "; the previous files are in \(old.path)"))
        }
        if exists {
            do {
                try fileManager.removeItem(at: old)
            } catch {
                throw ComposeError(
                    .output,
                    "wrote \(target.path), but cannot remove the previous files in \(old.path): "
                        + error.localizedDescription)
            }
        }
        return before.compactMap { state in
            switch state.state {
            case .unchanged: return state
            case .stale, .missing, .written: return ComposeFileState(path: state.path, state: .written)
            case .extra, .removed: return ComposeFileState(path: state.path, state: .removed)
            }
        }
    }

    /// Whether `target` exists; throws when it must not be replaced.
    static func checkReplaceable(_ target: URL) throws(ComposeError) -> Bool {
        let fileManager = FileManager.default
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try fileManager.attributesOfItem(atPath: target.path)
        } catch {
            if !fileManager.fileExists(atPath: target.path) { return false }
            throw ComposeError(.output, "cannot inspect \(target.path): \(error.localizedDescription)")
        }
        guard attributes[.type] as? FileAttributeType == .typeDirectory else {
            throw ComposeError(.output, "refusing to write to \(target.path): it is not a directory")
        }
        let contents: [String]
        do {
            contents = try fileManager.contentsOfDirectory(atPath: target.path)
        } catch {
            throw ComposeError(.output, "cannot list \(target.path): \(error.localizedDescription)")
        }
        if !contents.isEmpty && !contents.contains(ComposePlan.marker) {
            throw ComposeError(
                .output,
                "refusing to replace \(target.path): it is not empty and was not written by tenantctl compose "
                    + "(no \(ComposePlan.marker)); choose an empty or new directory with --out")
        }
        return true
    }

    /// Relative path → URL of every file under `directory` (empty when it does not exist).
    static func listing(_ directory: String) throws(ComposeError) -> [String: URL] {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: directory, isDirectory: &isDirectory) else { return [:] }
        guard isDirectory.boolValue else {
            throw ComposeError(.output, "\(directory) is not a directory")
        }
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        var result: [String: URL] = [:]
        func walk(_ url: URL, _ prefix: String) throws {
            for name in try fileManager.contentsOfDirectory(atPath: url.path) {
                let child = url.appendingPathComponent(name)
                let relative = prefix.isEmpty ? name : "\(prefix)/\(name)"
                let type = try fileManager.attributesOfItem(atPath: child.path)[.type] as? FileAttributeType
                if type == .typeDirectory {
                    try walk(child, relative)
                } else {
                    result[relative] = child
                }
            }
        }
        do {
            try walk(root, "")
        } catch {
            throw ComposeError(.output, "cannot list \(directory): \(error.localizedDescription)")
        }
        return result
    }
}
