import Foundation

/// The `create` command of the `review` object (`["gh", "pr", "create", "--base", "{target}", "--head", "{branch}",
/// …]`): run for each proposal branch that has no review yet, once its push landed, as an argument vector (no shell),
/// with the placeholders filled in and the same values in its environment; the last line of its standard output is
/// the review's address. It is stopped after ``timeLimit`` seconds. A command that fails stops the run, named with
/// its words and exit status: the proposal branch stays, and the next `roll --review` adopts it and runs the command
/// for it again. One stopped at the time limit may have opened the review: it is not run again for that branch.
struct ReviewCreate {
    /// What the command is told of one proposal.
    struct Proposal: Sendable {
        /// `superproject` or the module's name.
        var repository: String
        var tenant: String
        /// The repository's remote URL (`{repo}`).
        var remote: String
        /// The branch it lands into (`{target}`).
        var target: String
        /// The proposal branch (`{branch}`: `tenantctl/roll/t2`).
        var branch: String
        /// The proposed commit's subject (`{title}`) and the rest of its message (`{body}`).
        var title: String
        var body: String
    }

    /// Seconds the command may take when ``timeLimitVariable`` does not say.
    static let defaultTimeLimit: Double = 120
    /// The environment variable that sets the time limit in seconds.
    static let timeLimitVariable = "TENANTCTL_REVIEW_CREATE_TIMEOUT"

    /// The command's words, placeholders unfilled.
    let words: [String]
    /// The environment it runs in (tenantctl's own), before the proposal's variables are added.
    let environment: [String: String]
    /// The command that proposes again and runs this one again after it failed (`tenantctl roll --review`, or
    /// `tenantctl resolve --continue` for a resolution proposed as a review).
    let again: String

    init(
        words: [String], again: String = "tenantctl roll --review",
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.words = words
        self.again = again
        self.environment = environment
    }

    /// The time limit in seconds.
    var timeLimit: Double {
        environment[Self.timeLimitVariable].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil } ?? Self.defaultTimeLimit
    }

    /// The placeholders' values for `proposal`.
    static func values(_ proposal: Proposal) -> [String: String] {
        [
            "repo": proposal.remote, "target": proposal.target, "branch": proposal.branch, "title": proposal.title,
            "body": proposal.body,
        ]
    }

    /// The environment variables that tell the command the same (`TENANTCTL_REVIEW_TARGET` …), with the repository
    /// and tenant.
    static func variables(_ proposal: Proposal) -> [String: String] {
        var variables = Dictionary(
            uniqueKeysWithValues: values(proposal).map { ("TENANTCTL_REVIEW_" + $0.key.uppercased(), $0.value) })
        variables["TENANTCTL_REVIEW_REPOSITORY"] = proposal.repository
        variables["TENANTCTL_REVIEW_TENANT"] = proposal.tenant
        return variables
    }

    /// The argument vector for `proposal`: each known placeholder replaced by its value, in one pass (a value that
    /// contains braces is not read again).
    func arguments(for proposal: Proposal) -> [String] {
        let values = Self.values(proposal)
        return words.map { word in
            var result = ""
            var rest = word[...]
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                let name = String(rest[rest.index(after: open)..<close])
                result += rest[..<open]
                result += values[name] ?? String(rest[open...close])
                rest = rest[rest.index(after: close)...]
            }
            return result + rest
        }
    }

    /// What the command did, when it did not fail.
    enum Answer: Equatable {
        /// It printed the review's address.
        case address(String)
        /// It was stopped at the time limit: it may have opened the review. The error says so.
        case stopped(RollError)
        /// It failed with a rate limit's answer (what it said): it opened nothing, and may be asked again later.
        case rateLimited(String)
    }

    /// Runs the command for `proposal`; returns the review's address (the last line of its standard output), or that
    /// the time limit stopped it. A command that cannot start, fails or prints nothing throws: it opened nothing.
    func run(for proposal: Proposal) throws -> Answer {
        let vector = arguments(for: proposal)
        let shown = "`" + ShellWord.line(vector) + "`"
        let what = "the create command for \(proposal.repository) \(proposal.target)"
        let next =
            "; the proposal branch \(proposal.branch) stays pushed: fix the command (`create` of the `review` object "
            + "in modules.json) or open the review by hand, then run `\(again)` again: it adopts the proposal and "
            + "runs the command for it again"
        guard let program = vector.first,
            let executable = ExternalProgram.find(program, path: environment["PATH"] ?? "/usr/bin:/bin")
        else {
            throw RollError("\(what) cannot start: no executable \"\(vector.first ?? "")\" in PATH (\(shown))" + next)
        }
        let result: ExternalProgram.Limited
        do {
            result = try ExternalProgram.run(
                executable: executable, arguments: Array(vector.dropFirst()),
                environment: environment.merging(Self.variables(proposal)) { $1 }, timeLimit: timeLimit)
        } catch {
            throw RollError("\(what) cannot start (\(shown)): \(error)" + next)
        }
        if result.timedOut {
            return .stopped(
                RollError(
                    "\(what) did not end within \(Int(timeLimit)) s and was stopped (\(shown)); it may have opened "
                        + "the review: check the forge for a review of \(proposal.branch) into \(proposal.target), "
                        + "and open it by hand if there is none (`\(ShellWord.line(vector))`). `\(again)` does not "
                        + "run the command for this proposal branch again"))
        }
        let said = result.output.stderr.split(separator: "\n").suffix(5).joined(separator: " / ")
        if result.output.status != 0, ReviewManners.isRateLimit(result.output.stderr + "\n" + result.output.text) {
            return .rateLimited(said.isEmpty ? "exit \(result.output.status)" : said)
        }
        guard result.output.status == 0 else {
            throw RollError(
                "\(what) exited \(result.output.status) (\(shown))" + (said.isEmpty ? "" : ": \(said)") + next)
        }
        let lines = result.output.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let address = lines.last(where: { !$0.isEmpty }) else {
            throw RollError(
                "\(what) printed nothing (\(shown)): it must print the review's address on its standard output"
                    + next)
        }
        return .address(String(address.prefix(2000)))
    }

    /// The first web address a forge printed in its answer to a push (GitLab's, Gerrit's and Gitea's
    /// `remote: https://…` line about the review), or nil.
    static func address(inServerMessages messages: [String]) -> String? {
        for message in messages {
            for word in message.split(whereSeparator: { $0 == " " || $0 == "\t" })
            where word.hasPrefix("https://") || word.hasPrefix("http://") {
                return String(word.prefix(2000))
            }
        }
        return nil
    }
}
