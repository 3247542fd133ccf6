import ArgumentParser
import TenantKit

/// `--no-fetch`: work from the refs and module mirrors as the last fetch left them.
struct FetchOptions: ParsableArguments, Sendable {
    @Flag(help: "Do not fetch; use the remote-tracking refs and module mirrors as the last fetch left them.")
    var noFetch = false

    /// Whether to fetch first.
    var fetch: Bool { !noFetch }
}

/// `--jobs`: how many module repositories are fetched at the same time.
struct JobsOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Module repositories fetched at the same time (at least 1).", valueName: "n"))
    var jobs = 4

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }
}
