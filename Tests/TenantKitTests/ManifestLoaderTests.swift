import Foundation
import TenantKit
import Testing

/// The repository root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// One ERP-like module entry as JSON.
func moduleJSON(_ name: String, path: String? = nil, url: String? = nil, dependsOn: [String] = []) -> String {
    let deps = dependsOn.map { "\"\($0)\"" }.joined(separator: ", ")
    return """
        { "name": "\(name)", "path": "\(path ?? "Modules/\(name)")", "url": "\(url ?? "../\(name).git")", \
        "dependsOn": [\(deps)] }
        """
}

/// The thesis' ERP example with optional replacements.
func erpManifest(generalBranch: String = "general_dev", extra: [String] = []) -> String {
    let modules =
        [
            moduleJSON("Infrastructure"),
            moduleJSON("Article", dependsOn: ["Infrastructure"]),
            moduleJSON("Customer", dependsOn: ["Infrastructure"]),
            moduleJSON("Order", dependsOn: ["Infrastructure", "Article", "Customer"]),
        ] + extra
    return """
        {
          "version": 1,
          "generalBranch": "\(generalBranch)",
          "modules": [
            \(modules.joined(separator: ",\n    "))
          ]
        }
        """
}

func tenantJSON(
    _ id: String, branch: String? = nil, modules: [String] = ["Infrastructure"], customised: [String] = []
) -> String {
    let list = { (names: [String]) in names.map { "\"\($0)\"" }.joined(separator: ", ") }
    let branchLine = branch.map { "\"branch\": \"\($0)\", " } ?? ""
    return """
        { "id": "\(id)", \(branchLine)"modules": [\(list(modules))], "customised": [\(list(customised))] }
        """
}

func source(_ path: String, _ text: String) -> SourceFile {
    SourceFile(path: path, data: Data(text.utf8))
}

/// Loads and returns every problem (empty when the project loaded).
func problems(
    manifest: String = erpManifest(), tenants: [(String, String)] = [], options: ValidationOptions = .init()
) -> [ManifestProblem] {
    do {
        _ = try ProjectLoader.load(
            manifest: source("modules.json", manifest), tenantFiles: tenants.map { source($0.0, $0.1) },
            options: options)
        return []
    } catch {
        return error.problems
    }
}

/// Whether one problem has this file and field and a message containing `text`.
func contains(_ problems: [ManifestProblem], file: String = "modules.json", field: String?, _ text: String) -> Bool {
    problems.contains { $0.file == file && $0.field == field && $0.message.contains(text) }
}

@Suite("Manifest loading: bad JSON, fields, names, paths, URLs, tenant ids and dependencies")
struct ManifestLoaderTests {
    @Test func repositoryExampleLoadsWithoutProblems() throws {
        let manifest = try SourceFile(
            path: "modules.json", data: Data(contentsOf: repositoryRoot.appendingPathComponent("modules.json")))
        let tenantsDirectory = repositoryRoot.appendingPathComponent("Tenants")
        let names = try FileManager.default.contentsOfDirectory(atPath: tenantsDirectory.path).filter {
            $0.hasSuffix(".json")
        }
        let tenants = try names.map { name in
            SourceFile(
                path: "Tenants/\(name)", data: try Data(contentsOf: tenantsDirectory.appendingPathComponent(name)))
        }
        let project = try ProjectLoader.load(manifest: manifest, tenantFiles: tenants)
        #expect(project.manifest.generalBranch == "general_dev")
        #expect(project.tenants.map(\.id) == ["t1", "t2", "t3"])
        #expect(project.graph.levels == [["Infrastructure"], ["Article", "Customer"], ["Order"]])
        #expect(project.tenant(id: "t2")?.customised == ["Infrastructure", "Customer"])
        #expect(project.module(named: "Order")?.path == "Modules/Order")
        let t2 = try #require(project.tenant(id: "t2"))
        #expect(project.activeSet(for: t2) == ActiveSet(effective: ["Infrastructure", "Customer"], dropped: []))
    }

