import Foundation

/// A finding of `verify` (the one ``Finding`` type audit shares).
public typealias VerifyFinding = Finding

/// Checks that need only the files: `.gitmodules` agrees with `modules.json`, effective active sets.
public enum FileVerifier {
    /// Compares `.gitmodules` (as read on `where`) with the manifest, by the judge's one rule
    /// (``FindingJudge/gitmodulesDrift(project:gitmodules:where:moved:)``).
    public static func gitmodulesDrift(
        project: Project, gitmodules: [GitmodulesEntry], where label: String, moved: [String: String] = [:]
    ) -> [VerifyFinding] {
        FindingJudge.gitmodulesDrift(project: project, gitmodules: gitmodules, where: label, moved: moved)
    }
}
