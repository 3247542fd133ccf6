import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `tenantctl compose` on the thesis' example and on hand-made edge cases (missing keys, clashing
/// package versions, bad `strings` paths: a clear error, nothing half-written).
@Suite struct ComposeCommandTests {
    /// Every file under `directory`: relative path → content.
    static func files(_ directory: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let root = URL(fileURLWithPath: directory)
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [:] }
        for case let relative as String in enumerator {
            var isDirectory: ObjCBool = false
            let url = root.appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[relative] = try Data(contentsOf: url)
            }
        }
        return result
    }

    static func text(_ files: [String: Data], _ path: String) -> String {
        files[path].map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    static func example(_ sandbox: GitSandbox, stage: ExampleStage = .beforeUpdates) throws -> ExampleResult {
        try sandbox.exampleCopy(in: sandbox.path("erp"), stage: stage)
    }

    /// The example switched to t2 and composed into `out` (in the sandbox): the workspace and `out`.
    static func composedT2(_ sandbox: GitSandbox, sourceLocation: SourceLocation = #_sourceLocation) throws -> (
        workspace: String, out: String
    ) {
        let workspace = try example(sandbox).workspace
        #expect(sandbox.tenantctl(["switch", "t2"], in: workspace).status == 0, sourceLocation: sourceLocation)
        let out = sandbox.path("out")
        #expect(
            sandbox.tenantctl(["compose", "--out", out], in: workspace).status == 0, sourceLocation: sourceLocation)
        return (workspace, out)
    }

    @Test(.tags(.slow), .notInTheFastSet) func t1HasTheQRCodeLibraryT2IsGermanWithItsOverridesAndWithoutIt() throws {
        let sandbox = try GitSandbox()
        let example = try Self.example(sandbox, stage: .afterUpdates)
        let workspace = example.workspace
        let roll = sandbox.tenantctl(["roll"], in: workspace)
        #expect(roll.status == 0, "\(roll.stderr)")
        var outputs: [String: [String: Data]] = [:]
        for tenant in ["t1", "t2", "t3"] {
            let result = sandbox.tenantctl(["compose", tenant, "--out", sandbox.path("out/\(tenant)")], in: workspace)
            #expect(result.status == 0, "\(tenant): \(result.stderr)")
            outputs[tenant] = try Self.files(sandbox.path("out/\(tenant)"))
        }
        let t1 = try #require(outputs["t1"])
        let t2 = try #require(outputs["t2"])
        let t3 = try #require(outputs["t3"])

        // t1: every module active; the QR code library of Order (AF.6) and Infrastructure's network library.
        let t1Package = Self.text(t1, "TenantDependencies/Package.swift")
        #expect(t1Package.contains(#".package(url: "https://github.com/dagronf/QRCode.git", from: "20.0.0")"#))
        #expect(t1Package.contains(#".product(name: "QRCode", package: "QRCode")"#))
        #expect(t1Package.contains("Alamofire"))
        #expect(t1["Podfile"] == nil, "no active module of t1 declares pods")
        #expect(Set(t1.keys.filter { $0.hasSuffix(".strings") }) == ["en.lproj/Localizable.strings"])
        #expect(Self.text(t1, "en.lproj/Localizable.strings").contains(#""order.list.title" = "Orders";"#))
        #expect(
            Self.text(t1, "ActiveModules.json").contains(
                #""active": ["Infrastructure", "Article", "Customer", "Order"]"#))

        // t2: German and English, t2's own validation messages, no trace of Order or its libraries.
        #expect(
            Set(t2.keys.filter { $0.hasSuffix(".strings") })
                == ["de.lproj/Localizable.strings", "en.lproj/Localizable.strings"])
        let german = Self.text(t2, "de.lproj/Localizable.strings")
        #expect(german.contains(#""customer.validation.name" = "Bitte den Kundennamen eingeben.";"#))
        #expect(german.contains(#""customer.validation.email" = "Bitte die E-Mail-Adresse prüfen.";"#))
        #expect(german.contains(#""customer.list.title" = "Kunden";"#))
        #expect(german.contains(#""infrastructure.loading" = "Daten werden geladen…";"#))
        #expect(!german.contains("Name fehlt."), "the module's message is overridden by MyStrings.csv")
        #expect(
            Self.text(t2, "en.lproj/Localizable.strings").contains(
                #""customer.validation.name" = "Please enter the customer's name.";"#))
        for (path, data) in t2 {
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains("QRCode") && !text.contains("SBJson") && !text.contains("order."), "\(path)")
        }
        #expect(t2["Podfile"] == nil)
        #expect(Self.text(t2, "ActiveModules.json").contains(#""active": ["Infrastructure", "Customer"]"#))
        let catalogData = try #require(t2["Localizable.xcstrings"])
        let catalog = try #require(try JSONSerialization.jsonObject(with: catalogData) as? [String: Any])
        let entry = try #require((catalog["strings"] as? [String: Any])?["customer.validation.name"] as? [String: Any])
        let unit = (entry["localizations"] as? [String: Any])?["de"] as? [String: Any]
        #expect((unit?["stringUnit"] as? [String: String])?["value"] == "Bitte den Kundennamen eingeben.")

        // t3: its SBJson pod (AF.4, only on Order's t3 branch, by name alone as in the thesis) gives it a Podfile;
        // the rolled QR code library too.
        #expect(Self.text(t3, "Podfile").contains("  pod 'SBJson'  # Order\n"))
        #expect(Self.text(t3, "TenantDependencies/Package.swift").contains("QRCode"))

        // Exports.swift imports the module QRCode's product declares, never a guess from Alamofire's product name;
        // Infrastructure's platform reaches every tenant's package.
        #expect(
            Self.text(t1, "TenantDependencies/Sources/TenantDependencies/Exports.swift")
                == "// Generated by `tenantctl compose`. Do not edit.\n@_exported import QRCode\n")
        #expect(!Self.text(t2, "TenantDependencies/Sources/TenantDependencies/Exports.swift").contains("@_exported"))
        for tenant in [t1, t2, t3] {
            #expect(Self.text(tenant, "TenantDependencies/Package.swift").contains(#"platforms: [.iOS("15.0")],"#))
        }
        // Each tenant's display name and bundle id (the thesis' per-tenant target) in its Tenant.xcconfig.
        for (id, files, name) in [
            ("t1", t1, "Tenant One AG"), ("t2", t2, "Tenant Two GmbH"), ("t3", t3, "Tenant Three KG"),
        ] {
            let xcconfig = Self.text(files, "Tenant.xcconfig")
            #expect(xcconfig.contains("\nPRODUCT_BUNDLE_IDENTIFIER = com.example.erp.\(id)\n"), "\(id): \(xcconfig)")
            #expect(xcconfig.contains("\nTENANT_DISPLAY_NAME = \(name)\n"), "\(id): \(xcconfig)")
            #expect(xcconfig.contains("\nIPHONEOS_DEPLOYMENT_TARGET = 15.0\n"), "\(id): \(xcconfig)")
        }

        // Deterministic: again, into another directory, byte for byte.
        let again = sandbox.tenantctl(["compose", "t2", "--out", sandbox.path("again"), "--no-fetch"], in: workspace)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Self.files(sandbox.path("again")) == t2)
    }

    @Test func theWorkingCopyComposesWhatTheRefsDoAndReportsAsJSON() throws {
        let sandbox = try GitSandbox()
        let example = try Self.example(sandbox)
        let workspace = example.workspace
        let onGeneral = sandbox.tenantctl(["compose"], in: workspace)
        #expect(onGeneral.status == 1)
        #expect(onGeneral.stderr.contains("the working copy is on general_dev, the development view, not a tenant"))
        #expect(!FileManager.default.fileExists(atPath: workspace + "/Generated"))

        #expect(sandbox.tenantctl(["switch", "t2"], in: workspace).status == 0)
        let local = sandbox.tenantctl(["compose", "--json"], in: workspace + "/Modules")
        #expect(local.status == 0, "\(local.stderr)")
        let report = try JSONDecoder().decode(ComposeReport.self, from: Data(local.stdout.utf8))
        #expect(report.schemaVersion == 1)
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/compose-schema.json").path
        #expect(try JSONSchemaCheck(contentsOf: schema).violations(of: local.stdout) == [])
        #expect(report.tenant == "t2" && report.source == "the working copy")
        #expect(report.active == ["Infrastructure", "Customer"])
        #expect(report.outputDirectory == workspace + "/Generated")
        #expect(report.languages == ["de", "en"] && report.sourceLanguage == "en")
        #expect(report.overrides.map(\.key) == ["customer.validation.name", "customer.validation.email"])
        #expect(
            report.overrides.allSatisfy {
                $0.languages == ["de", "en"] && $0.to.hasPrefix("Modules/Customer/MyStrings.csv")
            })
        #expect(report.missingTranslations.isEmpty)
        #expect(report.packages.map(\.url) == ["https://github.com/Alamofire/Alamofire.git"])
        #expect(report.pods.isEmpty)
        #expect(report.files.allSatisfy { $0.state == .written } && !report.upToDate)
        // Generated/ is ignored by the example's .gitignore: the working copy stays clean for switch.
        #expect(try sandbox.git(["status", "--porcelain"], in: workspace).isEmpty)

        let fetched = sandbox.tenantctl(["compose", "t2", "--out", sandbox.path("ci")], in: workspace)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(try Self.files(workspace + "/Generated") == (try Self.files(sandbox.path("ci"))))
    }

    @Test(.tags(.slow), .notInTheFastSet) func checkRoundTrip() throws {
        let sandbox = try GitSandbox()
        let example = try Self.example(sandbox)
        let out = sandbox.path("out")
        #expect(sandbox.tenantctl(["compose", "t2", "--out", out], in: example.workspace).status == 0)
        let fresh = sandbox.tenantctl(["compose", "t2", "--out", out, "--check", "--no-fetch"], in: example.workspace)
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(fresh.stdout.contains("up to date"))

        try sandbox.write("out/de.lproj/Localizable.strings", "/* edited by hand */\n")
        try sandbox.write("out/Stray.txt", "left behind\n")
        let stale = sandbox.tenantctl(
            ["compose", "t2", "--out", out, "--check", "--no-fetch", "--json"], in: example.workspace)
        #expect(stale.status == 2, "\(stale.stderr)")
        let report = try JSONDecoder().decode(ComposeReport.self, from: Data(stale.stdout.utf8))
        #expect(report.check && !report.upToDate)
        #expect(
            report.files.filter { $0.state != .unchanged }
                == [
                    ComposeFileState(path: "de.lproj/Localizable.strings", state: .stale),
                    ComposeFileState(path: "Stray.txt", state: .extra),
                ])
        #expect(try sandbox.read("out/de.lproj/Localizable.strings") == "/* edited by hand */\n", "check wrote nothing")
        #expect(FileManager.default.fileExists(atPath: out + "/Stray.txt"))

        let missing = sandbox.tenantctl(
            ["compose", "t2", "--out", sandbox.path("never"), "--check", "--no-fetch"], in: example.workspace)
        #expect(missing.status == 2)
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("never")))

        #expect(sandbox.tenantctl(["compose", "t2", "--out", out, "--no-fetch"], in: example.workspace).status == 0)
        #expect(
            sandbox.tenantctl(["compose", "t2", "--out", out, "--check", "--no-fetch"], in: example.workspace).status
                == 0)
        #expect(!FileManager.default.fileExists(atPath: out + "/Stray.txt"))
    }

    @Test(.tags(.slow), .notInTheFastSet) func aKeyMissingInOneLanguageIsReportedPerKeyAndLanguage() throws {
        let sandbox = try GitSandbox()
        let example = try Self.example(sandbox)
        let workspace = example.workspace
        #expect(sandbox.tenantctl(["switch", "t1"], in: workspace).status == 0)
        try sandbox.write(
            "erp/workspace/Modules/Article/Strings.csv",
            "key,en,de\narticle.list.title,Articles,Artikel\narticle.detail.price,Price,\n")
        let result = sandbox.tenantctl(["compose", "--json"], in: workspace)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(ComposeReport.self, from: Data(result.stdout.utf8))
        let article = report.missingTranslations.filter { $0.key.hasPrefix("article.") }
        #expect(
            article == [
                MissingTranslation(
                    key: "article.detail.price", language: "de",
                    source: "Modules/Article/Strings.csv (module Article)")
            ])
        // Every other module's key lacks German too, one entry per key.
        #expect(report.missingTranslations.filter { $0.key.hasPrefix("infrastructure.") }.count == 3)
        #expect(report.missingTranslations.allSatisfy { $0.language == "de" })
        let german = try sandbox.read("erp/workspace/Generated/de.lproj/Localizable.strings")
        #expect(german.contains(#""article.list.title" = "Artikel";"#))
        #expect(!german.contains("article.detail.price"), "never silently empty")
        let text = sandbox.tenantctl(["compose"], in: workspace)
        #expect(
            text.stdout.contains("missing translation: article.detail.price has no de (Modules/Article/Strings.csv"))
    }

    @Test(.tags(.slow), .notInTheFastSet) func incompatiblePackageRequirementsNameBothModulesAndWriteNothing() throws {
        let sandbox = try GitSandbox()
        let example = try Self.example(sandbox)
        let workspace = example.workspace
        #expect(sandbox.tenantctl(["switch", "t1"], in: workspace).status == 0)
        func describeArticle(_ version: String) throws {
            try sandbox.write(
                "erp/workspace/Modules/Article/ModuleDescription.json",
                #"{ "name": "Article", "packages": [ { "url": "https://github.com/Alamofire/Alamofire", "from": ""#
                    + version + #"", "products": ["Alamofire"] } ] }"#)
        }
        try describeArticle("4.9.0")
        let out = sandbox.path("out")
        let result = sandbox.tenantctl(["compose", "--out", out], in: workspace)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "incompatible requirements for package https://github.com/Alamofire/Alamofire.git: module "
                    + "Infrastructure needs from 5.8.0, module Article needs from 4.9.0"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // Positive control: a compatible requirement merges to the higher minimum.
        try describeArticle("5.9.0")
        let merged = sandbox.tenantctl(["compose", "--out", out], in: workspace)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try sandbox.read("out/TenantDependencies/Package.swift").contains(#"from: "5.9.0")"#))
    }

    @Test(.tags(.slow), .notInTheFastSet) func aBadStringsPathIsAClearErrorAndNothingIsWritten() throws {
        let sandbox = try GitSandbox()
        let (workspace, out) = try Self.composedT2(sandbox)
        let before = try Self.files(out)
        func tenantFile(strings: String) throws {
            try sandbox.write(
                "erp/workspace/Tenants/t2.json",
                #"{ "id": "t2", "branch": "t2", "modules": ["Infrastructure", "Customer"], "#
                    + #""customised": ["Infrastructure", "Customer"], "strings": ["# + strings + "] }\n")
        }
        try sandbox.write("outside.csv", "key,en\ncustomer.list.title,Hacked\n")
        try FileManager.default.createSymbolicLink(
            atPath: workspace + "/Modules/Customer/Link.csv", withDestinationPath: sandbox.path("outside.csv"))
        let cases: [(String, String)] = [
            (
                #""../outside.csv""#,
                "invalid strings path \"../outside.csv\" of tenant \"t2\": contains a '..' component"
            ),
            (
                #""Modules/Customer/Nope.csv""#,
                "tenant t2: strings file Modules/Customer/Nope.csv does not exist in the working copy "
                    + "(Tenants/t2.json strings[0])"
            ),
            (
                #""Modules/Customer/Link.csv""#,
                "Modules/Customer/Link.csv resolves to \(sandbox.path("outside.csv")), outside"
            ),
        ]
        for (strings, message) in cases {
            try tenantFile(strings: strings)
            let result = sandbox.tenantctl(["compose", "--out", out], in: workspace)
            #expect(result.status == 1, "\(strings)")
            #expect(result.stderr.contains(message), "\(strings): \(result.stderr)")
            #expect(try Self.files(out) == before, "nothing written for \(strings)")
        }
        // Positive control: a valid override file inside the repository.
        try sandbox.write("erp/workspace/Modules/Customer/Inside.csv", "key,en\ncustomer.list.title,Clients\n")
        try tenantFile(strings: #""Modules/Customer/Inside.csv""#)
        let fine = sandbox.tenantctl(["compose", "--out", out], in: workspace)
        #expect(fine.status == 0, "\(fine.stderr)")
        #expect(try sandbox.read("out/en.lproj/Localizable.strings").contains(#""customer.list.title" = "Clients";"#))
    }

    @Test(.tags(.slow), .notInTheFastSet) func fromTheRefsTenantTablesComeFromTheTenantBranchAndTheModulesAtTheirPins()
        throws
    {
        let sandbox = try GitSandbox()
        let example = try Self.example(sandbox)
        let workspace = example.workspace
        #expect(sandbox.tenantctl(["switch", "t2"], in: workspace).status == 0)
        func publish(strings: [String]) throws {
            let list = strings.map { "\"\($0)\"" }.joined(separator: ", ")
            try sandbox.write(
                "erp/workspace/Tenants/t2.json",
                #"{ "id": "t2", "branch": "t2", "modules": ["Infrastructure", "Customer"], "#
                    + #""customised": ["Infrastructure", "Customer"], "strings": ["# + list + "] }\n")
            try sandbox.git(["add", "-A", "Tenants", "Strings"], in: workspace)
            try sandbox.git(["commit", "-q", "-m", "t2: strings"], in: workspace)
            try sandbox.git(["push", "-q", "origin", "t2"], in: workspace)
        }
        try sandbox.write("erp/workspace/Strings/Extra.csv", "key,en,de\nextra.key,Extra,Extra auf Deutsch\n")
        // Uncommitted in Customer's working tree: the refs do not see it.
        try sandbox.write("erp/workspace/Modules/Customer/Local.csv", "key,en\nlocal.key,Local\n")
        try publish(strings: ["Modules/Customer/MyStrings.csv", "Modules/Customer/Local.csv", "Strings/Extra.csv"])
        let out = sandbox.path("out")
        let missing = sandbox.tenantctl(["compose", "t2", "--out", out], in: workspace)
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains(
                "tenant t2: strings file Modules/Customer/Local.csv does not exist in origin/t2 "
                    + "(origin/t2:Tenants/t2.json strings[1])"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // Positive control: the working copy has the file; the refs give the others.
        #expect(sandbox.tenantctl(["compose", "--out", sandbox.path("local")], in: workspace).status == 0)
        try publish(strings: ["Modules/Customer/MyStrings.csv", "Strings/Extra.csv"])
        let fine = sandbox.tenantctl(["compose", "t2", "--out", out], in: workspace)
        #expect(fine.status == 0, "\(fine.stderr)")
        let german = try sandbox.read("out/de.lproj/Localizable.strings")
        #expect(german.contains(#""extra.key" = "Extra auf Deutsch";"#))
        #expect(german.contains(#""customer.validation.name" = "Bitte den Kundennamen eingeben.";"#))
    }

    /// Writes `ModuleDescription.json` of a module in the working copy (compose without a tenant reads it there).
    static func describe(_ sandbox: GitSandbox, _ module: String, _ json: String) throws {
        try sandbox.write("erp/workspace/Modules/\(module)/ModuleDescription.json", json)
    }

    @Test(.tags(.slow), .notInTheFastSet) func platformsOfModulesAndTenantReachThePackageAndSwiftPMReadsThem() throws {
        let sandbox = try GitSandbox()
        let example = try Self.example(sandbox)
        let workspace = example.workspace
        #expect(sandbox.tenantctl(["switch", "t1"], in: workspace).status == 0)
        try Self.describe(
            sandbox, "Article",
            #"""
            { "name": "Article",
              "packages": [ { "url": "https://github.com/google/GoogleSignIn-iOS.git", "from": "8.0.0",
                              "products": [ { "name": "GoogleSignInSwift", "modules": ["GoogleSignIn", "GoogleSignInSwift"] } ] },
                            { "url": "https://github.com/firebase/firebase-ios-sdk.git", "from": "11.0.0",
                              "products": [ { "name": "FirebaseAnalyticsWithoutAdIdSupport", "modules": [] } ] } ],
              "platforms": { "iOS": "16.4", "macOS": "13.0" } }
            """#)
        let t1 = try sandbox.read("erp/workspace/Tenants/t1.json")
        try sandbox.write(
            "erp/workspace/Tenants/t1.json",
            t1.replacingOccurrences(
                of: #""customised": [],"#, with: #""customised": [], "platforms": { "iOS": "17.0" },"#))
        let out = sandbox.path("out")
        let result = sandbox.tenantctl(["compose", "--out", out, "--json"], in: workspace)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(ComposeReport.self, from: Data(result.stdout.utf8))
        #expect(
            report.platforms == [
                ComposeReport.Platform(platform: "iOS", version: "17.0", requiredBy: ["tenant t1"]),
                ComposeReport.Platform(platform: "macOS", version: "13.0", requiredBy: ["Article"]),
            ])
        #expect(
            report.buildSettings.contains(ComposeReport.BuildSetting(name: "IPHONEOS_DEPLOYMENT_TARGET", value: "17.0"))
        )
        #expect(
            report.buildSettings.contains(ComposeReport.BuildSetting(name: "MACOSX_DEPLOYMENT_TARGET", value: "13.0")))
        #expect(
            try sandbox.read("out/TenantDependencies/Sources/TenantDependencies/Exports.swift")
                == "// Generated by `tenantctl compose`. Do not edit.\n@_exported import GoogleSignIn\n"
                + "@_exported import GoogleSignInSwift\n")
        let dump = try sandbox.run(
            "/usr/bin/env",
            ["swift", "package", "--disable-sandbox", "dump-package", "--package-path", out + "/TenantDependencies"],
            extraEnvironment: [:])
        #expect(dump.status == 0, "\(dump.stderr)")
        let package = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let platforms = try #require(package["platforms"] as? [[String: Any]])
        #expect(
            platforms.map { "\($0["platformName"] as? String ?? "?") \($0["version"] as? String ?? "?")" }
                == ["ios 17.0", "macos 13.0"])
        #expect((package["dependencies"] as? [Any])?.count == 3)
    }

    @Test(.tags(.slow), .notInTheFastSet) func theBuildSectionBecomesTenantXcconfigCheckedAndReported() throws {
        let sandbox = try GitSandbox()
        let (workspace, out) = try Self.composedT2(sandbox)
        #expect(sandbox.tenantctl(["compose", "--out", out, "--check"], in: workspace).status == 0)
        let t2 = try sandbox.read("erp/workspace/Tenants/t2.json")
        try sandbox.write(
            "erp/workspace/Tenants/t2.json",
            t2.replacingOccurrences(
                of: #""displayName": "Tenant Two GmbH""#,
                with: #""displayName": "Tenant Two GmbH", "appIcon": "AppIcon-t2", "marketingVersion": "3.2", "#
                    + #""settings": { "API_BASE_URL": "https://t2.example.invalid/erp" }"#))
        let stale = sandbox.tenantctl(["compose", "--out", out, "--check", "--json"], in: workspace)
        #expect(stale.status == 2, "\(stale.stderr)")
        let report = try JSONDecoder().decode(ComposeReport.self, from: Data(stale.stdout.utf8))
        #expect(
            report.files.filter { $0.state != .unchanged } == [ComposeFileState(path: "Tenant.xcconfig", state: .stale)]
        )
        #expect(
            report.buildSettings.map(\.name) == [
                "PRODUCT_BUNDLE_IDENTIFIER", "TENANT_DISPLAY_NAME", "INFOPLIST_KEY_CFBundleDisplayName",
                "ASSETCATALOG_COMPILER_APPICON_NAME", "MARKETING_VERSION", "IPHONEOS_DEPLOYMENT_TARGET", "API_BASE_URL",
            ])
        #expect(
            report.buildSettings.last?.value == "https://t2.example.invalid/erp",
            "the report gives the value as written")
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/compose-schema.json").path
        #expect(try JSONSchemaCheck(contentsOf: schema).violations(of: stale.stdout) == [])
        #expect(sandbox.tenantctl(["compose", "--out", out], in: workspace).status == 0)
        let xcconfig = try sandbox.read("out/Tenant.xcconfig")
        #expect(xcconfig.contains("\nAPI_BASE_URL = https:/$()/t2.example.invalid/erp\n"), "\(xcconfig)")
        #expect(
            xcconfig.contains("\nMARKETING_VERSION = 3.2\n")
                && xcconfig.contains("\nASSETCATALOG_COMPILER_APPICON_NAME = AppIcon-t2\n"))
        // The same from the refs once published: byte for byte.
        try sandbox.git(["commit", "-q", "-am", "t2: build settings"], in: workspace)
        try sandbox.git(["push", "-q", "origin", "t2"], in: workspace)
        #expect(sandbox.tenantctl(["compose", "t2", "--out", sandbox.path("ci")], in: workspace).status == 0)
        #expect(try Self.files(sandbox.path("ci")) == (try Self.files(out)))

        // A bad value is a clear error naming the file and the field; nothing is written.
        let before = try Self.files(out)
        try sandbox.write(
            "erp/workspace/Tenants/t2.json",
            t2.replacingOccurrences(of: "com.example.erp.t2", with: "com example t2"))
        let bad = sandbox.tenantctl(["compose", "--out", out], in: workspace)
        #expect(bad.status != 0)
        #expect(
            bad.stderr.contains(
                "Tenants/t2.json:9:25: build.bundleIdentifier: invalid bundle identifier \"com example t2\""),
            "\(bad.stderr)")
        #expect(try Self.files(out) == before)
    }
}
