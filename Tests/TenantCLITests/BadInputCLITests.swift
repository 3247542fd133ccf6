import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// Bad manifests (JSON, fields, names, paths, URLs, tenant ids, dependencies) through the command line: `tenant list`
/// refuses (exit 1, message on stderr), `verify` reports (exit 2, finding on stdout); nothing in the repository
/// changes.
@Suite(.tags(.slow), .notInTheFastSet) struct BadInputCLITests {
    static let modules = """
        {
          "version": 1,
          "generalBranch": "general_dev",
          "modules": [
            { "name": "Infrastructure", "path": "Modules/Infrastructure", "url": "../Infrastructure.git", "dependsOn": [] },
            { "name": "Article", "path": "Modules/Article", "url": "../Article.git", "dependsOn": ["Infrastructure"] },
            { "name": "Customer", "path": "Modules/Customer", "url": "../Customer.git", "dependsOn": ["Infrastructure"] },
            { "name": "Order", "path": "Modules/Order", "url": "../Order.git",
              "dependsOn": ["Infrastructure", "Article", "Customer"] }
          ]
        }
        """
    static let t1 = """
        { "id": "t1", "modules": ["Infrastructure", "Article", "Customer", "Order"], "customised": [] }
        """

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var modules: String = BadInputCLITests.modules
        var tenants: [String: String] = ["t1": BadInputCLITests.t1]
        var expected: [String]
        var testDescription: String { name }
    }

    static func modules(replacing old: String, with new: String) -> String {
        BadInputCLITests.modules.replacingOccurrences(of: old, with: new)
    }

    static let cases: [Case] = [
        Case(
            name: "1 truncated JSON", modules: String(modules.prefix(60)),
            expected: ["modules.json:4:9: unterminated string"]),
        Case(
            name: "1 invalid tenant JSON", tenants: ["t1": "{ \"id\": \"t1\", }"],
            expected: ["Tenants/t1.json:1:"]),
        Case(
            name: "2 wrong type", modules: modules(replacing: "\"url\": \"../Order.git\"", with: "\"url\": 7"),
            expected: ["modules.json:8:56: modules[3].url: expected a string"]),
        Case(
            name: "2 unknown key", modules: modules(replacing: "\"url\": \"../Order.git\"", with: "\"urll\": \"x\""),
            expected: ["modules[3]: unknown key \"urll\"", "modules[3].url: missing"]),
        Case(
            name: "2 missing field", tenants: ["t1": "{ \"id\": \"t1\", \"modules\": [] }"],
            expected: ["Tenants/t1.json:1:1: customised: missing"]),
        Case(
            name: "3 duplicate module name",
            modules: modules(replacing: "\"name\": \"Order\"", with: "\"name\": \"Article\""),
            expected: ["Article"]),
        Case(
            name: "3 nested path",
            modules: modules(replacing: "\"path\": \"Modules/Order\"", with: "\"path\": \"Modules/Article/Order\""),
            expected: ["Modules/Article/Order", "Modules/Article"]),
        Case(
            name: "4 path escaping",
            modules: modules(replacing: "\"path\": \"Modules/Order\"", with: "\"path\": \"a/../../x\""),
            expected: ["modules[3].path"]),
        Case(
            name: "4 absolute path",
            modules: modules(replacing: "\"path\": \"Modules/Order\"", with: "\"path\": \"/abs\""),
            expected: ["modules[3].path"]),
        Case(
            name: "5 .git component",
            modules: modules(replacing: "\"path\": \"Modules/Order\"", with: "\"path\": \"Modules/.GIT/x\""),
            expected: ["modules[3].path"]),
        Case(
            name: "5 bidi character",
            modules: modules(replacing: "\"path\": \"Modules/Order\"", with: "\"path\": \"Modules/Or\\u202Eder\""),
            expected: ["modules[3].path"]),
        Case(
            name: "6 module name with slash",
            modules: modules(replacing: "\"name\": \"Order\"", with: "\"name\": \"Or/der\""),
            expected: ["modules[3].name"]),
        Case(
            name: "7 URL option injection",
            modules: modules(
                replacing: "\"url\": \"../Order.git\"", with: "\"url\": \"--upload-pack=touch /tmp/pwned\""),
            expected: ["modules[3].url"]),
        Case(
            name: "8 ext transport",
            modules: modules(replacing: "\"url\": \"../Order.git\"", with: "\"url\": \"ext::sh -c touch% /tmp/pwned\""),
            expected: ["modules[3].url"]),
        Case(
            name: "9 ssh host option",
            modules: modules(replacing: "\"url\": \"../Order.git\"", with: "\"url\": \"ssh://-oProxyCommand=x/y\""),
            expected: ["modules[3].url"]),
        Case(
            name: "10 local path URL",
            modules: modules(replacing: "\"url\": \"../Order.git\"", with: "\"url\": \"/srv/git/Order.git\""),
            expected: ["modules[3].url", "--allow-local-remotes"]),
        Case(
            name: "11 credentials are never printed",
            modules: modules(
                replacing: "\"url\": \"../Order.git\"", with: "\"url\": \"ext::https://bob:hunter2@example.com/x\""),
            expected: ["modules[3].url"]),
        Case(
            name: "12 bad tenant branch",
            tenants: ["t1": "{ \"id\": \"t1\", \"branch\": \"a..b\", \"modules\": [], \"customised\": [] }"],
            expected: ["Tenants/t1.json", "a..b"]),
        Case(
            name: "13 ids differing only in case",
            tenants: [
                "t1": BadInputCLITests.t1,
                "T1": "{ \"id\": \"T1\", \"modules\": [], \"customised\": [] }",
            ], expected: ["T1", "t1"]),
        Case(
            name: "14 unknown module",
            tenants: ["t1": "{ \"id\": \"t1\", \"modules\": [\"Billing\"], \"customised\": [] }"],
            expected: ["t1", "Billing"]),
        Case(
            name: "14 customising an inactive module",
            tenants: ["t1": "{ \"id\": \"t1\", \"modules\": [\"Infrastructure\"], \"customised\": [\"Order\"] }"],
            expected: ["t1", "Order"]),
        Case(
            name: "15 dependency cycle",
            modules: modules(
                replacing: "\"dependsOn\": [\"Infrastructure\"] },\n    { \"name\": \"Customer\"",
                with: "\"dependsOn\": [\"Order\"] },\n    { \"name\": \"Customer\""),
            expected: ["Order → Article → Order"]),
    ]

    private func superproject(_ sandbox: GitSandbox, _ testCase: Case) throws -> String {
        let dir = try sandbox.makeRepository("super", files: ["README": "x\n"])
        try sandbox.write("super/modules.json", testCase.modules)
        for (id, json) in testCase.tenants { try sandbox.write("super/Tenants/\(id).json", json) }
        return dir
    }

    @Test(arguments: cases)
    func refusedWithMessageAndExitCode(_ testCase: Case) throws {
        let sandbox = try GitSandbox()
        let dir = try superproject(sandbox, testCase)
        let before = try sandbox.git(["status", "--porcelain=v2", "-uall"], in: dir)
        let list = sandbox.tenantctl(
            ["tenant", "list", "-C", dir], environment: ["TENANTCTL_ALLOW_LOCAL_REMOTES": "0"])
        #expect(list.status == 1, "\(list.stderr)")
        #expect(list.stdout.isEmpty)
        for fragment in testCase.expected {
            #expect(list.stderr.contains(fragment), "missing \(fragment) in: \(list.stderr)")
        }
        #expect(!list.stderr.contains("hunter2"))
        let verify = sandbox.tenantctl(["verify", "-C", dir], environment: ["TENANTCTL_ALLOW_LOCAL_REMOTES": "0"])
        #expect(verify.status == 2, "\(verify.stdout)\(verify.stderr)")
        for fragment in testCase.expected {
            #expect(verify.stdout.contains(fragment), "missing \(fragment) in: \(verify.stdout)")
        }
        #expect(!verify.stdout.contains("hunter2"))
        #expect(try sandbox.git(["status", "--porcelain=v2", "-uall"], in: dir) == before)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/pwned"))
    }

    @Test func sixteenDroppedModulesAreReportedNotSilent() throws {
        let sandbox = try GitSandbox()
        let tenants = [
            "t1": "{ \"id\": \"t1\", \"modules\": [\"Infrastructure\", \"Article\", \"Order\"], \"customised\": [] }"
        ]
        let dir = try superproject(sandbox, Case(name: "16", tenants: tenants, expected: []))
        let list = sandbox.tenantctl(["tenant", "list", "-C", dir])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("note: t1: Order is inactive: it needs Customer, which is not active"))
        let json = sandbox.tenantctl(["tenant", "list", "-C", dir, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let first = try #require((object?["tenants"] as? [[String: Any]])?.first)
        #expect(first["activeModules"] as? [String] == ["Infrastructure", "Article"])
        let dropped = try #require((first["droppedModules"] as? [[String: Any]])?.first)
        #expect(dropped["module"] as? String == "Order")
        #expect(dropped["missing"] as? [String] == ["Customer"])
        let verify = sandbox.tenantctl(["verify", "-C", dir])
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("note: t1: Order is not in the effective active set (needs Customer)"))
    }

    @Test func topLevelExampleFilesPass() throws {
        let sandbox = try GitSandbox()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let list = sandbox.tenantctl(["tenant", "list", "-C", root])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("t2      t2      Tenant Two GmbH  Infrastructure, Customer"))
        let verify = sandbox.tenantctl(["verify", "-C", root])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }
}
