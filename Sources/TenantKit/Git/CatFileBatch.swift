import Foundation

/// One object read through `git cat-file --batch`.
public struct GitObject: Sendable, Equatable {
    /// Object id.
    public var id: String
    /// `blob`, `tree`, `commit` or `tag`.
    public var type: String
    /// Raw contents.
    public var data: [UInt8]

    /// The contents as UTF-8 text.
    public var text: String { String(decoding: data, as: UTF8.self) }
}

/// Reads many objects with one `git cat-file --batch` process.
///
/// Requests are object names (`<oid>`, `<rev>:<path>`); a name that does not resolve gives `nil`.
/// Reads interleave with writes, so a caller can decide what to ask next from what it read.
public final class CatFileBatch: @unchecked Sendable {
    private let process: GitProcess

    /// Starts `git cat-file --batch` in `repository`.
    public init(git: Git, repository: String) throws(GitError) {
        process = try git.spawn(["cat-file", "--batch"], in: repository, context: "read objects in \(repository)")
    }

    /// Reads one object; nil when the name does not resolve (missing, ambiguous).
    public func object(_ name: String) throws(GitError) -> GitObject? {
        try request(name)
        return try response(for: name)
    }

    /// Reads many objects: one answer per name, in order. Requests are written while answers are read.
    public func objects(_ names: [String]) throws(GitError) -> [GitObject?] {
        guard !names.isEmpty else { return [] }
        // Write in chunks small enough that git's output for them cannot fill both pipes.
        var results: [GitObject?] = []
        results.reserveCapacity(names.count)
        let chunk = 64
        var index = 0
        while index < names.count {
            let slice = names[index..<min(index + chunk, names.count)]
            var request = ""
            for name in slice { request += try Self.checked(name) + "\n" }
            try process.write(request)
            for name in slice { results.append(try response(for: name)) }
            index += chunk
        }
        return results
    }

    private static func checked(_ name: String) throws(GitError) -> String {
        guard !name.contains("\n"), !name.isEmpty else {
            throw GitError(
                context: "read objects", kind: .unparseableOutput(detail: "object name with a line break"), command: [],
                directory: nil, stderr: "")
        }
        return name
    }

    private func request(_ name: String) throws(GitError) {
        try process.write(Self.checked(name) + "\n")
    }

    private func response(for name: String) throws(GitError) -> GitObject? {
        guard let header = process.readLine() else {
            throw process.failure(detail: "no answer for \(name)")
        }
        if header.hasSuffix(" missing") || header.hasSuffix(" ambiguous") || header.hasSuffix(" dangling")
            || header.hasSuffix(" loop") || header.hasSuffix(" notdir")
        {
            return nil
        }
        let fields = header.split(separator: " ")
        guard fields.count == 3, let size = Int(fields[2]) else {
            if header.hasPrefix("symlink ") || header.hasPrefix("dangling ") || header.hasPrefix("notdir ") {
                _ = process.readLine()
                return nil
            }
            throw process.failure(detail: "unexpected header \(header)")
        }
        guard let data = process.read(count: size), process.read(count: 1) == [UInt8(ascii: "\n")] else {
            throw process.failure(detail: "object \(fields[0]) ended early")
        }
        return GitObject(id: String(fields[0]), type: String(fields[1]), data: data)
    }

    /// Ends the process.
    public func close() throws(GitError) {
        try process.finish()
    }
}
