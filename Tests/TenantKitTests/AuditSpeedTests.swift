import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// The faster paths of `audit --no-fetch` (docs/PERFORMANCE.md) give what the plain ones gave: the gitlink reader on
/// real trees, the pins of many branches, and the work shared out over the cores in its order.
@Suite struct AuditSpeedTests {
    /// A superproject whose branches pin modules at `Modules/<name>` and at a top-level path, with a file and a
    /// directory next to the gitlinks; branch `t<i>` pins commit `i` of a module repository.
    static func superproject(_ sandbox: GitSandbox, branches: Int) throws -> (repository: String, module: [String]) {
        let module = try sandbox.makeRepository("module")
        var commits = [try sandbox.git(["rev-parse", "HEAD"], in: module)]
        for index in 1...3 { commits.append(try sandbox.commit(in: "module", file: "f", content: "\(index)\n")) }
        let sup = try sandbox.makeRepository("sup", files: ["Modules/README": "x\n", "Modules/Docs/a.txt": "a\n"])
        for index in 0..<branches {
            try sandbox.git(["checkout", "-q", "-b", "t\(index)", "main"], in: sup)
            for (offset, path) in ["Modules/Article", "Modules/Order", "Top"].enumerated() {
                let pin = commits[(index + offset) % commits.count]
                try sandbox.git(["update-index", "--add", "--cacheinfo", "160000,\(pin),\(path)"], in: sup)
            }
            try sandbox.git(["commit", "-q", "-m", "pins of t\(index)"], in: sup)
        }
        return (sup, commits)
    }

    @Test func treeGitlinksReadsTheGitlinksOfRealTrees() throws {
        let sandbox = try GitSandbox()
        let (sup, commits) = try Self.superproject(sandbox, branches: 2)
        let git = try sandbox.gitRunner()
        let batch = try CatFileBatch(git: git, repository: sup)
        defer { try? batch.close() }
        for name in ["t1:Modules", "t1^{tree}", "t0:Modules", "t0:Modules/Docs"] {
            let tree = try #require(try batch.object(name))
            let entries = try #require(GitParse.treeObject(tree.data))
            var expected: [String: String] = [:]
            for entry in entries where entry.isGitlink && expected[entry.name] == nil {
                expected[entry.name] = entry.id
            }
            #expect(GitParse.treeGitlinks(tree.data) == expected, "\(name)")
        }
        // Positive control: the trees hold gitlinks and other entries, and the reader tells them apart.
        let modules = try #require(try batch.object("t1:Modules"))
        #expect(GitParse.treeGitlinks(modules.data) == ["Article": commits[1], "Order": commits[2]])
        #expect(try #require(GitParse.treeObject(modules.data)).count == 4)  // Article, Docs, Order, README
        let root = try #require(try batch.object("t1^{tree}"))
        #expect(GitParse.treeGitlinks(root.data) == ["Top": commits[3]])
        // Not a tree: rejected like treeObject rejects it.
        for data: [UInt8] in [[1, 2, 3], Array(modules.data.dropLast()), Array("160000 x".utf8)] {
            #expect(GitParse.treeObject(data) == nil)
            #expect(GitParse.treeGitlinks(data) == nil)
        }
        #expect(GitParse.treeGitlinks([]) == [:])
    }

    @Test func pinReaderReadsThePinsOfManyBranches() throws {
        let sandbox = try GitSandbox()
        let (sup, _) = try Self.superproject(sandbox, branches: 12)
        let git = try sandbox.gitRunner()
        let branches = (0..<12).map { "t\($0)" }
        var tips: [String: String] = [:]
        for branch in branches { tips[branch] = try sandbox.git(["rev-parse", branch], in: sup) }
        let paths = ["Modules/Article", "Modules/Order", "Top", "Modules/README", "Modules/Missing", "Nowhere/X"]
        let batch = try CatFileBatch(git: git, repository: sup)
        let pins = try PinReader.pins(of: Array(tips.values) + [tips["t0"] ?? ""], paths: paths, batch: batch)
        try batch.close()
        #expect(pins.count == 12)
        for branch in branches {
            // ls-tree's listing of the same commit: the gitlinks only (the file Modules/README and the missing
            // paths have none).
            let expected = try sandbox.gitlinks(on: branch, in: sup)
            #expect(expected.count == 3)
            #expect(pins[tips[branch] ?? ""] == expected, "\(branch)")
        }
        let alone = try PinReader.pins(at: tips["t5"] ?? "", paths: paths, in: sup, git: git)
        #expect(alone == (try sandbox.gitlinks(on: "t5", in: sup)))
    }

