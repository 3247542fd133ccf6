import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

@Suite("compose: string tables (RFC 4180)") struct StringsTableTests {
    func parse(_ text: String) throws -> StringsTable {
        try StringsTable.parse(Data(text.utf8), source: "T.csv")
    }

    @Test func quotesCommasAndNewlinesInValues() throws {
        let table = try parse(
            "key,en,de\n"
                + "a,\"Hello, world\",\"Hallo, Welt\"\n"
                + "b,\"He said \"\"hi\"\"\",\"Er sagte \"\"hallo\"\"\"\n"
                + "c,\"two\nlines\",\"zwei\r\nZeilen\"\n"
                + "\"d\",plain,\"\"\n")
        #expect(table.languages == ["en", "de"])
        #expect(table.rows.map(\.key) == ["a", "b", "c", "d"])
        #expect(table.rows[0].values == ["en": "Hello, world", "de": "Hallo, Welt"])
        #expect(table.rows[1].values == ["en": "He said \"hi\"", "de": "Er sagte \"hallo\""])
        #expect(table.rows[2].values == ["en": "two\nlines", "de": "zwei\nZeilen"])
        #expect(table.rows[3].values == ["en": "plain"], "an empty cell is no value")
        #expect(table.rows[3].line == 7, "line numbers count the line breaks inside quoted values")
    }

    @Test func byteOrderMarkCRLFAndBlankLines() throws {
        let table = try parse("\u{FEFF}key,en\r\na,A\r\n\r\nb,B\r\n")
        #expect(table.languages == ["en"])
        #expect(table.rows.map(\.key) == ["a", "b"])
        #expect(table.rows.map(\.values) == [["en": "A"], ["en": "B"]])
        // Without a final line break too.
        #expect(try parse("key,en\na,A").rows.map(\.key) == ["a"])
    }

    @Test func malformedTablesNameFileAndLine() throws {
        let cases: [(String, String)] = [
            ("key,en\na,\"open\n", "T.csv:2: a quoted field is not closed"),
            ("key,en\na,A,extra\n", "T.csv:2: 3 fields, the header has 2"),
            ("key,en\na,A\na,B\n", "T.csv:3: key \"a\" appears twice (also line 2)"),
            ("name,en\na,A\n", "T.csv:1: the first column must be \"key\""),
            ("key,../x\na,A\n", "T.csv:1: invalid language code \"../x\""),
            ("key,en\na,x\"y\n", "T.csv:2: a quote inside an unquoted field"),
            ("key,en\n,A\n", "T.csv:2: empty key"),
            ("", "T.csv: empty table"),
            ("key;en;de\na;A;B\n", "T.csv:1: columns must be separated by commas"),
        ]
        for (text, message) in cases {
            let error = #expect(throws: ComposeError.self) { try parse(text) }
            #expect(error?.problems.first?.kind == .invalidStringsTable)
            #expect(
                error?.description.contains(message) == true, "\(text.debugDescription): \(String(describing: error))")
        }
        // Positive control: the same shapes, well formed.
        #expect(try parse("key,en\na,\"open\"\n").rows.count == 1)
    }
}

@Suite("compose: merging and writing strings") struct StringsComposerTests {
    static let module = """
        key,en,de
        greeting,Hello,Hallo
        farewell,Goodbye,
        only.en,English,

        """
    static let tenant = """
        key,en,de
        greeting,Welcome,Willkommen
        farewell,,Tschüss

        """

    func composed() throws -> ComposedStrings {
        StringsComposer.compose([
            try StringsTable.parse(Data(Self.module.utf8), source: "Strings.csv (module M)"),
            try StringsTable.parse(Data(Self.tenant.utf8), source: "MyStrings.csv (tenant t)"),
        ])
    }