    @Test func case1TruncatedJSONNamesFileLineAndColumn() {
        let found = problems(manifest: "{\n  \"version\": 1,\n  \"modules\": [\n    { \"name\": \"A\"")
        #expect(found.count == 1)
        #expect(found.first?.file == "modules.json")
        #expect(found.first?.line == 4)
        #expect(found.first?.column == 18)
        #expect(found.first?.description == "modules.json:4:18: unexpected end of input, expected ',' or '}'")
    }

    @Test func case1InvalidTenantJSONIsReportedWithTheOtherFiles() {
        let found = problems(tenants: [
            ("Tenants/t1.json", "{ \"id\": \"t1\", }"), ("Tenants/t2.json", tenantJSON("t2", modules: ["Ghost"])),
        ])
        #expect(found.contains { $0.file == "Tenants/t1.json" && $0.line == 1 && $0.column == 15 })
        #expect(contains(found, file: "Tenants/t2.json", field: "modules[0]", "unknown module \"Ghost\""))
    }

    @Test func case2UnknownKeyWrongTypeMissingField() {
        let manifest = erpManifest(extra: [
            #"{ "name": "X", "path": "Modules/X", "urll": "../X.git" }"#,
            #"{ "name": "Y", "path": "Modules/Y", "url": 3 }"#,
        ])
        let found = problems(manifest: manifest, tenants: [("Tenants/t2.json", #"{ "id": "t2", "modules": [] }"#)])
        #expect(contains(found, field: "modules[4]", "unknown key \"urll\" (did you mean \"url\"?)"))
        #expect(contains(found, field: "modules[4].url", "missing"))
        #expect(contains(found, field: "modules[5].url", "expected a string, found a number"))
        #expect(contains(found, file: "Tenants/t2.json", field: "customised", "missing"))
        let wrongType = found.first { $0.field == "modules[5].url" }
        #expect(wrongType?.description.hasPrefix("modules.json:10:") == true, "\(String(describing: wrongType))")
        #expect(wrongType?.description.contains(": modules[5].url: expected a string") == true)
        #expect(wrongType?.line == 10)
    }

    @Test func case2WrongTypesInTenantAndVersion() {
        let manifest = erpManifest().replacingOccurrences(of: "\"version\": 1", with: "\"version\": \"1\"")
        let found = problems(
            manifest: manifest,
            tenants: [("Tenants/t1.json", #"{ "id": "t1", "modules": ["A", 2], "customised": {} }"#)])
        #expect(contains(found, field: "version", "expected an integer, found a string"))
        #expect(contains(found, file: "Tenants/t1.json", field: "modules[1]", "expected a string"))
        #expect(contains(found, file: "Tenants/t1.json", field: "customised", "expected an array, found an object"))
        let unsupported = problems(manifest: erpManifest().replacingOccurrences(of: "1,", with: "2,"))
        #expect(contains(unsupported, field: "version", "unsupported version 2"))
    }

    @Test func case3DuplicateNamesPathsAndNesting() {
        let found = problems(
            manifest: erpManifest(extra: [
                moduleJSON("Article", path: "Modules/Article2"),
                moduleJSON("Other", path: "modules/order"),
                moduleJSON("Nested", path: "Modules/Article/Nested"),
            ]))
        #expect(contains(found, field: "modules[4].name", "duplicate module name \"Article\" (also modules[1])"))
        #expect(contains(found, field: "modules[5].path", "duplicate path \"modules/order\" (also module \"Order\""))
        #expect(
            contains(
                found, field: "modules[6].path",
                "path \"Modules/Article/Nested\" of module \"Nested\" and path \"Modules/Article\" of module \"Article\" are nested"
            ))
    }

    @Test(arguments: ["../x", "a/../../x", "/abs", "C:\\\\x", "\\\\\\\\srv\\\\x", "", ".", "Modules/X/"])
    func case4BadPathsAreRefused(path: String) {
        let found = problems(manifest: erpManifest(extra: [moduleJSON("X", path: path)]))
        #expect(found.count == 1)
        #expect(contains(found, field: "modules[4].path", "invalid path"), "\(found)")
    }

    @Test(arguments: [
        ".git", "Modules/.GIT", "Modules/git~1", "Modules/X ", "Modules/X.", "Modules/X\\u200Cy",
        "Modules/X\\u202Ey", "Modules/X\\u2066y", "Modules/\\uFEFFX", "Modules/X\\r", "Modules/X\\nY",
    ])
    func case5BadPathComponentsAreRefused(path: String) {
        let found = problems(manifest: erpManifest(extra: [moduleJSON("X", path: path)]))
        #expect(found.count == 1)
        #expect(contains(found, field: "modules[4].path", "invalid path"), "\(found)")
    }

    @Test(arguments: ["a/b", "a\\\\b", "a..b", "a b", "-a", ".a"])
    func case6BadModuleNamesAreRefused(name: String) {
        let found = problems(manifest: erpManifest(extra: [moduleJSON(name, path: "Modules/X", url: "../X.git")]))
        #expect(contains(found, field: "modules[4].name", "invalid module name"), "\(found)")
    }

    @Test(arguments: ["--upload-pack=touch /tmp/pwned", "-u./x"])
    func case7OptionLikeURLsAreRefused(url: String) {
        let found = problems(manifest: erpManifest(extra: [moduleJSON("X", url: url)]))
        #expect(contains(found, field: "modules[4].url", "starts with '-'"), "\(found)")
        #expect(contains(found, field: "modules[4].url", "module \"X\""))
    }

    @Test(arguments: ["ext::sh -c touch% /tmp/pwned", "fd::17", "weird+transport::address"])
    func case8TransportHelperURLsAreRefused(url: String) {
        let found = problems(manifest: erpManifest(extra: [moduleJSON("X", url: url)]))
        #expect(contains(found, field: "modules[4].url", "remote-helper transport"), "\(found)")
    }

    @Test(arguments: ["ssh://-oProxyCommand=touch%20pwned/x", "ssh://git@-oProxyCommand=x/y"])
    func case9DashHostIsRefused(url: String) {
        let found = problems(manifest: erpManifest(extra: [moduleJSON("X", url: url)]))
        #expect(contains(found, field: "modules[4].url", "host starting with '-'"), "\(found)")
    }

    @Test(arguments: ["/srv/git/X.git", "file:///srv/git/X.git", "repos/X.git"])
    func case10LocalRemotesNeedPermission(url: String) {
        let refused = problems(manifest: erpManifest(extra: [moduleJSON("X", url: url)]))
        #expect(contains(refused, field: "modules[4].url", "local remote \"\(url)\" of module \"X\" is refused"))
        #expect(contains(refused, field: "modules[4].url", "--allow-local-remotes"))
        #expect(contains(refused, field: "modules[4].url", "TENANTCTL_ALLOW_LOCAL_REMOTES=1"))
        let allowed = problems(
            manifest: erpManifest(extra: [moduleJSON("X", url: url)]), options: .init(allowLocalRemotes: true))
        #expect(allowed.isEmpty)
    }

    @Test func case11CredentialsAreAcceptedButNeverPrinted() throws {
        let url = "https://deploy:hunter2@example.com/x.git"
        let ok = try ProjectLoader.loadManifest(source("modules.json", erpManifest(extra: [moduleJSON("X", url: url)])))
        #expect(ok.modules.last?.url == url)
        let bad = [
            "ftp://deploy:hunter2@example.com/x.git", "file://deploy:hunter2@localhost/x.git",
            "ext::https://deploy:hunter2@example.com/x",
        ]
        for url in bad {
            let found = problems(manifest: erpManifest(extra: [moduleJSON("X", url: url)]))
            #expect(!found.isEmpty)
            for problem in found {
                #expect(!problem.description.contains("hunter2"), "\(problem)")
                #expect(problem.description.contains("deploy:***@"), "\(problem)")
            }
        }
    }

    @Test(arguments: ["a..b", "-x", "x.lock", "x@{1}", "@", "a b", "a/"])
    func case12InvalidBranchNamesAreRefused(name: String) {
        let viaBranch = problems(tenants: [("Tenants/t1.json", tenantJSON("t1", branch: name))])
        #expect(contains(viaBranch, file: "Tenants/t1.json", field: "branch", "invalid branch name \"\(name)\""))
        let viaId = problems(tenants: [("Tenants/\(name).json", tenantJSON(name))])
        #expect(contains(viaId, file: "Tenants/\(name).json", field: "id", "invalid tenant id \"\(name)\""))
        #expect(!viaId.contains { $0.field == "branch" }, "branch defaults to id: reported once")
        let general = problems(manifest: erpManifest(generalBranch: name))
        #expect(contains(general, field: "generalBranch", "invalid branch name"))
    }

    @Test func case12IdMustMatchFileNameAndGeneralBranchIsReserved() {
        let found = problems(tenants: [
            ("general_dev:Tenants/t2.json", tenantJSON("t3")),
            ("Tenants/t4.json", tenantJSON("t4", branch: "general_dev")),
        ])
        #expect(
            contains(
                found, file: "general_dev:Tenants/t2.json", field: "id",
                "tenant id \"t3\" does not match the file name (expected \"t2\")"))
        #expect(contains(found, file: "Tenants/t4.json", field: "branch", "uses the general branch \"general_dev\""))
    }

    @Test func case13TenantsDifferingOnlyInCaseOrNormalisation() {
        let found = problems(tenants: [
            ("Tenants/t1.json", tenantJSON("t1")), ("Tenants/T1.json", tenantJSON("T1")),
            ("Tenants/caf\u{E9}.json", tenantJSON("caf\u{E9}")),
            ("Tenants/cafe\u{301}.json", tenantJSON("cafe\u{301}")),
            ("Tenants/t5.json", tenantJSON("t5", branch: "Shared")),
            ("Tenants/t6.json", tenantJSON("t6", branch: "shared")),
        ])
        #expect(contains(found, file: "Tenants/t1.json", field: "id", "differs only in case or Unicode normalisation"))
        #expect(
            found.contains {
                $0.field == "id" && $0.message.contains("differs only in case or Unicode normalisation")
                    && $0.file.hasPrefix("Tenants/caf")
            })
        #expect(contains(found, file: "Tenants/t6.json", field: "branch", "differs only in case or normalisation"))
        #expect(found.count == 3, "\(found)")
    }

    @Test func case13BranchesThatCannotCoexistInGit() {
        let found = problems(tenants: [
            ("Tenants/t1.json", tenantJSON("t1", branch: "acme")),
            ("Tenants/t2.json", tenantJSON("t2", branch: "acme/eu")),
            ("Tenants/t3.json", tenantJSON("t3", branch: "general_dev/t3")),
        ])
        #expect(contains(found, file: "Tenants/t2.json", field: "branch", "conflicts with branch \"acme\""))
        #expect(contains(found, file: "Tenants/t3.json", field: "branch", "conflicts with the general branch"))
    }

    @Test func case14UnknownAndInactiveModulesNameTenantAndModule() {
        let found = problems(tenants: [
            (
                "Tenants/t2.json",
                tenantJSON(
                    "t2", modules: ["Infrastructure", "Ghost", "Infrastructure"], customised: ["Phantom", "Article"])
            )
        ])
        let file = "Tenants/t2.json"
        #expect(contains(found, file: file, field: "modules[1]", "tenant \"t2\" names unknown module \"Ghost\""))
        #expect(contains(found, file: file, field: "modules[2]", "duplicate entry \"Infrastructure\""))
        #expect(
            contains(found, file: file, field: "customised[0]", "tenant \"t2\" customises unknown module \"Phantom\""))
        #expect(
            contains(
                found, file: file, field: "customised[1]",
                "tenant \"t2\" customises module \"Article\", which is not one of its active modules"))
    }

    @Test func case14CustomisingADroppedModuleIsRefused() {
        let found = problems(tenants: [
            (
                "Tenants/t9.json",
                tenantJSON("t9", modules: ["Infrastructure", "Article", "Order"], customised: ["Order"])
            )
        ])
        #expect(
            contains(
                found, file: "Tenants/t9.json", field: "customised[0]",
                "customises module \"Order\", which is dropped from its effective active set (missing dependency \"Customer\")"
            ))
    }

