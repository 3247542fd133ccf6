import Foundation

/// Manners at scale: a roll over many tenants proposes no more than a team and its forge take at once. The `review`
/// object's `maxOpen` caps tenantctl's open proposals per repository and `perHour` the `create` command's runs in an
/// hour; a proposal beyond them is not pushed and waits in the run in the state `queued` ("waiting for a slot") until
/// a later `roll --land` finds room for it. A forge that answers with a rate limit (a `create` command failing with
/// "rate limit", "429", "too many"; a push refused so) is asked again after a pause, then left for the next `--land`:
/// the run is never ended failed for it.
struct ReviewManners {
    /// The review state of a proposal that waits for a slot.
    static let queued = "queued"
    /// The environment variable that sets the first pause in seconds before a rate-limited `create` command is run
    /// again (each further pause doubles it); meant to shorten the pauses, in tests.
    static let backoffVariable = "TENANTCTL_REVIEW_BACKOFF"
    /// The first pause when ``backoffVariable`` does not say.
    static let defaultBackoff: Double = 15
    /// How often a rate-limited `create` command is run again within its time limit.
    static let retries = 3

    /// The superproject's git directory (the journal's and the ledger's place).
    let gitDirectory: String

    /// Whether a forge's answer says it throttles (GitHub's "secondary rate limit", HTTP 429, "too many requests").
    static func isRateLimit(_ text: String) -> Bool {
        let text = text.lowercased()
        return ["rate limit", "rate-limit", "ratelimit", "429", "too many"].contains { text.contains($0) }
    }

    /// The state of a proposal whose push was refused: `queued` when the forge refused it as too many (it goes out
    /// on a later `--land`), `rejected` otherwise.
    static func refusedState(_ outcome: PushOutcome) -> String {
        isRateLimit((outcome.remoteMessages + [outcome.detail]).joined(separator: "\n")) ? queued : "rejected"
    }

    /// The file that keeps when the `create` command ran: one line per run, its time in seconds since 1970.
    var ledger: String { (gitDirectory as NSString).appendingPathComponent("tenantctl/review-create-runs") }

    /// How often the `create` command ran in the last hour.
    func createRunsInTheLastHour(now: Date = Date()) -> Int {
        guard let text = try? String(contentsOfFile: ledger, encoding: .utf8) else { return 0 }
        let since = now.timeIntervalSince1970 - 3600
        return text.split(separator: "\n").compactMap { Double($0) }.filter { $0 > since }.count
    }

