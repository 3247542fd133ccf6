import Foundation
import TenantKit
import Testing

/// The `review` object of modules.json: decoded at the top and per module, checked field by field, and written back
/// unchanged when a command writes modules.json again.
@Suite struct ReviewSettingsTests {
    static func manifest(_ review: String, module: String = "") -> SourceFile {
        SourceFile(
            path: "modules.json",
            data: Data(
                """
                {"version": 1, "review": \(review), "modules": [
                  {"name": "A", "path": "Modules/A", "url": "../A.git"\(module)}]}
                """.utf8))
    }

    @Test func aValidObjectIsReadAndWrittenBack() throws {
        let manifest = try ProjectLoader.loadManifest(
            Self.manifest(
                #"{"forge": "gitlab", "branchPrefix": "bot/roll", "create": ["glab", "mr", "view", "{branch}"]}"#,
                module: #", "review": {"forge": "gerrit"}"#))
        #expect(
            manifest.review
                == ReviewSettings(forge: .gitlab, branchPrefix: "bot/roll", create: ["glab", "mr", "view", "{branch}"]))
        #expect(manifest.modules.first?.review == ReviewSettings(forge: .gerrit))
        let again = try ProjectLoader.loadManifest(SourceFile(path: "modules.json", data: manifest.encoded()))
        #expect(again == manifest, "\(String(decoding: manifest.encoded(), as: UTF8.self))")
        let options = ReviewOptions().reading(manifest)
        #expect(options.forge(of: "A") == .gerrit && options.forge(of: "superproject") == .gitlab)
        #expect(options.prefix(of: "A") == "bot/roll")
        #expect(ReviewOptions(forge: .agit).reading(manifest).forge(of: "A") == .agit, "--forge wins")
        // Positive control for the defaults: no object, proposal branches under tenantctl/roll.
        let plain = ReviewOptions().reading(ModuleManifest(modules: []))
        #expect(plain.forge(of: "A") == .branch && plain.prefix(of: "A") == ReviewOptions.defaultPrefix)
    }

    @Test func eachProblemNamesTheFileAndTheField() {
        let cases: [(String, String, String)] = [
            (#"{"forge": "github"}"#, "", "review.forge: unknown forge kind \"github\": branch, agit, gitlab, gerrit"),
            (#"{"forge": 3}"#, "", "review.forge: expected a string"),
            (#"{"branchPrefix": "a//b"}"#, "", "review.branchPrefix: invalid branch prefix \"a//b\""),
            (
                #"{"branchPrefix": "x/"}"#, "",
                "review.branchPrefix: invalid branch prefix \"x/\": starts or ends with '/'"
            ),
            (#"{"create": []}"#, "", "review.create: the command is empty"),
            (#"{"create": ["gh", "--title={subject}"]}"#, "", "review.create: unknown placeholder {subject}"),
            (#"{"topic": "x"}"#, "", "unknown key \"topic\""),
            ("{}", #", "review": {"forge": "svn"}"#, "modules[0].review.forge: unknown forge kind \"svn\""),
        ]
        for (review, module, expected) in cases {
            do {
                _ = try ProjectLoader.loadManifest(Self.manifest(review, module: module))
                Issue.record("accepted: \(review) \(module)")
            } catch {
                let text = String(describing: error)
                #expect(text.hasPrefix("modules.json:") && text.contains(expected), "\(expected)\n\(text)")
            }
        }
    }
}

/// The limits of the `review` object (`maxOpen`, `perHour`): whole numbers of at least 1, per module too.
@Suite struct ReviewLimitSettingsTests {
    @Test func theLimitsAreReadCheckedAndWrittenBack() throws {
        let manifest = try ProjectLoader.loadManifest(
            ReviewSettingsTests.manifest(#"{"maxOpen": 5, "perHour": 40}"#, module: #", "review": {"maxOpen": 2}"#))
        #expect(manifest.review == ReviewSettings(maxOpen: 5, perHour: 40))
        let again = try ProjectLoader.loadManifest(SourceFile(path: "modules.json", data: manifest.encoded()))
        #expect(again == manifest, "\(String(decoding: manifest.encoded(), as: UTF8.self))")
        let options = ReviewOptions().reading(manifest)
        #expect(options.settings.overridden(by: manifest.modules.first?.review).maxOpen == 2, "the module's wins")
        #expect(options.settings.overridden(by: manifest.modules.first?.review).perHour == 40)
        let cases: [(String, String, String)] = [
            (#"{"maxOpen": 0}"#, "", "review.maxOpen: must be at least 1 (got 0)"),
            (#"{"perHour": -3}"#, "", "review.perHour: must be at least 1 (got -3)"),
            (#"{"perHour": "ten"}"#, "", "review.perHour: expected an integer"),
            (#"{"maxOpen": 1.5}"#, "", "review.maxOpen: expected an integer"),
            ("{}", #", "review": {"maxOpen": 0}"#, "modules[0].review.maxOpen: must be at least 1"),
        ]
        for (review, module, expected) in cases {
            do {
                _ = try ProjectLoader.loadManifest(ReviewSettingsTests.manifest(review, module: module))
                Issue.record("accepted: \(review) \(module)")
            } catch {
                let text = String(describing: error)
                #expect(text.hasPrefix("modules.json:") && text.contains(expected), "\(expected)\n\(text)")
            }
        }
    }
}