    @Test func laterTablesOverrideAndEveryMissingTranslationIsReported() throws {
        let strings = try composed()
        #expect(strings.sourceLanguage == "en")
        #expect(strings.languages == ["de", "en"])
        #expect(strings.values["greeting"] == ["en": "Welcome", "de": "Willkommen"])
        #expect(strings.values["farewell"] == ["en": "Goodbye", "de": "Tschüss"], "an empty cell keeps the old value")
        #expect(
            strings.overrides == [
                StringOverride(
                    key: "greeting", languages: ["de", "en"], from: "Strings.csv (module M)",
                    to: "MyStrings.csv (tenant t)")
            ])
        #expect(
            strings.missing == [MissingTranslation(key: "only.en", language: "de", source: "Strings.csv (module M)")])
        let german = String(decoding: StringsFileWriter.file(strings, language: "de", header: "h"), as: UTF8.self)
        #expect(!german.contains("only.en"), "a missing translation is left out, never written empty")
        #expect(german.contains("\"farewell\" = \"Tschüss\";"))
    }

    @Test func stringsFileEscaping() throws {
        let table = StringsTable(
            source: "s", languages: ["en"],
            rows: [
                .init(key: "quote\"key", values: ["en": "say \"hi\""], line: 2),
                .init(key: "slash", values: ["en": "C:\\path\\"], line: 3),
                .init(key: "lines", values: ["en": "one\ntwo\r\tthree"], line: 4),
                .init(key: "unicode", values: ["en": "Grüße 👋 \u{7}bell */"], line: 5),
            ])
        let data = StringsFileWriter.file(StringsComposer.compose([table]), language: "en", header: "x */ y")
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("/* x * / y */\n"))
        #expect(text.contains(#""quote\"key" = "say \"hi\"";"#))
        #expect(text.contains(#""slash" = "C:\\path\\";"#))
        #expect(text.contains(#""lines" = "one\ntwo\r\tthree";"#))
        #expect(text.contains("\"unicode\" = \"Grüße 👋 \\U0007bell */\";"))
        // An old-style property list reader gives back exactly the values.
        let parsed = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String]
        #expect(
            parsed == [
                "quote\"key": "say \"hi\"", "slash": "C:\\path\\", "lines": "one\ntwo\r\tthree",
                "unicode": "Grüße 👋 \u{7}bell */",
            ])
    }

    @Test func stringCatalogHasApplesShape() throws {
        let data = StringCatalogWriter.catalog(try composed())
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(root.keys) == ["sourceLanguage", "strings", "version"])
        #expect(root["sourceLanguage"] as? String == "en")
        #expect(root["version"] as? String == "1.0")
        let strings = try #require(root["strings"] as? [String: Any])
        #expect(Set(strings.keys) == ["greeting", "farewell", "only.en"])
        let greeting = try #require(strings["greeting"] as? [String: Any])
        let localizations = try #require(greeting["localizations"] as? [String: Any])
        #expect(Set(localizations.keys) == ["de", "en"])
        let german = try #require(localizations["de"] as? [String: Any])
        let unit = try #require(german["stringUnit"] as? [String: String])
        #expect(unit == ["state": "translated", "value": "Willkommen"])
        let onlyEnglish = try #require((strings["only.en"] as? [String: Any])?["localizations"] as? [String: Any])
        #expect(Set(onlyEnglish.keys) == ["en"], "no empty German value")
        #expect(String(decoding: data, as: UTF8.self).contains("\"sourceLanguage\" : \"en\""), "Xcode's separators")
    }
}

@Suite("compose: module descriptions and dependencies") struct DependencyComposerTests {
    func description(_ json: String, module: String = "M") throws -> ModuleDescription {
        try ModuleDescription.parse(Data(json.utf8), module: module, source: "\(module)/ModuleDescription.json")
    }

    func package(_ url: String, _ rule: PackageRequirement.Rule, _ products: [String] = ["P"]) -> ModuleDescription {
        ModuleDescription(packages: [PackageRequirement(url: url, rule: rule, products: products)])
    }

