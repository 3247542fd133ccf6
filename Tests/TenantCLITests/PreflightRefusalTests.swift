import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// One way to make a writing command refuse before it changes anything, and the same command succeeding without it.
enum PreflightCase: String, CaseIterable, Sendable {
    case switchOverBranchClash, switchOverUntrackedFile, pinWithModifiedFile, resolveWithModifiedFile
    case customizeWithoutIdentity, undoWithoutIdentity, tenantAddWithoutIdentity, tenantRemoveWithoutIdentity
    case moduleAddWithoutIdentity, moduleRemoveWithoutIdentity, tagThatExists, initOfUnknownGeneralBranch
    case rollWithoutIdentity

    var stage: ExampleStage { self == .resolveWithModifiedFile ? .conflict : .afterUpdates }

    /// The command, refused with the fault and run as the positive control without it.
    var arguments: [String] {
        switch self {
        case .switchOverBranchClash, .switchOverUntrackedFile: return ["switch", "t3"]
        case .pinWithModifiedFile: return ["pin"]
        case .resolveWithModifiedFile: return ["resolve", "t2"]
        case .customizeWithoutIdentity: return ["customize", "t1", "Article"]
        case .undoWithoutIdentity: return ["customize", "--undo", "t1", "Article"]
        case .tenantAddWithoutIdentity: return ["tenant", "add", "t4", "--from", "t2"]
        case .tenantRemoveWithoutIdentity: return ["tenant", "remove", "t2", "--archive"]
        case .moduleAddWithoutIdentity: return LifecycleSweepTests.addInvoice
        case .moduleRemoveWithoutIdentity: return ["module", "remove", "Invoice"]
        case .tagThatExists: return ["tag", "M1"]
        case .initOfUnknownGeneralBranch: return ["init"]
        case .rollWithoutIdentity: return ["roll"]
        }
    }

    /// The refused run's extra arguments.
    var refusedArguments: [String] { self == .initOfUnknownGeneralBranch ? ["--general-branch", "nope"] : [] }

    /// What the refusal says.
    var refusal: String {
        switch self {
        case .switchOverBranchClash: return "local branch t3/wip blocks creating branch t3"
        case .switchOverUntrackedFile: return "Order+OrderDate.swift"
        case .pinWithModifiedFile, .resolveWithModifiedFile: return "modified file; commit or stash it first"
        case .tagThatExists: return "tag DEV-M1 exists on the superproject's remote"
        case .initOfUnknownGeneralBranch: return "the superproject has no branch nope"
        default: return "author identity"
        }
    }

    /// The positive control's exit status (resolve stops at its conflicts: 2).
    var controlStatus: Int32 { self == .resolveWithModifiedFile ? 2 : 0 }

    var withoutIdentity: Bool { rawValue.hasSuffix("WithoutIdentity") }

    /// Brings a fresh example to where both runs start.
    func prepare(_ sandbox: GitSandbox, _ example: ExampleResult) throws {
        let workspace = example.workspace
        var commands: [[String]] = []
        switch self {
        case .pinWithModifiedFile:
            try sandbox.git(["merge", "-q", "--ff-only", "origin/general_dev"], in: workspace + "/Modules/Order")
        case .resolveWithModifiedFile:
            commands = [["roll"]]
        case .undoWithoutIdentity:
            commands = [["customize", "t1", "Article"]]
        case .moduleAddWithoutIdentity, .moduleRemoveWithoutIdentity:
            let source =
                URL(fileURLWithPath: example.remotes).deletingLastPathComponent().lastPathComponent
                + "-invoice-src"
            try sandbox.makeRepository(source, branch: "general_dev", files: ["Invoice.swift": "// invoice\n"])
            try sandbox.git(["clone", "-q", "--bare", sandbox.path(source), example.remotes + "/Invoice.git"])
            if self == .moduleRemoveWithoutIdentity { commands = [LifecycleSweepTests.addInvoice] }
        case .initOfUnknownGeneralBranch:
            try FileManager.default.removeItem(atPath: workspace + "/Tenants/t1.json")
        default:
            break
        }
        for command in commands {
            let run = sandbox.tenantctl(command, in: workspace, environment: FaultLab.dates)
            try #require(run.status == 0 || run.status == 2, "\(command): \(run.stderr)")
        }
    }

