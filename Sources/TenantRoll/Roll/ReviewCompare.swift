import Foundation

/// A proposal branch pushed with no review opened (kind `branch` without a `create` command: tenantctl pushes the
/// branch, and nothing opens the pull request): the proposal says so, with the host's address that opens a review of
/// the branch where the remote is a known host, and how tenantctl opens them itself (`review.create`, `--forge`).
public enum ReviewCompare {
    /// What the report says under the proposals when one was pushed with no review opened.
    public static let advice =
        "no review was opened for the proposal branches: open each at the address shown, or let tenantctl open them: "
        + "set `create` in the `review` object of modules.json (review.create, e.g. [\"gh\", \"pr\", \"create\", "
        + "\"--base\", \"{target}\", \"--head\", \"{branch}\", \"--title\", \"{title}\", \"--body\", \"{body}\"]), or "
        + "propose with --forge gitlab, --forge agit or --forge gerrit where the forge opens a review on a push"

    /// The web address on which the host of `remote` opens a review of `branch` into `target`: GitHub's compare page,
    /// GitLab's new merge request, Bitbucket's new pull request, Gitea's (and Forgejo's, Codeberg's) compare page;
    /// for the https and the ssh forms of the remote URL (`git@host:owner/repo.git`, `ssh://git@host/owner/repo`).
    /// Nil for a host none of them is known by (its name says which: `github`, `gitlab`, `bitbucket`, `gitea`,
    /// `forgejo`, `codeberg`), a local path or a file URL.
    public static func address(remote: String, target: String, branch: String) -> String? {
        guard let (host, path) = hostAndPath(remote), !path.isEmpty else { return nil }
        let base = "https://\(host)/\(path)"
        let name = host.lowercased()
        if name.contains("github") { return "\(base)/compare/\(target)...\(branch)?expand=1" }
        if name.contains("gitlab") {
            return "\(base)/-/merge_requests/new?merge_request%5Bsource_branch%5D=\(branch)"
                + "&merge_request%5Btarget_branch%5D=\(target)"
        }
        if name.contains("bitbucket") { return "\(base)/pull-requests/new?source=\(branch)&dest=\(target)" }
        if ["gitea", "forgejo", "codeberg"].contains(where: name.contains) {
            return "\(base)/compare/\(target)...\(branch)"
        }
        return nil
    }

    /// The host (without user and port) and the repository's path (without `.git` and slashes at either end) of a
    /// remote URL: `https://[user@]host[:port]/path`, `ssh://[user@]host[:port]/path`, `[user@]host:path`.
    static func hostAndPath(_ remote: String) -> (String, String)? {
        var rest = Substring(remote)
        var scpLike = false
        if let scheme = rest.range(of: "://") {
            guard ["https", "http", "ssh", "git+ssh"].contains(rest[..<scheme.lowerBound].lowercased()) else {
                return nil
            }
            rest = rest[scheme.upperBound...]
        } else {
            // `host:path` without a slash before the colon; a path (`/srv/…`, `../app`) is none.
            guard let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains("/") else { return nil }
            scpLike = true
        }
        if let at = rest.firstIndex(of: "@"), rest[..<at].allSatisfy({ $0 != "/" }) {
            rest = rest[rest.index(after: at)...]
        }
        let separator: Character = scpLike ? ":" : "/"
        guard let end = rest.firstIndex(of: separator) else { return nil }
        var host = rest[..<end]
        if !scpLike, let port = host.firstIndex(of: ":") { host = host[..<port] }
        var path = rest[rest.index(after: end)...]
        while path.hasSuffix("/") { path = path.dropLast() }
        if path.hasSuffix(".git") { path = path.dropLast(4) }
        while path.hasPrefix("/") { path = path.dropFirst() }
        guard !host.isEmpty, host.contains(".") || host == "localhost" else { return nil }
        return (String(host), String(path))
    }

    /// Marks each open proposal branch that nothing opened a review for (kind `branch`, no `create` command, no
    /// address): ``RunJournal/Review/reviewOpened`` false, with the host's address (``address(remote:target:branch:)``)
    /// in ``RunJournal/Review/compare``; `remote` gives a repository's remote URL. For the report: the journal keeps
    /// neither.
    static func marking(
        _ reviews: [RunJournal.Review], review: ReviewOptions, remote: (String) -> String?
    ) -> [RunJournal.Review] {
        reviews.map { proposal in
            var proposal = proposal
            guard ["proposed", "open"].contains(proposal.state), proposal.url == nil,
                proposal.ref.hasPrefix("refs/heads/"), review.forge(of: proposal.repository) == .branch,
                review.settings(of: proposal.repository).create == nil
            else { return proposal }
            proposal.reviewOpened = false
            proposal.compare = remote(proposal.repository).flatMap {
                address(
                    remote: $0, target: proposal.target, branch: String(proposal.ref.dropFirst("refs/heads/".count)))
            }
            return proposal
        }
    }
}
