import Foundation

/// Pushes refused because the branch is protected (changes must go through a review): how a server says so, which
/// of the pushed refs it named, and a push that leaves those out and lands the rest.
public enum ReviewProtectedBranches {
    /// What servers print for a protected branch: a `pre-receive` hook's "protected branch", GitHub's `GH006`,
    /// GitLab's "not allowed to push" (compared without case).
    public static let phrases = ["protected branch", "gh006", "not allowed to push"]

    /// The command that proposes what a refused plain roll could not push.
    public static let nextStep = "tenantctl roll --review"

    /// Whether a refused push was refused because a branch is protected.
    public static func isProtected(_ outcome: PushOutcome) -> Bool {
        guard !outcome.accepted else { return false }
        let text = (outcome.remoteMessages + [outcome.detail]).joined(separator: "\n").lowercased()
        return phrases.contains { text.contains($0) }
    }

    /// The refs among `refs` that the server's messages name (a whole ref name, not the start of a longer one);
    /// all of them when it names none (a server that does not say which branch).
    public static func protectedRefs(_ outcome: PushOutcome, among refs: [String]) -> Set<String> {
        let named = refs.filter { ref in outcome.remoteMessages.contains { names($0, ref) } }
        return named.isEmpty ? Set(refs) : Set(named)
    }

    /// Whether `message` names `ref` as a whole (followed by nothing, a space or punctuation that ends a ref).
    static func names(_ message: String, _ ref: String) -> Bool {
        var search = message[...]
        while let range = search.range(of: ref) {
            let after = search[range.upperBound...].first
            if after == nil || after.map({ " :.,;'\"`)".contains($0) }) == true { return true }
            search = search[range.upperBound...]
        }
        return false
    }

    /// What a push that met protected branches did.
    public struct Outcome: Sendable {
        /// Every push made (the refused one first, then the one without the protected refs).
        public var pushes: [PushOutcome]
        /// The refs refused as protected (none when the first push landed or was refused for another reason).
        public var protected: Set<String>
        /// Whether the refs that are not protected landed.
        public var accepted: Bool { pushes.last?.accepted ?? true }
        /// The last push's outcome (the one that decides).
        public var last: PushOutcome? { pushes.last }
    }

    /// Pushes `updates` through `push`; when the server refuses some of them as protected, records those refused
    /// (`record(refs, false)`) and pushes the others again once, so that only the tenants of the protected branches
    /// are left out. `record` is called for every ref with its outcome (nil: the push broke off).
    public static func push(
        _ updates: [RefUpdate], record: (_ refs: [String], _ published: Bool?) throws -> Void,
        push: ([RefUpdate]) throws -> PushOutcome
    ) throws -> Outcome {
        var result = Outcome(pushes: [], protected: [])
        var pending = updates
        while !pending.isEmpty {
            let refs = pending.map(\.ref.name)
            let outcome: PushOutcome
            do {
                outcome = try push(pending)
            } catch {
                try record(refs, nil)
                throw error
            }
            result.pushes.append(outcome)
            guard !outcome.accepted, result.protected.isEmpty, isProtected(outcome) else {
                try record(refs, outcome.accepted)
                return result
            }
            result.protected = protectedRefs(outcome, among: refs)
            try record(refs.filter { result.protected.contains($0) }, false)
            pending = pending.filter { !result.protected.contains($0.ref.name) }
        }
        return result
    }
}

extension ReviewProtectedBranches {
    /// The reason a tenant's report gives: the branch is protected, with what the server said.
    public static func refusal(_ outcome: PushOutcome?) -> String {
        let said = outcome.map { $0.remoteMessages.isEmpty ? $0.detail : $0.remoteMessages.joined(separator: " / ") }
        return "protected: the remote refuses pushes to this branch" + (said.map { " (\($0))" } ?? "")
    }
}

extension RollPublication {
    /// Marks the tenants whose branches of `module` were refused as protected: their superproject branch is not
    /// pushed, and their way out is `roll --review`.
    mutating func noteProtected(_ refs: Set<String>, module: String, execution: RollExecution, plan: RollPlan) {
        guard !refs.isEmpty else { return }
        let first = pushes.last { $0.repository == module && !$0.accepted && ReviewProtectedBranches.isProtected($0) }
        for outcome in execution.moduleMerges
        where outcome.merge.module == module && refs.contains("refs/heads/" + outcome.merge.branch) {
            protectedTenants[outcome.merge.tenant] = "\(module): " + ReviewProtectedBranches.refusal(first)
        }
    }
}