    @Test func case15CycleIsPrinted() {
        let manifest = erpManifest().replacingOccurrences(
            of: "\"dependsOn\": [\"Infrastructure\"] }", with: "\"dependsOn\": [\"Infrastructure\", \"Order\"] }")
        let found = problems(manifest: manifest)
        #expect(
            found.map(\.description).contains("modules.json: dependency cycle: Order → Article → Order"), "\(found)")
        #expect(found.map(\.description).contains("modules.json: dependency cycle: Order → Customer → Order"))
    }

    @Test func case15UnknownDependencyAndDuplicateDependency() {
        let found = problems(
            manifest: erpManifest(extra: [moduleJSON("X", dependsOn: ["Ghost", "Article", "Article"])]))
        #expect(contains(found, field: "modules[4].dependsOn[0]", "module \"X\" depends on unknown module \"Ghost\""))
        #expect(contains(found, field: "modules[4].dependsOn[2]", "duplicate entry \"Article\""))
    }

    @Test func case16MissingDependencyDropsModuleAndReportsIt() throws {
        let project = try ProjectLoader.load(
            manifest: source("modules.json", erpManifest()),
            tenantFiles: [source("Tenants/t9.json", tenantJSON("t9", modules: ["Infrastructure", "Article", "Order"]))])
        let tenant = try #require(project.tenant(id: "t9"))
        #expect(
            project.activeSet(for: tenant)
                == ActiveSet(
                    effective: ["Infrastructure", "Article"],
                    dropped: [DroppedModule(module: "Order", missing: ["Customer"])]))
    }

    @Test func case16CascadingDrop() throws {
        let manifest = """
            { "version": 1, "modules": [
              \(moduleJSON("C")), \(moduleJSON("B", dependsOn: ["C"])), \(moduleJSON("A", dependsOn: ["B"])),
              \(moduleJSON("D"))
            ] }
            """
        let project = try ProjectLoader.load(
            manifest: source("modules.json", manifest),
            tenantFiles: [source("Tenants/x.json", tenantJSON("x", branch: "tenant-x", modules: ["A", "B", "D"]))])
        #expect(project.manifest.generalBranch == "general_dev")
        let tenant = try #require(project.tenant(id: "tenant-x"))
        #expect(tenant.id == "x")
        #expect(
            project.activeSet(for: tenant)
                == ActiveSet(
                    effective: ["D"],
                    dropped: [DroppedModule(module: "B", missing: ["C"]), DroppedModule(module: "A", missing: ["B"])]))
    }

    /// The loader's active-set rule (flags by module position, made once per manifest) gives what the rule by
    /// names gives, for every subset of a manifest with chains, a missing dependency, a self-dependency, and for a
    /// manifest whose names repeat.
    @Test func activeSetRuleMatchesTheRuleByNames() throws {
        let modules = [
            Module(name: "C", path: "C", url: "https://x/C.git"),
            Module(name: "B", path: "B", url: "https://x/B.git", dependsOn: ["C"]),
            Module(name: "A", path: "A", url: "https://x/A.git", dependsOn: ["B", "Ghost", "C"]),
            Module(name: "D", path: "D", url: "https://x/D.git", dependsOn: ["D"]),
            Module(name: "E", path: "E", url: "https://x/E.git", dependsOn: ["A"]),
        ]
        let names = modules.map(\.name) + ["Ghost"]
        for manifest in [modules, modules + [Module(name: "B", path: "B2", url: "https://x/B2.git")]] {
            let rule = ActiveSetRule(modules: manifest)
            let project = Project(
                manifest: ModuleManifest(version: 1, generalBranch: "general_dev", modules: manifest), tenants: [],
                graph: try DependencyGraph(modules: []))  // the active set reads the manifest only
            for mask in 0..<(1 << names.count) {
                let declared = names.indices.filter { mask & (1 << $0) != 0 }.map { names[$0] }.reversed()
                let tenant = Tenant(id: "t", modules: Array(declared), customised: [], file: "Tenants/t.json")
                #expect(rule.activeSet(declared: tenant.modules) == project.activeSet(for: tenant), "\(declared)")
            }
        }
    }

    @Test func allProblemsAreCollectedAndSortedByFile() {
        let found = problems(
            manifest: erpManifest(extra: [moduleJSON("-bad", path: "../x", url: "ext::sh")]),
            tenants: [("Tenants/b.json", tenantJSON("b", modules: ["Nope"])), ("Tenants/a.json", tenantJSON("zz"))])
        #expect(
            found.map(\.file) == ["Tenants/a.json", "Tenants/b.json", "modules.json", "modules.json", "modules.json"])
        let error = ManifestError(problems: found)
        #expect(error.description.split(separator: "\n").count == 5)
    }

    @Test func encodedManifestRoundTrips() throws {
        let manifest = ModuleManifest(
            generalBranch: "dev",
            modules: [
                Module(name: "A", path: "Modules/A", url: "https://h/a \"q\"\\.git"),
                Module(name: "Ä", path: "Modules/Ä", url: "../b.git", dependsOn: ["A"]),
            ])
        let data = manifest.encoded()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasSuffix("}\n"))
        #expect(text.hasPrefix("{\n  \"version\": 1,\n  \"generalBranch\": \"dev\",\n  \"modules\": [\n"))
        let decoded = try ProjectLoader.loadManifest(SourceFile(path: "modules.json", data: data))
        #expect(decoded == manifest)
        let empty = ModuleManifest(modules: [])
        #expect(try ProjectLoader.loadManifest(SourceFile(path: "m.json", data: empty.encoded())) == empty)
    }

    @Test func repositoryManifestReencodesToItsModel() throws {
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("modules.json"))
        let manifest = try ProjectLoader.loadManifest(SourceFile(path: "modules.json", data: data))
        let again = try ProjectLoader.loadManifest(SourceFile(path: "modules.json", data: manifest.encoded()))
        #expect(again == manifest)
        #expect(again.encoded() == manifest.encoded())
    }

    @Test func encodedTenantRoundTrips() throws {
        let tenant = Tenant(
            id: "t2", name: "Tenant \"Two\" GmbH\n", modules: ["Infrastructure", "Customer"],
            customised: ["Customer"], file: "Tenants/t2.json")
        let text = String(decoding: tenant.encoded(), as: UTF8.self)
        #expect(
            text == """
                {
                  "id": "t2",
                  "name": "Tenant \\"Two\\" GmbH\\n",
                  "branch": "t2",
                  "modules": ["Infrastructure", "Customer"],
                  "customised": ["Customer"]
                }

                """)
        let project = try ProjectLoader.load(
            manifest: source("modules.json", erpManifest()),
            tenantFiles: [SourceFile(path: "Tenants/t2.json", data: tenant.encoded())])
        #expect(project.tenants == [tenant])
        let anonymous = Tenant(id: "t3", modules: [], customised: [], file: "Tenants/t3.json")
        #expect(!String(decoding: anonymous.encoded(), as: UTF8.self).contains("name"))
    }
}