    @Test func parsesTheSpecExample() throws {
        let parsed = try description(
            """
            { "name": "Order", "dependsOn": ["Infrastructure", "Article", "Customer"],
              "packages": [ { "url": "https://github.com/x/QRCode.git", "from": "2.1.0",
                              "products": ["QRCode"] } ],
              "pods": [ { "name": "iOS-QR-Code-Encoder", "version": "~> 1.0" } ] }
            """, module: "Order")
        #expect(
            parsed.packages == [
                PackageRequirement(url: "https://github.com/x/QRCode.git", rule: .from("2.1.0"), products: ["QRCode"])
            ])
        #expect(parsed.pods == [PodRequirement(name: "iOS-QR-Code-Encoder", version: "~> 1.0")])
        #expect(parsed.packages[0].identity == "qrcode")
    }

    @Test func invalidDescriptionsAreRefusedWithEveryProblem() throws {
        // Structure first (like modules.json): unknown keys and ambiguous requirements.
        let structural = #expect(throws: ComposeError.self) {
            try description(
                """
                { "packages": [ { "url": "https://x/A.git", "from": "1.0.0", "exact": "1.0.0", "products": ["A"] } ],
                  "podz": [] }
                """)
        }
        let structure = structural.map(String.init(describing:)) ?? ""
        #expect(structure.contains("unknown key \"podz\" (did you mean \"pods\"?)"), "\(structure)")
        #expect(structure.contains("packages[0]: needs exactly one of"), "\(structure)")
        // Then every value.
        let error = #expect(throws: ComposeError.self) {
            try description(
                """
                { "name": "Other", "packages": [ { "url": "https://x/A.git", "from": "1.0", "products": ["A"] },
                  { "url": "https://x/B\\".git", "branch": "main", "products": [] } ],
                  "pods": [ { "name": "P'x", "version": "~> 1.0; system" } ] }
                """)
        }
        let text = error.map(String.init(describing:)) ?? ""
        for expected in [
            "M/ModuleDescription.json:1:11: name: names module \"Other\", but it belongs to module \"M\"",
            "packages[0]: invalid version \"1.0\"", "packages[1].url: invalid package URL",
            "packages[1].products: lists no product", "invalid pod name \"P'x\"", "invalid pod version",
        ] {
            #expect(text.contains(expected), "missing \(expected) in \(text)")
        }
        #expect(error?.problems.allSatisfy { $0.kind == .invalidModuleDescription } == true)
        // Positive control.
        #expect(try description(#"{ "pods": [ { "name": "P/Sub", "version": ">= 1.0, < 2.0" } ] }"#).pods.count == 1)
    }

    @Test func compatibleRequirementsMerge() throws {
        let merged = try DependencyComposer.compose([
            ("A", package("https://github.com/x/Lib.git", .from("2.1.0"), ["Lib"])),
            ("B", package("https://GitHub.com/x/Lib", .from("2.3.0"), ["LibExtras", "Lib"])),
            ("C", package("git@github.com:x/Lib.git", .exact("2.4.1"), ["Lib"])),
        ])
        #expect(merged.packages.count == 1)
        #expect(merged.packages[0].rule == .exact("2.4.1"))
        #expect(merged.packages[0].products == ["Lib", "LibExtras"])
        #expect(merged.packages[0].requiredBy == ["A", "B", "C"])
        #expect(merged.packages[0].url == "https://github.com/x/Lib.git", "the first spelling wins")
    }

    @Test func incompatibleRequirementsNameBothModules() throws {
        let cases: [(PackageRequirement.Rule, PackageRequirement.Rule)] = [
            (.from("1.2.0"), .from("2.0.0")), (.exact("1.0.0"), .exact("1.0.1")), (.exact("1.0.0"), .from("1.1.0")),
            (.branch("main"), .from("1.0.0")), (.revision(String(repeating: "a", count: 40)), .branch("main")),
        ]
        for (first, second) in cases {
            let error = #expect(throws: ComposeError.self) {
                try DependencyComposer.compose([
                    ("Infrastructure", package("https://github.com/x/Lib.git", first)),
                    ("Order", package("https://github.com/x/Lib.git", second)),
                ])
            }
            #expect(error?.problems.first?.kind == .incompatibleRequirements)
            let message = error?.description ?? ""
            #expect(message.contains("module Infrastructure needs \(first.summary)"), "\(message)")
            #expect(message.contains("module Order needs \(second.summary)"), "\(message)")
        }
        let pods = #expect(throws: ComposeError.self) {
            try DependencyComposer.compose([
                ("A", ModuleDescription(pods: [PodRequirement(name: "P", version: "~> 1.0")])),
                ("B", ModuleDescription(pods: [PodRequirement(name: "P", version: "~> 2.0")])),
            ])
        }
        #expect(pods?.description.contains("module A needs \"~> 1.0\", module B needs \"~> 2.0\"") == true)
        let identity = #expect(throws: ComposeError.self) {
            try DependencyComposer.compose([
                ("A", package("https://github.com/one/Lib.git", .from("1.0.0"))),
                ("B", package("https://github.com/two/Lib.git", .from("1.0.0"))),
            ])
        }
        #expect(identity?.description.contains("modules A and B name two packages with the identity \"lib\"") == true)
        // Positive control: same pod, one without a version.
        let merged = try DependencyComposer.compose([
            ("A", ModuleDescription(pods: [PodRequirement(name: "P")])),
            ("B", ModuleDescription(pods: [PodRequirement(name: "P", version: "~> 1.0")])),
        ])
        #expect(merged.pods.map(\.version) == ["~> 1.0"])
    }

    @Test func generatedPackageManifestIsAcceptedBySwiftPM() throws {
        let sandbox = try GitSandbox()
        let dependencies = try DependencyComposer.compose([
            ("Infrastructure", package("https://github.com/Alamofire/Alamofire.git", .from("5.8.0"), ["Alamofire"])),
            (
                "Order",
                package("https://github.com/dagronf/QRCode.git", .exact("20.0.0"), ["QRCode", "QRCodeDetector"])
            ),
            ("Other", package("https://example.com/pinned.git", .revision(String(repeating: "0", count: 40)))),
            ("Last", package("https://example.com/Edge.git", .branch("release/1.x"))),
        ])
        try sandbox.write(
            "pkg/Package.swift",
            String(decoding: PackageManifestWriter.manifest(dependencies, tenant: "t1"), as: UTF8.self))
        try sandbox.write(
            "pkg/Sources/TenantDependencies/Exports.swift",
            String(decoding: PackageManifestWriter.exports(dependencies), as: UTF8.self))
        let result = try sandbox.run(
            "/usr/bin/env",
            ["swift", "package", "--disable-sandbox", "dump-package", "--package-path", sandbox.path("pkg")],
            extraEnvironment: [:])
        #expect(result.status == 0, "\(result.stderr)")
        let dump = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(dump["name"] as? String == "TenantDependencies")
        let dependenciesDump = try #require(dump["dependencies"] as? [[String: Any]])
        #expect(dependenciesDump.count == 4)
        let products = try #require(dump["products"] as? [[String: Any]])
        #expect(products.map { $0["name"] as? String } == ["TenantDependencies"])
        let targets = try #require(dump["targets"] as? [[String: Any]])
        #expect((targets.first?["dependencies"] as? [Any])?.count == 5)
    }
}