    /// Breaks the prepared example so that the command refuses; returns the environment of the refused run.
    func provoke(_ sandbox: GitSandbox, _ example: ExampleResult) throws -> [String: String] {
        let workspace = example.workspace
        switch self {
        case .switchOverBranchClash:
            try sandbox.git(["branch", "t3/wip"], in: workspace)
        case .switchOverUntrackedFile:
            // Order's branch t3 adds this file; an untracked one in its place would be overwritten.
            try "// mine\n".write(
                toFile: workspace + "/Modules/Order/Sources/Order/Order+OrderDate.swift", atomically: false,
                encoding: .utf8)
        case .pinWithModifiedFile, .resolveWithModifiedFile:
            let file = workspace + "/Modules/Order/Strings.csv"
            try (String(contentsOfFile: file, encoding: .utf8) + "mine\n").write(
                toFile: file, atomically: false, encoding: .utf8)
        case .tagThatExists:
            // At another commit than general_dev's tip, which the tag DEV-M1 would name.
            try sandbox.git(["tag", "DEV-M1", "t1"], in: example.remotes + "/Superproject.git")
        default:
            break
        }
        guard withoutIdentity else { return FaultLab.dates }
        // No user.name or user.email anywhere, and git may not guess them.
        let config = sandbox.path("no-identity.gitconfig")
        try "[protocol \"file\"]\n\tallow = always\n[user]\n\tuseConfigOnly = true\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        return FaultLab.dates.merging(["GIT_CONFIG_GLOBAL": config]) { $1 }
    }
}

/// A writing command refused by its pre-flight leaves every repository byte for byte as it was: HEADs, every ref, the
/// index files, the status with untracked and ignored files and their content, the remotes' refs
/// (``RepositoryFingerprint``). The positive control runs the same command without the fault: it succeeds, and the
/// fingerprint changes.
@Suite(.tags(.slow), .notInTheFastSet) struct PreflightRefusalTests {
    static func example(_ sandbox: GitSandbox, _ name: String, _ refusal: PreflightCase) throws -> ExampleResult {
        let example = try sandbox.exampleCopy(in: sandbox.path(name), stage: refusal.stage)
        try refusal.prepare(sandbox, example)
        return example
    }

    @Test(arguments: PreflightCase.allCases)
    func aRefusalLeavesEveryRepositoryByteForByteUnchanged(_ refusal: PreflightCase) throws {
        let sandbox = try GitSandbox()
        let refused = try Self.example(sandbox, "refused", refusal)
        let environment = try refusal.provoke(sandbox, refused)
        let before = try RepositoryFingerprint(workspace: refused.workspace, sandbox: sandbox)
        let run = sandbox.tenantctl(
            refusal.arguments + refusal.refusedArguments, in: refused.workspace, environment: environment)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains(refusal.refusal), "\(run.stderr)")
        let after = try RepositoryFingerprint(workspace: refused.workspace, sandbox: sandbox)
        #expect(after.differences(from: before).isEmpty, "\(after.differences(from: before).joined(separator: "\n"))")

        // Positive control: without the fault the same command succeeds and the fingerprint shows it.
        let control = try Self.example(sandbox, "control", refusal)
        let start = try RepositoryFingerprint(workspace: control.workspace, sandbox: sandbox)
        let done = sandbox.tenantctl(refusal.arguments, in: control.workspace, environment: FaultLab.dates)
        #expect(done.status == refusal.controlStatus, "\(done.stdout)\(done.stderr)")
        let changes = try RepositoryFingerprint(workspace: control.workspace, sandbox: sandbox).differences(from: start)
        #expect(!changes.isEmpty)
        // The fingerprint reads the remotes too: the tags a control run pushes show there.
        if refusal == .tagThatExists {
            #expect(changes.contains { $0.contains("Superproject.git refs") && $0.contains("refs/tags/DEV-M1") })
        }
    }
}
