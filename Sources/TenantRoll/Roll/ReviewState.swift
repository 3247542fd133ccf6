/// Review states that mean "people still have to act": a run with one of them is waiting.
enum ReviewState {
    static let open: Set<String> = ["proposed", "open", "waiting", "queued"]
    static let attention: Set<String> = ["conflict", "closed", "rejected"]
    /// States after which a proposal is no longer followed: a run whose proposals are all so has ended.
    static let ended: Set<String> = ["landed", "abandoned", "superseded"]
}