@Suite("compose: tenant strings in tenant files") struct TenantStringsFieldTests {
    func load(_ tenant: String) throws -> Project {
        try ProjectLoader.load(
            manifest: SourceFile(path: "modules.json", data: Data(ExampleScenario.modulesJSON.utf8)),
            tenantFiles: [SourceFile(path: "Tenants/t9.json", data: Data(tenant.utf8))],
            options: ValidationOptions(allowLocalRemotes: true))
    }

    @Test func stringsPathsStayInsideTheRepository() throws {
        for (path, reason) in [("../outside.csv", "contains a '..' component"), ("/etc/passwd", "is absolute")] {
            let error = #expect(throws: ManifestError.self) {
                try load(#"{ "id": "t9", "modules": [], "customised": [], "strings": ["\#(path)"] }"#)
            }
            #expect(
                error?.description.contains("invalid strings path \"\(path)\" of tenant \"t9\": \(reason)") == true,
                "\(String(describing: error))")
        }
        #expect(throws: ManifestError.self) {
            try load(#"{ "id": "t9", "modules": [], "customised": [], "strings": "MyStrings.csv" }"#)
        }
        let project = try load(#"{ "id": "t9", "modules": [], "customised": [], "strings": ["Strings/My.csv"] }"#)
        #expect(project.tenants.first?.strings == ["Strings/My.csv"])
        #expect(
            String(decoding: try #require(project.tenants.first).encoded(), as: UTF8.self).contains(
                "\"strings\": [\"Strings/My.csv\"]"))
    }
}

@Suite("compose: output directory") struct ComposeOutputTests {
    let plan = ComposePlan(files: [
        ComposePlan.marker: Data("m\n".utf8), "a.txt": Data("a\n".utf8), "sub/b.txt": Data("b\n".utf8),
    ])

