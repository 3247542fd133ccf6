import Foundation

/// The answer of one `git push --atomic --porcelain`.
public struct PushOutcome: Sendable, Equatable, Codable {
    /// `superproject` or a module name.
    public var repository: String
    /// True when every ref was updated.
    public var accepted: Bool
    /// git's summary of the refs that were refused, and the server's own messages (empty when accepted).
    public var detail: String
    /// What the server printed (`remote: …` lines, without the prefix): a hook's reason for a rejection.
    public var remoteMessages: [String]

    public init(repository: String, accepted: Bool, detail: String, remoteMessages: [String] = []) {
        self.repository = repository
        self.accepted = accepted
        self.detail = detail
        self.remoteMessages = remoteMessages
    }
}

extension PushOutcome {
    /// Throws when the push was refused: the refused refs and the server's messages, and that nothing changed.
    public func requireAccepted() throws {
        guard !accepted else { return }
        throw PushError(
            "the push to \(repository) was rejected; no ref of \(repository) changed (atomic push): \(detail)")
    }
}