    /// Notes one run of the `create` command (before it starts: a run that is killed counted too).
    func noteCreateRun(now: Date = Date()) {
        let line = Data(String(format: "%.0f\n", now.timeIntervalSince1970).utf8)
        if let handle = FileHandle(forWritingAtPath: ledger) {
            handle.seekToEndOfFile()
            handle.write(line)
            try? handle.close()
        } else {
            try? FileManager.default.createDirectory(
                atPath: (ledger as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: ledger, contents: line)
        }
    }

    /// Whether the `create` command may run once more now under `perHour`.
    func mayRunCreate(perHour: Int?) -> Bool {
        guard let perHour else { return true }
        return createRunsInTheLastHour() < perHour
    }

    /// Whether `proposal` would run the `create` command once pushed.
    static func needsCreate(_ proposal: RunJournal.Review, review: ReviewOptions) -> Bool {
        proposal.url == nil && proposal.createStarted != true && proposal.ref.hasPrefix("refs/heads/")
            && review.forge(of: proposal.repository) == .branch
            && review.settings(of: proposal.repository).create != nil
    }

    /// The open proposals of tenantctl per repository that this run does not make: those of the other waiting review
    /// runs (as `<ref> <target>`).
    func openElsewhere() throws -> [String: Set<String>] {
        var open: [String: Set<String>] = [:]
        for run in try RunJournal.all(gitDirectory: gitDirectory).runs where run.state == .waiting {
            for proposal in run.reviews ?? [] where ["proposed", "open", "conflict"].contains(proposal.state) {
                open[proposal.repository, default: []].insert(proposal.ref + " " + proposal.target)
            }
        }
        return open
    }

    /// Holds back the new proposals of `reviews` beyond the limits: each becomes `queued` instead of being pushed.
    /// A proposal that updates one already open (`previous` has its branch, or a waiting run follows it) takes no new
    /// slot; new ones take the free slots in order (module proposals come first).
    func limit(_ reviews: inout [RunJournal.Review], previous: [String: String], review: ReviewOptions) throws {
        var open = try openElsewhere()
        func key(_ proposal: RunJournal.Review) -> String { proposal.ref + " " + proposal.target }
        func isNew(_ proposal: RunJournal.Review) -> Bool {
            proposal.state == "proposed" && previous[proposal.repository + " " + proposal.ref] == nil
                && open[proposal.repository]?.contains(key(proposal)) != true
        }
        let new = reviews.indices.filter { isNew(reviews[$0]) }
        for index in reviews.indices where !new.contains(index) && reviews[index].state != "waiting" {
            open[reviews[index].repository, default: []].insert(key(reviews[index]))
        }
        for index in new {
            let proposal = reviews[index]
            if let maxOpen = review.settings(of: proposal.repository).maxOpen,
                open[proposal.repository, default: []].count >= maxOpen
            {
                reviews[index].state = Self.queued
                continue
            }
            open[proposal.repository, default: []].insert(key(proposal))
        }
        var creates = createRunsInTheLastHour()
        for index in reviews.indices where ["proposed", "open"].contains(reviews[index].state) {
            guard Self.needsCreate(reviews[index], review: review) else { continue }
            if let perHour = review.settings(of: reviews[index].repository).perHour, creates >= perHour {
                // Only one not pushed yet waits; a pushed one gets its review once the hour has room.
                if reviews[index].state == "proposed" { reviews[index].state = Self.queued }
                continue
            }
            creates += 1
        }
    }

    /// Whether a later proposal run could send out one of the `queued` proposals now: a slot in its repository is
    /// free (`following`: the run's proposals as followed now) and the hour has room for its `create` command.
    func hasRoom(_ following: [RunJournal.Review], review: ReviewOptions) throws -> Bool {
        let queued = following.filter { $0.state == Self.queued }
        guard !queued.isEmpty else { return false }
        var open = try openElsewhere()
        for proposal in following where ["proposed", "open", "conflict"].contains(proposal.state) {
            open[proposal.repository, default: []].insert(proposal.ref + " " + proposal.target)
        }
        return queued.contains { proposal in
            let settings = review.settings(of: proposal.repository)
            let slot = settings.maxOpen.map { (open[proposal.repository]?.count ?? 0) < $0 } ?? true
            return slot && (!Self.needsCreate(proposal, review: review) || mayRunCreate(perHour: settings.perHour))
        }
    }

    /// Runs `create` for `proposal`; a rate-limited answer is asked again after a pause (``backoffVariable``,
    /// doubling) while the command's time limit has room, at most ``retries`` times. Each run is noted in the ledger.
    func run(_ create: ReviewCreate, for proposal: ReviewCreate.Proposal, console: Console?) throws
        -> ReviewCreate.Answer
    {
        var pause =
            create.environment[Self.backoffVariable].flatMap(Double.init).flatMap { $0 >= 0 ? $0 : nil }
            ?? Self.defaultBackoff
        var waited: Double = 0
        var attempt = 0
        while true {
            noteCreateRun()
            let answer = try create.run(for: proposal)
            guard case .rateLimited(let said) = answer, attempt < Self.retries, waited + pause < create.timeLimit
            else { return answer }
            console?.warn(
                "\(proposal.repository) \(proposal.target): the forge is throttling (\(said)); asking again in "
                    + "\(Int(pause.rounded(.up))) s")
            // In steps, so that an interrupt does not wait out the pause: the proposal then waits for a slot.
            let end = Date().addingTimeInterval(min(pause, 3600))
            while Date() < end {
                if Cancellator.shared.isCancelled { return answer }
                usleep(100_000)
            }
            waited += pause
            pause *= 2
            attempt += 1
        }
    }

    /// The warning for a proposal left waiting for a slot after the forge kept throttling.
    static func leftForLater(_ proposal: RunJournal.Review, said: String) -> String {
        "\(proposal.repository) \(proposal.target): the forge is still throttling (\(said)): the proposal waits for a "
            + "slot, and `tenantctl roll --land` opens its review later"
    }
}

extension ReviewManners {
    /// The tenants of `reviews` with a proposal waiting for a slot, when one of them has room now (none otherwise).
    static func slotted(_ reviews: [RunJournal.Review], review: ReviewOptions, in workspace: Workspace) -> Set<String> {
        let manners = ReviewManners(gitDirectory: workspace.commonDirectory)
        guard (try? manners.hasRoom(reviews, review: review)) == true else { return [] }
        return Set(reviews.filter { $0.state == queued }.map(\.tenant))
    }

    /// `2 proposals wait for a slot (review.maxOpen, review.perHour): …`, or nil when none does.
    static func slotLine(_ reviews: [RunJournal.Review]) -> String? {
        let count = reviews.filter { $0.state == queued }.count
        guard count > 0 else { return nil }
        return "\(English.count(count, "proposal")) \(count == 1 ? "waits" : "wait") for a slot (`maxOpen` and "
            + "`perHour` of the `review` object in modules.json): `tenantctl roll --land` proposes "
            + "\(count == 1 ? "it" : "them") once the open reviews landed or the hour has room"
    }
}