    @Test func writeCheckAndReplaceAsAWhole() throws {
        let sandbox = try GitSandbox()
        let out = sandbox.path("out/gen")
        #expect(try ComposeOutput.compare(plan, with: out).map(\.state) == [.missing, .missing, .missing])
        #expect(try ComposeOutput.write(plan, to: out).allSatisfy { $0.state == .written })
        #expect(try sandbox.read("out/gen/sub/b.txt") == "b\n")
        #expect(try ComposeOutput.compare(plan, with: out).allSatisfy { $0.state == .unchanged })
        // Up to date: nothing is touched (a write would swap in a new directory and new files).
        func inode(_ path: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        }
        let before = (try inode(out), try inode(out + "/a.txt"))
        #expect(before.0 != nil && before.1 != nil)
        #expect(try ComposeOutput.write(plan, to: out).allSatisfy { $0.state == .unchanged })
        #expect(try inode(out) == before.0 && inode(out + "/a.txt") == before.1)
        // Stale and extra files are found, then replaced; no staging directory is left.
        try sandbox.write("out/gen/a.txt", "edited\n")
        try sandbox.write("out/gen/old.txt", "left over\n")
        let states = try ComposeOutput.compare(plan, with: out)
        #expect(states.first { $0.path == "a.txt" }?.state == .stale)
        #expect(states.first { $0.path == "old.txt" }?.state == .extra)
        #expect(try sandbox.read("out/gen/a.txt") == "edited\n", "compare writes nothing")
        let written = try ComposeOutput.write(plan, to: out)
        #expect(written.first { $0.path == "old.txt" }?.state == .removed)
        #expect(try inode(out) != before.0, "replaced as a whole")
        #expect(try sandbox.read("out/gen/a.txt") == "a\n")
        #expect(!FileManager.default.fileExists(atPath: out + "/old.txt"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("out")) == ["gen"])
    }

    @Test func refusesADirectoryItDidNotWrite() throws {
        let sandbox = try GitSandbox()
        try sandbox.write("mine/notes.txt", "keep me\n")
        let error = #expect(throws: ComposeError.self) { try ComposeOutput.write(plan, to: sandbox.path("mine")) }
        #expect(error?.description.contains("not written by tenantctl compose") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("mine")) == ["notes.txt"])
        try sandbox.write("file", "x\n")
        #expect(throws: ComposeError.self) { try ComposeOutput.write(plan, to: sandbox.path("file")) }
        // Positive control: an empty directory is fine.
        try FileManager.default.createDirectory(atPath: sandbox.path("empty"), withIntermediateDirectories: true)
        #expect(try ComposeOutput.write(plan, to: sandbox.path("empty")).count == 3)
    }

    @Test func aFailureWhileWritingLeavesThePreviousFilesAsTheyWere() throws {
        let sandbox = try GitSandbox()
        let out = sandbox.path("out/gen")
        _ = try ComposeOutput.write(plan, to: out)
        // "x" as a file and as a directory: the second write fails half way through the new files.
        var broken = plan
        broken.files["a.txt"] = Data("new\n".utf8)
        broken.files["x"] = Data("file\n".utf8)
        broken.files["x/y"] = Data("inside\n".utf8)
        #expect(throws: ComposeError.self) { try ComposeOutput.write(broken, to: out) }
        #expect(try sandbox.read("out/gen/a.txt") == "a\n")
        #expect(try ComposeOutput.compare(plan, with: out).allSatisfy { $0.state == .unchanged })
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("out")) == ["gen"], "no leftovers")
    }
}

@Suite("compose: planner") struct ComposePlannerTests {
    static let qr =
        #"{ "packages": [ { "url": "https://github.com/x/QRCode.git", "from": "2.1.0", "products": ["QRCode"] } ], "pods": [ { "name": "iOS-QR-Code-Encoder" } ] }"#

    func input(modules declared: String) throws -> ComposeInput {
        let tenant = #"{ "id": "t9", "modules": \#(declared), "customised": [] }"#
        let project = try ProjectLoader.load(
            manifest: SourceFile(path: "modules.json", data: Data(ExampleScenario.modulesJSON.utf8)),
            tenantFiles: [SourceFile(path: "Tenants/t9.json", data: Data(tenant.utf8))],
            options: ValidationOptions(allowLocalRemotes: true))
        var files: [String: ComposeInput.ModuleFiles] = [:]
        for module in ["Infrastructure", "Article", "Customer", "Order"] {
            files[module] = ComposeInput.ModuleFiles(
                strings: .present(Data("key,en\n\(module.lowercased()).title,\(module)\n".utf8)),
                description: module == "Order" ? .present(Data(Self.qr.utf8)) : .missing)
        }
        return ComposeInput(
            project: project, tenant: try #require(project.tenants.first), origin: "test", modules: files,
            tenantStrings: [])
    }

