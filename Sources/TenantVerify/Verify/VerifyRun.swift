import Foundation

/// One `verify`: the working tree's files checked, then the repositories through the same ``ProjectObservation`` and
/// ``FindingJudge`` as audit. The command parses its options, provides the snapshot (it holds the lock) and renders
/// the result.
public struct VerifyRun: Sendable {
    /// What verify found.
    public struct Result: Sendable {
        /// Every finding, file checks first.
        public var findings: [Finding]
        /// What was not checked, and why.
        public var notes: [String]
        /// The working tree's project, when its files are valid (for the tenants' effective active sets).
        public var project: Project?
    }

    /// How the working tree's files are validated.
    public var validation: ValidationOptions
    /// Repositories read at the same time.
    public var jobs: Int

    public init(validation: ValidationOptions = ValidationOptions(), jobs: Int = 4) {
        self.validation = validation
        self.jobs = jobs
    }

    /// ``run(workspace:snapshot:)`` with the remotes fetched (unless `fetch` is false) under the workspace lock,
    /// waiting for it with `wait`.
    public func run(workspace: Workspace, fetch: Bool, wait: Bool, console: Console?) throws -> Result {
        // Before the files' first push the snapshot is taken twice (the second with the working tree's files): the
        // superproject is fetched by the first only.
        var superprojectFetched = false
        let git = workspace.git
        return try run(workspace: workspace) { project in
            let lock = try WorkspaceLock(
                gitDirectory: workspace.commonDirectory, waiting: .readOnly(wait: wait), console: console)
            defer { lock.release() }
            var options = Snapshot.Options(
                purpose: .report, fetch: fetch, jobs: jobs, allowLocalRemotes: git.allowLocalRemotes, project: project)
            options.superprojectFetched = superprojectFetched
            do {
                return try Snapshot.load(workspace: workspace, options: options, console: console)
            } catch let error as GitError {
                throw error  // the fetch itself may have failed: a second snapshot fetches again
            } catch {
                superprojectFetched = fetch
                throw error
            }
        }
    }

    /// Runs the checks. `snapshot` takes the snapshot of the remotes (with the working tree's project when given:
    /// before the files' first push).
    public func run(workspace: Workspace, snapshot: (Project?) throws -> Snapshot) throws -> Result {
        var result = Result(findings: [], notes: [], project: nil)
        var filesOnly = false
        do {
            let project = try ProjectReader.workingTree(workspace, options: validation)
            result.project = project
            if let gitmodules = try workspace.superproject.gitmodules(file: ".gitmodules") {
                result.findings += FileVerifier.gitmodulesDrift(
                    project: project, gitmodules: gitmodules.entries, where: "working tree")
            } else if try workspace.superproject.indexHasGitlinks() {
                result.findings.append(
                    Finding(
                        code: .gitmodulesDrift,
                        message: "working tree: submodules are recorded but there is no .gitmodules file"))
            } else {
                filesOnly = true
                result.notes.append("no .gitmodules and no submodules yet: only the files were checked")
            }
        } catch let error as ManifestError {
            result.findings += error.problems.map {
                Finding(code: .invalidFile, message: $0.description, repository: Finding.superproject)
            }
        }
        if filesOnly {
            // A description of modules and tenants without submodules (such as tenantctl's own repository, or a
            // project before `module add`): there is nothing in git to check the files against.
        } else if try SuperprojectRemote.originURL(workspace) != nil {
            result.findings += try gitFindings(
                workspace, project: result.project, notes: &result.notes, snapshot: snapshot)
        } else {
            result.notes.append("the superproject has no remote \(workspace.remoteName): the git checks were skipped")
        }
        return result
    }

    /// The checks against the remotes; before the files' first push, with the working tree's files.
    func gitFindings(
        _ workspace: Workspace, project: Project?, notes: inout [String], snapshot: (Project?) throws -> Snapshot
    ) throws -> [Finding] {
        let state: Snapshot
        do {
            do {
                state = try snapshot(nil)
            } catch let error as ManifestError {
                throw error
            } catch {
                // Before the files' first push (adopting, docs/adopting.md step 2): check the working tree's files
                // against the remotes.
                let branch =
                    project?.manifest.generalBranch ?? ProjectReader.generalBranchHint(workspace).branch
                    ?? ModuleManifest.defaultGeneralBranch
                guard try !Snapshot.remoteHasProjectFiles(workspace, branch: branch) else { throw error }
                guard let project else {
                    notes.append(
                        "\(workspace.remoteName)/\(branch) has no modules.json yet and the working tree's files are "
                            + "invalid: the git checks were skipped")
                    return []
                }
                notes.append(
                    "\(workspace.remoteName)/\(project.manifest.generalBranch) has no modules.json yet: the git "
                        + "checks used the working tree's files")
                state = try snapshot(project)
            }
        } catch let error as ManifestError {
            return error.problems.map {
                Finding(
                    code: .invalidFile, message: $0.description, repository: Finding.superproject,
                    branch: ModuleManifest.defaultGeneralBranch)
            }
        }
        return try GitVerifier.findings(snapshot: state, jobs: jobs)
    }
}
