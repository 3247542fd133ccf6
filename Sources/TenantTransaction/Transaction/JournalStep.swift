import Foundation

/// One step a run journal records for a repository: a ref that changes, a checkout's HEAD that moved, or a module's
/// checkout that moved to another path. Only a ref step is a change git makes to a ref (``refUpdate``); the other
/// two are working-copy steps.
///
/// In the journal file every step is one object of the same three members, as it always was: `ref` (the full ref
/// name, `HEAD`, or `checkout-path`), `new` and `old` (each left out when there is none) — object ids for a ref and
/// for HEAD, paths relative to the worktree for a checkout's move.
public enum JournalStep: Sendable, Equatable, Hashable {
    /// A ref changes: a branch, a tag, a proposal's ref.
    case ref(RefUpdate)
    /// A checkout's HEAD moved to `new` from `old` (nil: the checkout had none, it was cloned).
    case head(new: ObjectID, old: ObjectID?)
    /// A module's checkout moved to the path `to` from the path `from` (both relative to the worktree).
    case checkoutMove(to: String, from: String)

    /// What the journal names a HEAD step's ref.
    public static let headName = "HEAD"
    /// What the journal names a checkout move's ref.
    public static let checkoutMoveName = "checkout-path"

    /// The step the journal's text fields describe: `ref` names a ref, HEAD or a checkout's move. Throws
    /// ``JournalStepError`` naming the value that is not what such a step holds (an object id, a full ref name, a
    /// path).
    public init(ref: String, new: String?, old: String?) throws(JournalStepError) {
        func id(_ text: String?) throws(JournalStepError) -> ObjectID? {
            guard let text else { return nil }
            guard let id = ObjectID(text) else {
                throw JournalStepError(ref: ref, value: text, what: "a full object id")
            }
            return id
        }
        switch ref {
        case Self.headName:
            guard let new = try id(new) else {
                throw JournalStepError(ref: ref, value: "", what: "the commit it moved to")
            }
            self = .head(new: new, old: try id(old))
        case Self.checkoutMoveName:
            guard let new, let old else {
                throw JournalStepError(ref: ref, value: new ?? old ?? "", what: "a move from one path to another")
            }
            self = .checkoutMove(to: new, from: old)
        default:
            guard let name = RefName(ref) else { throw JournalStepError(ref: ref, value: ref, what: "a full ref name") }
            self = .ref(RefUpdate(ref: name, new: try id(new), old: try id(old)))
        }
    }

    /// The ref change of a ref step; nil for a working-copy step (HEAD, a checkout's move).
    public var refUpdate: RefUpdate? {
        if case .ref(let update) = self { return update }
        return nil
    }

    /// The journal's `ref` member: the full ref name, `HEAD`, or `checkout-path`.
    public var name: String {
        switch self {
        case .ref(let update): update.ref.name
        case .head: Self.headName
        case .checkoutMove: Self.checkoutMoveName
        }
    }

    /// The journal's `new` member: the ref's or HEAD's new object id, or the path a checkout moved to.
    public var newValue: String? {
        switch self {
        case .ref(let update): update.new?.hex
        case .head(let new, _): new.hex
        case .checkoutMove(let to, _): to
        }
    }

    /// The journal's `old` member: the ref's or HEAD's object id before, or the path a checkout moved from.
    public var oldValue: String? {
        switch self {
        case .ref(let update): update.old?.hex
        case .head(_, let old): old?.hex
        case .checkoutMove(_, let from): from
        }
    }
}

extension JournalStep: Codable {
    private enum CodingKeys: String, CodingKey {
        case ref, new, old
    }

    /// Decodes `{"ref":…,"new":…,"old":…}`; a value that is not what its step holds is a data-corrupted error naming
    /// it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let ref = try container.decode(String.self, forKey: .ref)
        do {
            try self.init(
                ref: ref, new: try container.decodeIfPresent(String.self, forKey: .new),
                old: try container.decodeIfPresent(String.self, forKey: .old))
        } catch let error as JournalStepError {
            throw DecodingError.dataCorruptedError(
                forKey: .ref, in: container, debugDescription: error.description)
        }
    }

    /// Encodes the three members, `new` and `old` left out when there is none (as the journal always had them).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .ref)
        try container.encodeIfPresent(newValue, forKey: .new)
        try container.encodeIfPresent(oldValue, forKey: .old)
    }
}

/// A journal step whose value is not what the step holds (a damaged journal, or a bug).
public struct JournalStepError: Error, Equatable, CustomStringConvertible {
    /// The step's `ref` member.
    public var ref: String
    /// The value that is not valid.
    public var value: String
    /// What it should have been.
    public var what: String

    public var description: String {
        "the journal step of \(ref) holds \(value.debugDescription), not \(what)"
    }
}