    @Test func aDroppedModuleContributesNothingAndIsReported() throws {
        // Order needs Article, which t9 does not declare: Order is dropped although its files are at hand.
        let result = try ComposePlanner.plan(try input(modules: #"["Infrastructure", "Customer", "Order"]"#))
        #expect(result.active == ["Infrastructure", "Customer"])
        #expect(result.dropped == [DroppedModule(module: "Order", missing: ["Article"])])
        for (path, data) in result.plan.files {
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains("QRCode") && !text.contains("order.title"), "\(path)")
        }
        #expect(result.plan.files["Podfile"] == nil)
        #expect(
            String(decoding: try #require(result.plan.files["ActiveModules.json"]), as: UTF8.self)
                == """
                {
                  "version": 1,
                  "tenant": "t9",
                  "active": ["Infrastructure", "Customer"],
                  "dropped": [
                    { "module": "Order", "missing": ["Article"] }
                  ]
                }

                """)
        // Positive control: with Article, Order and its libraries are in.
        let full = try ComposePlanner.plan(try input(modules: #"["Infrastructure", "Article", "Customer", "Order"]"#))
        #expect(full.active == ["Infrastructure", "Article", "Customer", "Order"])
        #expect(
            String(decoding: try #require(full.plan.files["TenantDependencies/Package.swift"]), as: UTF8.self).contains(
                "QRCode"))
        #expect(
            String(decoding: try #require(full.plan.files["Podfile"]), as: UTF8.self).contains(
                "pod 'iOS-QR-Code-Encoder'  # Order"))
    }

    @Test func theSameInputGivesByteIdenticalOutput() throws {
        let modules = #"["Infrastructure", "Article", "Customer", "Order"]"#
        let first = try ComposePlanner.plan(try input(modules: modules)).plan
        let second = try ComposePlanner.plan(try input(modules: modules)).plan
        #expect(first == second)
        #expect(
            first.paths == [
                ".tenantctl-compose", "ActiveModules.json", "Localizable.xcstrings", "Podfile", "Tenant.xcconfig",
                "TenantDependencies/Package.swift", "TenantDependencies/Sources/TenantDependencies/Exports.swift",
                "en.lproj/Localizable.strings",
            ])
    }
}

@Suite("compose: products, platforms, pods and build settings for real apps") struct ComposeForRealAppsTests {
    func description(_ json: String, module: String = "M") throws -> ModuleDescription {
        try ModuleDescription.parse(Data(json.utf8), module: module, source: "\(module)/ModuleDescription.json")
    }

    func project(tenant: String) throws -> Project {
        try ProjectLoader.load(
            manifest: SourceFile(path: "modules.json", data: Data(ExampleScenario.modulesJSON.utf8)),
            tenantFiles: [SourceFile(path: "Tenants/t9.json", data: Data(tenant.utf8))],
            options: ValidationOptions(allowLocalRemotes: true))
    }

    @Test func podsByNameAloneAsInTheThesis() throws {
        let parsed = try description(#"{ "pods": ["SBJson", { "name": "QRCodeEncoder", "version": "~> 1.0" }] }"#)
        #expect(
            parsed.pods == [PodRequirement(name: "SBJson"), PodRequirement(name: "QRCodeEncoder", version: "~> 1.0")])
        // Still refused: anything but a name or an object, and a bad name in either form.
        let error = #expect(throws: ComposeError.self) { try description(#"{ "pods": [3, "SBJson"] }"#) }
        #expect(error?.description.contains("pods[0]: expected an object, found a number") == true)
        let name = #expect(throws: ComposeError.self) { try description(#"{ "pods": ["Bad'Pod"] }"#) }
        #expect(name?.description.contains("pods[0].name: invalid pod name \"Bad'Pod\"") == true)
    }

