import Foundation

/// Where a module is on a superproject commit that does not have it at the path `modules.json` gives: a module
/// whose submodule moved (`git mv plugins/x deps/x/src`) is the same module on the older branches, at its old path.
///
/// A module is found by its identity: its submodule name in `.gitmodules` of the reference commit (the general
/// branch, whose `modules.json` gives today's path), then its URL. On a commit without a gitlink at today's path,
/// the commit's own `.gitmodules` entry of that submodule name (else of that URL, when exactly one entry has it)
/// gives the path, and the gitlink there is the module's pin.
public enum ModuleLocator {
    /// A module found at another path than today's.
    public struct Location: Sendable, Equatable {
        /// The path the commit has the module at.
        public var path: String
        /// The gitlink there.
        public var pin: String

        public init(path: String, pin: String) {
            self.path = path
            self.pin = pin
        }
    }

    /// Commit → module name → location, for every commit of `pins` (commit → path → pinned commit, as
    /// ``PinReader/pins(of:paths:batch:)`` read them at today's paths) that has no gitlink at a module's path but has
    /// the module elsewhere. `reference`: the commit whose `.gitmodules` names the modules (the general branch).
    ///
    /// git processes: none when every commit pins every module at its path; otherwise requests on `batch` (the
    /// `.gitmodules` of the reference and of those commits, the trees of the old paths) and one `config --blob` per
    /// distinct `.gitmodules` among them — per version of the file, not per commit.
    public static func moved(
        modules: [Module], pins: [String: [String: String]], reference: String, batch: CatFileBatch,
        repository: GitRepository
    ) throws -> [String: [String: Location]] {
        var missing: [String: [Module]] = [:]
        for (commit, paths) in pins {
            let absent = modules.filter { paths[$0.path] == nil }
            if !absent.isEmpty { missing[commit] = absent }
        }
        guard !missing.isEmpty else { return [:] }
        let commits = missing.keys.sorted()
        let files = try repository.gitmodules(at: [reference] + commits, batch: batch)
        // Today's path → submodule name, once (not per commit and module).
        let names = files[0]?.namesByPath ?? [:]
        var candidates: [String: [String: String]] = [:]  // commit → module name → path
        for (offset, commit) in commits.enumerated() {
            let there = files[offset + 1]?.entries ?? []
            for module in missing[commit] ?? [] {
                if let path = path(of: module, submoduleName: names[module.path], in: there), path != module.path {
                    candidates[commit, default: [:]][module.name] = path
                }
            }
        }
        guard !candidates.isEmpty else { return [:] }
        let paths = Set(candidates.values.flatMap(\.values)).sorted()
        let found = try PinReader.pins(of: candidates.keys.sorted(), paths: paths, batch: batch)
        var result: [String: [String: Location]] = [:]
        for (commit, located) in candidates {
            for (module, path) in located {
                if let pin = found[commit]?[path] {
                    result[commit, default: [:]][module] = Location(path: path, pin: pin)
                }
            }
        }
        return result
    }

    /// The path `entries` (one commit's `.gitmodules`) give `module`: the one rule of
    /// ``Gitmodules/locate(name:urls:sameURL:)`` (its submodule name, else the one entry with its URL),
    /// URLs compared without a trailing `/` or `.git`; nil when there is none or several.
    public static func path(of module: Module, submoduleName: String?, in entries: [GitmodulesEntry]) -> String? {
        Gitmodules(entries: entries).locate(
            name: submoduleName, urls: [module.url], sameURL: { comparable($0) == comparable($1) }
        )?.path
    }

    /// A URL without trailing `/` and `.git`: `…/libfoo.git` and `…/libfoo/` name one repository.
    static func comparable(_ url: String) -> String {
        var text = Substring(url)
        while text.hasSuffix("/") { text = text.dropLast() }
        if text.hasSuffix(".git") { text = text.dropLast(4) }
        while text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }
}