    @Test func refsParserReadsForEachRefBytes() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("repo")
        for index in 0..<40 { try sandbox.git(["branch", "t\(index)"], in: repo) }
        try sandbox.git(["tag", "v1"], in: repo)
        let git = try sandbox.gitRunner()
        let output = try git.run(
            ["for-each-ref", "--format=%(refname)%00%(objectname)", "refs/heads/", "refs/tags/"], in: repo)
        let refs = try #require(GitParse.refs(bytes: output.stdout))
        #expect(refs == (try sandbox.refs(repo)).filter { $0.key.hasPrefix("refs/heads/") || $0.key == "refs/tags/v1" })
        #expect(refs.count == 42)
        #expect(try GitRefs.branches(under: "refs/heads/", in: repo, git: git, what: "repo").count == 41)
        // The text form and the byte form agree, malformed lines included.
        for text in [
            "refs/heads/a\0abc\nrefs/heads/b c\0def\n", "\n\nrefs/heads/a\0abc\n\n", "", "garbage", "a\0b\0c\n",
            "\0abc\n", "abc\0\n", "refs/heads/a\0abc\nbroken\n",
        ] {
            #expect(GitParse.refs(bytes: Data(text.utf8)) == GitParse.refs(text), "\(text.debugDescription)")
        }
        #expect(GitParse.refs(bytes: Data("\n\nrefs/heads/a\0abc\n\n".utf8)) == ["refs/heads/a": "abc"])
        #expect(GitParse.refs(bytes: Data("a\0b\0c\n".utf8)) == nil)
    }

    @Test(arguments: [1, 2, 3, 8])
    func chunkedMapKeepsTheOrder(jobs: Int) {
        for count in [0, 1, 31, 32, 64, 65, 100, 1001] {
            let items = Array(0..<count)
            let mapped = Concurrent.chunkedMap(items, jobs: jobs) { $0 * 3 + 1 }
            #expect(mapped == items.map { $0 * 3 + 1 }, "\(count) items, \(jobs) jobs")
        }
    }

    @Test func chunkedMapSharesTheWorkOutOverThreads() {
        let threads = Locked(Set<String>())
        let items = Array(0..<1000)
        let mapped = Concurrent.chunkedMap(items, jobs: 4) { item -> Int in
            let thread = "\(Unmanaged.passUnretained(Thread.current).toOpaque())"
            threads.withLock { _ = $0.insert(thread) }
            if item % 100 == 0 { usleep(2000) }  // keeps a chunk's thread alive while the next starts
            return item
        }
        #expect(mapped == items)
        #expect(threads.current.count > 1)
        // Positive control: one job runs on the calling thread alone.
        let single = Locked(Set<String>())
        _ = Concurrent.chunkedMap(items, jobs: 1) { item -> Int in
            single.withLock { _ = $0.insert("\(Unmanaged.passUnretained(Thread.current).toOpaque())") }
            return item
        }
        #expect(single.current.count == 1)
    }

    /// 200 tenant files, every seventh invalid, decoded on several threads: the tenants, the invalid files and their
    /// problems come in file order, as one file at a time gives them.
    @Test func loaderKeepsTheFileOrderOfManyTenants() throws {
        var files: [SourceFile] = []
        for index in 0..<200 {
            let id = "t\(String(format: "%03d", index))"
            let text =
                index % 7 == 3
                ? tenantJSON(id, modules: ["Infrastructure", "Nonexistent\(index)"])
                : tenantJSON(id, modules: ["Infrastructure", "Article"], customised: index % 2 == 0 ? ["Article"] : [])
            files.append(source("Tenants/\(id).json", text))
        }
        let manifest = source("modules.json", erpManifest())
        let project = try ProjectLoader.load(
            manifest: manifest, tenantFiles: files.reversed(), options: ValidationOptions(keepInvalidTenants: true))
        let invalidIndexes = (0..<200).filter { $0 % 7 == 3 }
        #expect(project.tenants.map(\.id) == (0..<200).filter { $0 % 7 != 3 }.map { "t\(String(format: "%03d", $0))" })
        #expect(project.invalidTenants.map(\.id) == invalidIndexes.map { "t\(String(format: "%03d", $0))" })
        for (invalid, index) in zip(project.invalidTenants, invalidIndexes) {
            #expect(invalid.problems.count == 1)
            #expect(invalid.problems.first?.description.contains("Nonexistent\(index)") == true)
        }
        // Every file alone gives the same tenant.
        for file in files.prefix(20) {
            let alone = try ProjectLoader.load(
                manifest: manifest, tenantFiles: [file], options: ValidationOptions(keepInvalidTenants: true))
            if let tenant = alone.tenants.first { #expect(project.tenant(id: tenant.id) == tenant) }
        }
        // Without keepInvalidTenants every problem is reported, in file order.
        var thrown: ManifestError?
        do {
            _ = try ProjectLoader.load(manifest: manifest, tenantFiles: files)
        } catch {
            thrown = error
        }
        let problems = try #require(thrown).problems
        #expect(problems.map(\.file) == invalidIndexes.map { "Tenants/t\(String(format: "%03d", $0)).json" })
    }

    /// The report of many tenants, made on several threads, is the tenants' reports one by one, in the given order.
    @Test func reportOfManyTenantsIsTheirReportsInOrder() throws {
        let manifest = source("modules.json", erpManifest())
        let files = (0..<150).map { index in
            source(
                "Tenants/t\(index).json",
                tenantJSON(
                    "t\(index)", modules: ["Infrastructure", "Article"],
                    customised: index % 3 == 0 ? ["Article"] : []))
        }
        let project = try ProjectLoader.load(manifest: manifest, tenantFiles: files)
        let general = String(repeating: "0", count: 40)
        func id(_ value: Int) -> String { String(format: "%040x", value) }
        var tips: [String: String] = [:]
        var pins: [String: [String: String]] = [:]
        var comparisons: [String: Comparison] = [:]
        for (index, tenant) in project.tenants.enumerated() where index % 11 != 5 {  // some branches missing
            tips[tenant.branch] = id(1000 + index)
            pins[tenant.branch] = ["Modules/Infrastructure": id(1), "Modules/Article": id(100 + index % 7)]
            comparisons[tenant.branch] = Comparison(ahead: index % 4, behind: index % 5, mergeBase: general)
        }
        let graph = try #require(CommitGraph(listing: ""))
        var moduleComparisons: [String: Comparison] = [:]
        var changed: [String: [String]] = [:]
        for offset in 0..<7 {
            moduleComparisons[id(100 + offset)] = Comparison(ahead: offset, behind: 1, mergeBase: id(1))
            changed[id(100 + offset)] = ["b\(offset).swift", "a\(offset).swift"]
        }
        let article = ModuleObservation(
            generalBranch: "general_dev", branches: ["general_dev": id(1), "t3": id(103)], graph: graph,
            pinsOnRemote: [id(1), id(100), id(103)], comparisons: moduleComparisons, changedFiles: changed)
        let infrastructure = ModuleObservation(
            generalBranch: "general_dev", branches: ["general_dev": id(1)], graph: graph, pinsOnRemote: [id(1)])
        let state = ProjectObservation(
            superproject: SuperprojectObservation(
                generalBranch: "general_dev", generalTip: general, tenantTips: tips, pins: pins,
                comparisons: comparisons),
            modules: ["Article": article, "Infrastructure": infrastructure], unreachable: ["Customer": "gone"])
        let report = Auditor.report(project: project, tenants: project.tenants, observation: state)
        #expect(report.tenants.count == 150)
        let oneByOne = project.tenants.flatMap {
            Auditor.report(project: project, tenants: [$0], observation: state).tenants
        }
        #expect(report.tenants == oneByOne)
        #expect(report.tenants.map(\.id) == project.tenants.map(\.id))
        // Positive control: the cells differ from tenant to tenant.
        #expect(Set(report.tenants.compactMap { $0.modules.first { $0.module == "Article" }?.ahead }).count > 1)
        #expect(report.tenants.contains { $0.modules.contains { $0.changedFiles == ["a3.swift", "b3.swift"] } })
    }
}
