import ArgumentParser
import Foundation
import TenantKit

/// Shell completion of tenant and module names (`CompletionKind.custom`): the shell calls
/// `tenantctl ---completion …` and gets the names from the working tree of the superproject around the current
/// directory (or `-C <dir>` on the command line). Reads `Tenants/*.json` file names and `modules.json`; runs no
/// git, so it answers at once and never fails (no workspace: no names).
enum NameCompletion {
    /// Completion kind for a tenant id (and, with `general`, the general branch too).
    static func tenants(general: Bool = false) -> CompletionKind {
        .custom { words, _, prefix in
            let directory = Self.directory(in: words)
            var names = tenantNames(in: directory)
            if general, !names.isEmpty { names.insert(generalBranch(in: directory), at: 0) }
            return names.filter { $0.hasPrefix(prefix) }
        }
    }

    /// Completion kind for a module name.
    static var modules: CompletionKind {
        .custom { words, _, prefix in moduleNames(in: directory(in: words)).filter { $0.hasPrefix(prefix) } }
    }

    /// The directory named by `-C <dir>` on the command line being completed, else the current directory.
    static func directory(in words: [String]) -> String {
        let current = FileManager.default.currentDirectoryPath
        guard let index = words.firstIndex(of: "-C"), index + 1 < words.count else { return current }
        return URL(fileURLWithPath: words[index + 1], relativeTo: URL(fileURLWithPath: current, isDirectory: true))
            .standardizedFileURL.path
    }

    /// The tenant ids of the superproject around `directory`: its `Tenants/*.json` file names, sorted.
    static func tenantNames(in directory: String) -> [String] {
        guard let root = Workspace.findRoot(from: directory) else { return [] }
        let tenants = (root as NSString).appendingPathComponent(ProjectReader.tenantsDirectory)
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: tenants) else { return [] }
        return files.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The module names in `modules.json` of the superproject around `directory`, in file order.
    static func moduleNames(in directory: String) -> [String] {
        guard let manifest = self.manifest(in: directory), let modules = manifest["modules"] as? [Any] else {
            return []
        }
        return modules.compactMap { ($0 as? [String: Any])?["name"] as? String }
    }

    /// `generalBranch` of `modules.json`, else the default.
    static func generalBranch(in directory: String) -> String {
        manifest(in: directory)?["generalBranch"] as? String ?? ModuleManifest.defaultGeneralBranch
    }

    private static func manifest(in directory: String) -> [String: Any]? {
        guard let root = Workspace.findRoot(from: directory),
            let data = FileManager.default.contents(
                atPath: (root as NSString).appendingPathComponent(ProjectReader.manifestPath))
        else { return nil }
        // A completion offers nothing for a file it cannot read; verify reports the file itself.
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}
