import Foundation

/// One `compose`: the input chosen (the fetched refs under the workspace lock, or the working copy), planned, then
/// compared with the output directory or written into it, and reported. The command parses its options, resolves
/// `--out` and renders the ``ComposeReport``; a ``ComposeError`` (nothing written) is its exit status 1.
public struct ComposeRun: Sendable {
    /// The tenant (id or branch) read from the fetched refs; nil: the working copy's tenant.
    public var tenant: String?
    /// The output directory (absolute); nil: ``ComposeLayout/defaultOutput`` in the superproject root.
    public var outputDirectory: String?
    /// Compare only: write nothing, report whether the directory is stale.
    public var check: Bool
    /// With a tenant: fetch the superproject and the module mirrors first.
    public var fetch: Bool
    /// With a tenant: repositories fetched at the same time.
    public var jobs: Int
    /// With a tenant and `fetch`: wait for the workspace lock instead of failing fast.
    public var wait: Bool

    public init(
        tenant: String? = nil, outputDirectory: String? = nil, check: Bool = false, fetch: Bool = true, jobs: Int = 4,
        wait: Bool = false
    ) {
        self.tenant = tenant
        self.outputDirectory = outputDirectory
        self.check = check
        self.fetch = fetch
        self.jobs = jobs
        self.wait = wait
    }

    /// Composes into (or, with ``check``, compares with) the output directory. Local remotes are allowed as the
    /// workspace's runner allows them.
    public func run(workspace: Workspace, console: Console?) throws -> ComposeReport {
        let directory = outputDirectory ?? workspace.path(ComposeLayout.defaultOutput)
        let input = try read(workspace: workspace, console: console)
        let result = try ComposePlanner.plan(input)
        let files =
            check
            ? try ComposeOutput.compare(result.plan, with: directory)
            : try ComposeOutput.write(result.plan, to: directory)
        return ComposeReport(input: input, result: result, outputDirectory: directory, check: check, files: files)
    }

    /// The input: the tenant from the fetched refs, or the working copy's tenant.
    func read(workspace: Workspace, console: Console?) throws -> ComposeInput {
        guard let tenant else {
            return try ComposeReader.workingCopy(
                workspace, options: ValidationOptions(allowLocalRemotes: workspace.git.allowLocalRemotes))
        }
        // The lock guards the fetch into the mirrors (taken only when fetching, as audit does).
        let lock =
            fetch
            ? try WorkspaceLock(
                gitDirectory: workspace.commonDirectory, waiting: .readOnly(wait: wait), console: console) : nil
        defer { lock?.release() }
        return try ComposeReader.fetched(
            tenant: tenant, workspace: workspace,
            options: Snapshot.Options(
                purpose: .strict, fetch: fetch, jobs: jobs, allowLocalRemotes: workspace.git.allowLocalRemotes),
            console: console)
    }
}
