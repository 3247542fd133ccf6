import Foundation
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantCLI

/// How tenantctl ships: `make install` and `make uninstall` (run here with the built binary standing in for the
/// release build, which takes minutes), the Homebrew formula, and the GitHub workflows (valid YAML naming their jobs:
/// `scripts/check-workflows`, which needs Python's YAML parser).
@Suite struct InstallAndWorkflowTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func found(_ program: String) -> Bool { TestDaemon.find([program]) != nil }

    static let pythonHasYAML: Bool = {
        guard found("python3") else { return false }
        let result = try? PlainProcess.run(
            "/usr/bin/env", ["python3", "-c", "import yaml"], environment: ProcessInfo.processInfo.environment)
        return result?.status == 0
    }()

    /// A stand-in for `swift` that builds nothing and reports `binDirectory` as the build's output directory.
    static func fakeSwift(in sandbox: GitSandbox, binDirectory: String) throws -> String {
        let script = "#!/bin/sh\ncase \"$*\" in *--show-bin-path*) echo \(ShellWord.quote(binDirectory));; esac\n"
        try sandbox.write("fake-swift", script)
        let path = sandbox.path("fake-swift")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    @Test(.enabled(if: found("make"), "needs make"))
    func makeInstallPutsTheBinaryAndTheCompletionsWhereTheShellsLookAndUninstallRemovesThem() throws {
        let sandbox = try GitSandbox()
        let binary = try #require(TenantctlBinary.path(), "the tenantctl executable is not built")
        let swift = try Self.fakeSwift(in: sandbox, binDirectory: (binary as NSString).deletingLastPathComponent)
        let prefix = sandbox.path("prefix with space")
        let files = [
            "bin/tenantctl", "share/bash-completion/completions/tenantctl", "share/zsh/site-functions/_tenantctl",
            "share/fish/vendor_completions.d/tenantctl.fish", "share/man/man1/tenantctl.1",
        ]
        let install = try sandbox.run(
            "/usr/bin/env", ["make", "-C", Self.packageRoot, "install", "PREFIX=\(prefix)", "SWIFT=\(swift)"])
        #expect(install.status == 0, "\(install.stdout)\(install.stderr)")
        for file in files {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) not installed")
        }
        let version = try sandbox.run(prefix + "/bin/tenantctl", ["--version"])
        #expect(version.stdout == TenantKitInfo.version + "\n")
        #expect(try String(contentsOfFile: prefix + "/" + files[2], encoding: .utf8).hasPrefix("#compdef tenantctl"))
        #expect(try String(contentsOfFile: prefix + "/" + files[1], encoding: .utf8).contains("_tenantctl()"))
        #expect(
            try String(contentsOfFile: prefix + "/" + files[3], encoding: .utf8).contains("complete -c 'tenantctl'"))
        // The man page, generated from the argument parser: every command is in it.
        let manual = try String(contentsOfFile: prefix + "/" + files[4], encoding: .utf8)
        #expect(manual.hasPrefix(".\\\" "), "a roff page: \(manual.prefix(80))")
        for (name, _) in CLIReferenceTests.allCommands(Tenantctl.self) where name != "tenantctl" {
            let words = name.split(separator: " ").dropFirst()
            #expect(manual.contains(".It Em \(words.last ?? "")"), "\(name) is not in the man page")
        }

        let uninstall = try sandbox.run(
            "/usr/bin/env", ["make", "-C", Self.packageRoot, "uninstall", "PREFIX=\(prefix)", "SWIFT=\(swift)"])
        #expect(uninstall.status == 0, "\(uninstall.stdout)\(uninstall.stderr)")
        for file in files {
            #expect(!FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) left behind")
        }
    }

    @Test func theMakefileAndTheFormulaBuildAndInstallAsDocumented() throws {
        let makefile = try String(contentsOfFile: Self.packageRoot + "/Makefile", encoding: .utf8)
        #expect(makefile.contains("PREFIX ?= /usr/local"))
        #expect(makefile.contains("--static-swift-stdlib"))
        for target in ["install:", "uninstall:", "static:"] { #expect(makefile.contains("\n" + target), "\(target)") }
        let formula = try String(contentsOfFile: Self.packageRoot + "/Formula/tenantctl.rb", encoding: .utf8)
        #expect(formula.contains(#"system "swift", "build", "-c", "release", "--disable-sandbox""#))
        #expect(formula.contains("generate_completions_from_executable"))
        #expect(formula.contains("test do"))
        // Mint and Homebrew build the executable product named like the tool.
        let package = try String(contentsOfFile: Self.packageRoot + "/Package.swift", encoding: .utf8)
        #expect(package.contains(#".executable(name: "tenantctl", targets: ["tenantctl"])"#))
    }

    /// The install section lists only what a new user can run today: while the formula has no release to point at
    /// (its checksum a placeholder), neither Homebrew, Mint nor a release binary is offered as a way to install.
    @Test func theInstallSectionPromisesOnlyWhatExists() throws {
        let formula = try String(contentsOfFile: Self.packageRoot + "/Formula/tenantctl.rb", encoding: .utf8)
        let readme = try String(contentsOfFile: Self.packageRoot + "/README.md", encoding: .utf8)
        let install =
            try #require(readme.components(separatedBy: "\n## Install\n").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        let today = install.components(separatedBy: "**With the first release**").first ?? install
        #expect(today.contains("make install"))
        #expect(today.contains("swift build -c release"))
        if formula.contains(String(repeating: "0", count: 64)) {
            for promise in ["brew install tenantctl", "mint install", "SHA256SUMS", ".tar.gz"] {
                #expect(!today.contains(promise), "the install section offers \(promise), which does not exist yet")
            }
            #expect(install.contains("**With the first release**"), "say what comes with the first release")
        }
        // The formula builds on the platforms the README names for it: no macOS-only requirement for Linux.
        #expect(!formula.contains("depends_on macos:") || !install.contains("Linux)"))
    }

    /// CI fails on a compiler warning in the project's own files (`scripts/check-build-warnings` over the log of
    /// its one build) and not on a dependency's.
    @Test func aWarningOfTheProjectsOwnFailsCIAndADependencysDoesNot() throws {
        let sandbox = try GitSandbox()
        let check = Self.packageRoot + "/scripts/check-build-warnings"
        let root = Self.packageRoot
        let logs: [(String, Int32)] = [
            ("[3/9] Compiling TenantKit A.swift\nBuild complete!\n", 0),
            ("\(root)/.build/checkouts/swift-argument-parser/Sources/A.swift:1:2: warning: deprecated\n", 0),
            ("\(root)/Tests/TenantCLITests/A.swift:67:13: warning: result of call to 'check' is unused\n", 1),
            ("Sources/TenantCLI/A.swift:3:4: warning: variable 'x' was never used\n", 1),
            (
                "macro expansion #expect:2:7: warning: result of call to 'contains' is unused\n"
                    + "`- \(root)/Tests/TenantCLITests/B.swift:130:95: note: expanded code originates here\n", 1
            ),
        ]
        for (index, (log, status)) in logs.enumerated() {
            try sandbox.write("log\(index)", log)
            let run = try sandbox.run(check, [sandbox.path("log\(index)")])
            #expect(run.status == status, "\(log): \(run.stdout)\(run.stderr)")
        }
        let ci = try String(contentsOfFile: Self.packageRoot + "/.ci/run", encoding: .utf8)
        #expect(ci.contains("swift build --build-tests 2>&1 | tee"), "\(ci)")
        #expect(ci.contains("scripts/check-build-warnings"), "\(ci)")
    }

    @Test(.enabled(if: pythonHasYAML, "needs python3 with PyYAML (Debian: python3-yaml)"))
    func theWorkflowsAreValidYAMLAndNameTheirJobs() throws {
        let sandbox = try GitSandbox()
        let check = Self.packageRoot + "/scripts/check-workflows"
        let result = try sandbox.run("/usr/bin/env", ["python3", check])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // The negative control: a copy whose release builds no universal binary and whose CI is no YAML.
        let copy = sandbox.path("copy/.github/workflows")
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        let release = try String(
            contentsOfFile: Self.packageRoot + "/.github/workflows/release.yml", encoding: .utf8)
        try release.replacingOccurrences(of: "--arch arm64 --arch x86_64", with: "--arch arm64").write(
            toFile: copy + "/release.yml", atomically: true, encoding: .utf8)
        try "jobs: [unclosed\n".write(toFile: copy + "/ci.yml", atomically: true, encoding: .utf8)
        let broken = try sandbox.run("/usr/bin/env", ["python3", check, sandbox.path("copy")])
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("release.yml: no universal macOS build"), "\(broken.stderr)")
        #expect(broken.stderr.contains("ci.yml:"), "\(broken.stderr)")
    }
}