    @Test func exportsImportOnlyTheModulesAProductDeclares() throws {
        let firebase = try description(
            #"""
            { "packages": [
                { "url": "https://github.com/firebase/firebase-ios-sdk.git", "from": "11.0.0",
                  "products": [ { "name": "FirebaseAnalyticsWithoutAdIdSupport", "modules": [] } ] },
                { "url": "https://github.com/google/GoogleSignIn-iOS.git", "from": "8.0.0",
                  "products": [ { "name": "GoogleSignInSwift", "modules": ["GoogleSignIn", "GoogleSignInSwift"] } ] },
                { "url": "https://github.com/Alamofire/Alamofire.git", "from": "5.8.0", "products": ["Alamofire"] } ] }
            """#)
        let merged = try DependencyComposer.compose([("A", firebase)])
        let exports = String(decoding: PackageManifestWriter.exports(merged), as: UTF8.self)
        #expect(
            exports
                == "// Generated by `tenantctl compose`. Do not edit.\n@_exported import GoogleSignIn\n"
                + "@_exported import GoogleSignInSwift\n")
        #expect(!exports.contains("Firebase") && !exports.contains("Alamofire"), "no guessed import")
        let manifest = String(decoding: PackageManifestWriter.manifest(merged, tenant: "t1"), as: UTF8.self)
        for product in ["FirebaseAnalyticsWithoutAdIdSupport", "GoogleSignInSwift", "Alamofire"] {
            #expect(manifest.contains(#".product(name: "\#(product)""#), "every product is still linked: \(product)")
        }
        // Nothing declared: nothing imported, and the file says why.
        let plain = try DependencyComposer.compose([
            (
                "A",
                try description(
                    #"{ "packages": [ { "url": "https://github.com/x/Lib.git", "from": "1.0.0", "products": ["Lib"] } ] }"#
                )
            )
        ])
        #expect(
            String(decoding: PackageManifestWriter.exports(plain), as: UTF8.self).contains("nothing is re-exported"))
        #expect(!String(decoding: PackageManifestWriter.exports(plain), as: UTF8.self).contains("import Lib"))
        // A module name must be a Swift module name; a product object needs both keys.
        let error = #expect(throws: ComposeError.self) {
            try description(
                #"{ "packages": [ { "url": "https://x/A.git", "from": "1.0.0", "products": [ { "name": "A", "modules": ["A-B"] }, { "name": "C" } ] } ] }"#
            )
        }
        let text = error.map(String.init(describing:)) ?? ""
        #expect(text.contains("packages[0].products[1].modules: missing"), "\(text)")
        let invalid = #expect(throws: ComposeError.self) {
            try description(
                #"{ "packages": [ { "url": "https://x/A.git", "from": "1.0.0", "products": [ { "name": "A", "modules": ["A-B"] } ] } ] }"#
            )
        }
        #expect(
            invalid?.description.contains("packages[0].products[0].modules[0]: invalid module name \"A-B\"") == true,
            "\(String(describing: invalid))")
    }

    @Test func platformsAreTheStrictestOfTheModulesAndTheTenant() throws {
        let a = try description(#"{ "platforms": { "iOS": "15.0", "macOS": "12.0" } }"#)
        let b = try description(#"{ "platforms": { "iOS": "16.4" } }"#)
        let tenantProject = try project(
            tenant:
                #"{ "id": "t9", "modules": ["Infrastructure"], "customised": [], "platforms": { "iOS": "16.4", "macOS": "11.0" } }"#
        )
        let tenant = try #require(tenantProject.tenants.first)
        let merged = try DependencyComposer.compose([("A", a), ("B", b)], tenant: tenant)
        #expect(
            merged.platforms == [
                ComposedPlatform(platform: "iOS", version: "16.4", requiredBy: ["B", "tenant t9"]),
                ComposedPlatform(platform: "macOS", version: "12.0", requiredBy: ["A"]),
            ])
        let manifest = String(decoding: PackageManifestWriter.manifest(merged, tenant: "t9"), as: UTF8.self)
        #expect(manifest.contains(#"    platforms: [.iOS("16.4"), .macOS("12.0")],"#), "\(manifest)")
        // No platforms: no platforms line (positive control for the line above).
        let none = try DependencyComposer.compose([("A", try description("{}"))])
        #expect(
            !String(decoding: PackageManifestWriter.manifest(none, tenant: "t9"), as: UTF8.self).contains("platforms"))
        // Bad platforms name the field.
        let error = #expect(throws: ComposeError.self) {
            try description(#"{ "platforms": { "ios": "15.0", "macOS": "12", "tvOS": 15 } }"#)
        }
        let text = error.map(String.init(describing:)) ?? ""
        #expect(text.contains("unknown key \"ios\" (did you mean \"iOS\"?)"), "\(text)")
        #expect(text.contains("platforms.macOS: invalid macOS version \"12\""), "\(text)")
        #expect(text.contains("platforms.tvOS: expected a string, found a number"), "\(text)")
        let tenantError = #expect(throws: ManifestError.self) {
            try project(tenant: #"{ "id": "t9", "modules": [], "customised": [], "platforms": { "iOS": "x" } }"#)
        }
        #expect(tenantError?.description.contains("Tenants/t9.json") == true)
        #expect(tenantError?.description.contains("invalid iOS version \"x\"") == true)
    }

    @Test func theBuildSectionIsValidatedKeptByRewritesAndWrittenAsXcconfig() throws {
        let good = #"""
            { "id": "t9", "modules": ["Infrastructure"], "customised": [],
              "build": { "bundleIdentifier": "com.example.erp.t9", "displayName": "Tenant Nine", "appIcon": "AppIcon-t9",
                         "marketingVersion": "2.1.0",
                         "settings": { "API_BASE_URL": "https://example.invalid//api", "OTHER_SWIFT_FLAGS": "$(inherited) -DT9" } } }
            """#
        let tenant = try #require(try project(tenant: good).tenants.first)
        #expect(tenant.build?.bundleIdentifier == "com.example.erp.t9")
        // A rewrite of the tenant file (customize, tenant add) keeps the section: encoded, it loads the same.
        let encoded = String(decoding: tenant.encoded(), as: UTF8.self)
        #expect(try project(tenant: encoded).tenants.first == tenant, "\(encoded)")

        let settings = try TenantXcconfigWriter.settings(
            tenant: tenant, platforms: [ComposedPlatform(platform: "iOS", version: "16.0", requiredBy: ["A"])])
        let file = String(decoding: TenantXcconfigWriter.file(tenant: tenant, settings: settings), as: UTF8.self)
        #expect(
            file.hasSuffix(
                """

                PRODUCT_BUNDLE_IDENTIFIER = com.example.erp.t9
                TENANT_DISPLAY_NAME = Tenant Nine
                INFOPLIST_KEY_CFBundleDisplayName = $(TENANT_DISPLAY_NAME)
                ASSETCATALOG_COMPILER_APPICON_NAME = AppIcon-t9
                MARKETING_VERSION = 2.1.0
                IPHONEOS_DEPLOYMENT_TARGET = 16.0
                API_BASE_URL = https:/$()/example.invalid/$()/api
                OTHER_SWIFT_FLAGS = $(inherited) -DT9

                """), "\(file)")

        let bad = #"""
            { "id": "t9", "modules": [], "customised": [],
              "build": { "bundleIdentifier": "com example", "marketingVersion": "v2", "appIcon": "Icons/AppIcon",
                         "bundleId": "x", "settings": { "1BAD": "x", "PRODUCT_BUNDLE_IDENTIFIER": "y", "OK": "a\nb" } } }
            """#
        let error = #expect(throws: ManifestError.self) { try project(tenant: bad) }
        let text = error.map(String.init(describing:)) ?? ""
        #expect(text.contains("unknown key \"bundleId\""), "\(text)")
        let structural = #"""
            { "id": "t9", "modules": [], "customised": [],
              "build": { "bundleIdentifier": "com example", "marketingVersion": "v2", "appIcon": "Icons/AppIcon",
                         "settings": { "1BAD": "x", "PRODUCT_BUNDLE_IDENTIFIER": "y", "OK": "a\nb" } } }
            """#
        let values = #expect(throws: ManifestError.self) { try project(tenant: structural) }
        let valueText = values.map(String.init(describing:)) ?? ""
        for expected in [
            "build.bundleIdentifier: invalid bundle identifier \"com example\"",
            "build.marketingVersion: invalid marketingVersion \"v2\"",
            "build.appIcon: invalid appIcon \"Icons/AppIcon\"",
            "build.settings.1BAD: invalid build setting name \"1BAD\"",
            "build.settings.PRODUCT_BUNDLE_IDENTIFIER: PRODUCT_BUNDLE_IDENTIFIER is set by build.bundleIdentifier",
            "build.settings.OK: invalid value of build setting OK",
        ] {
            #expect(valueText.contains(expected), "missing \(expected) in \(valueText)")
        }
        #expect(valueText.contains("Tenants/t9.json"))
    }
}
