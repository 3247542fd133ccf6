import Foundation

/// How a review-based roll proposes on a forge: what is pushed where. Every kind works over plain `git push`.
public enum ReviewForge: String, Sendable, Equatable, Hashable, CaseIterable {
    /// A proposal branch per repository and tenant (GitHub, Bitbucket, Gitea or any host).
    case branch
    /// AGit (Gitea, Forgejo): `refs/for/<target>` with the push option `topic=<topic>`.
    case agit
    /// GitLab: the proposal branch with the push options `merge_request.create` and `merge_request.target=<target>`.
    case gitlab
    /// Gerrit: `refs/for/<target>%topic=<topic>`, each commit carrying a `Change-Id`.
    case gerrit
}

/// The `review` object of `modules.json` (and of one module's entry, which overrides it for that module): how
/// `tenantctl roll --review` proposes, so that it needs no flag.
///
/// ```json
/// "review": {"forge": "gitlab", "branchPrefix": "tenantctl/roll", "create": ["gh", "pr", "create", …]}
/// ```
public struct ReviewSettings: Sendable, Equatable, Hashable {
    /// What is pushed where; nil: the module's or the manifest's, else `branch`.
    public var forge: ReviewForge?
    /// Proposal branches are `<branchPrefix>/<tenant>`; nil: `tenantctl/roll`.
    public var branchPrefix: String?
    /// The command that opens a review for a proposal branch (an argument vector, run without a shell), with the
    /// placeholders ``placeholders``; its standard output is the review's address. Nil: none.
    public var create: [String]?
    /// At most this many of tenantctl's proposals open at a time in one repository; the rest wait in the run for a
    /// slot (a later `roll --land` proposes them). Nil: no limit.
    public var maxOpen: Int?
    /// At most this many runs of the `create` command in an hour; the rest wait in the run for a slot. Nil: no limit.
    public var perHour: Int?

    /// The words `create` may contain in braces.
    public static let placeholders = ["{repo}", "{target}", "{branch}", "{title}", "{body}"]

    public init(
        forge: ReviewForge? = nil, branchPrefix: String? = nil, create: [String]? = nil, maxOpen: Int? = nil,
        perHour: Int? = nil
    ) {
        self.forge = forge
        self.branchPrefix = branchPrefix
        self.create = create
        self.maxOpen = maxOpen
        self.perHour = perHour
    }

    /// These settings with `other`'s where it sets them (a module's over the manifest's).
    public func overridden(by other: ReviewSettings?) -> ReviewSettings {
        guard let other else { return self }
        return ReviewSettings(
            forge: other.forge ?? forge, branchPrefix: other.branchPrefix ?? branchPrefix,
            create: other.create ?? create, maxOpen: other.maxOpen ?? maxOpen, perHour: other.perHour ?? perHour)
    }

    /// The keys of the object.
    static let keys = ["forge", "branchPrefix", "create", "maxOpen", "perHour"]

    /// Decodes and checks a `review` object at `field` (`review`, `modules[2].review`); nil after a problem,
    /// reported with the field that has it.
    package static func decode(_ value: JSONValue, at field: String, decoder: inout FieldDecoder) -> ReviewSettings? {
        guard let members = decoder.object(value, at: field, allowed: keys, required: []) else { return nil }
        let before = decoder.problems.count
        var settings = ReviewSettings()
        if let value = members["forge"], let kind = decoder.string(value, at: field + ".forge") {
            if let forge = ReviewForge(rawValue: kind) {
                settings.forge = forge
            } else {
                decoder.report(
                    field + ".forge",
                    "unknown forge kind \"\(kind)\": "
                        + ReviewForge.allCases.map(\.rawValue).joined(separator: ", "))
            }
        }
        if let value = members["branchPrefix"], let prefix = decoder.string(value, at: field + ".branchPrefix") {
            if let reason = problem(branchPrefix: prefix) {
                decoder.report(field + ".branchPrefix", "invalid branch prefix \"\(prefix)\": \(reason)")
            } else {
                settings.branchPrefix = prefix
            }
        }
        if let value = members["create"], let words = decoder.stringArray(value, at: field + ".create") {
            if let reason = problem(create: words) {
                decoder.report(field + ".create", reason)
            } else {
                settings.create = words
            }
        }
        settings.maxOpen = limit(members["maxOpen"], at: field + ".maxOpen", decoder: &decoder)
        settings.perHour = limit(members["perHour"], at: field + ".perHour", decoder: &decoder)
        return decoder.problems.count == before ? settings : nil
    }

    /// A limit (`maxOpen`, `perHour`): a whole number of at least 1, or nil when absent or after a problem.
    static func limit(_ value: JSONValue?, at field: String, decoder: inout FieldDecoder) -> Int? {
        guard let value, let number = decoder.integer(value, at: field) else { return nil }
        guard number >= 1 else {
            decoder.report(field, "must be at least 1 (got \(number)); leave it out for no limit")
            return nil
        }
        return number
    }

    /// Why `prefix` cannot start proposal branch names, or nil.
    static func problem(branchPrefix prefix: String) -> String? {
        if prefix.hasPrefix("/") || prefix.hasSuffix("/") { return "starts or ends with '/'" }
        return RefName.validateBranch(prefix + "/tenant")
    }

    /// Why `words` cannot be the `create` command, or nil.
    package static func problem(create words: [String]) -> String? {
        guard let program = words.first, !program.isEmpty else {
            return "the command is empty: give the program and its arguments, like [\"gh\", \"pr\", \"create\"]"
        }
        for word in words {
            var rest = word[...]
            while let open = rest.firstIndex(of: "{") {
                guard let close = rest[open...].firstIndex(of: "}") else { break }
                let placeholder = String(rest[open...close])
                if !placeholders.contains(placeholder) {
                    return "unknown placeholder \(placeholder) in \"\(word)\": "
                        + placeholders.joined(separator: ", ")
                }
                rest = rest[rest.index(after: close)...]
            }
        }
        return nil
    }

    /// The object as `modules.json` has it, on one line (keys in a fixed order).
    func encoded() -> String {
        var members: [String] = []
        if let forge { members.append("\"forge\": \(JSONText.quoted(forge.rawValue))") }
        if let branchPrefix { members.append("\"branchPrefix\": \(JSONText.quoted(branchPrefix))") }
        if let create { members.append("\"create\": \(JSONText.inlineArray(create))") }
        if let maxOpen { members.append("\"maxOpen\": \(maxOpen)") }
        if let perHour { members.append("\"perHour\": \(perHour)") }
        return "{" + members.joined(separator: ", ") + "}"
    }
}
