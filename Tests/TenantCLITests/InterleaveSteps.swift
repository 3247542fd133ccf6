import Foundation

/// SplitMix64: a small deterministic generator (never the system's), so that a sequence replays from its seed on
/// every machine and every run.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound` (0 for an empty range).
    mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }

    /// True in `percent` of the draws.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// How a command of a sequence is stopped, if at all.
enum InterleaveFault: Equatable, CustomStringConvertible {
    case none
    /// SIGKILL before git call N runs (the shim kills tenantctl).
    case killBefore(Int)
    /// SIGKILL once git call N has run (a push that landed, then the kill).
    case killAfter(Int)
    /// SIGTERM while git call N runs.
    case terminate(Int)

    var description: String {
        switch self {
        case .none: ""
        case .killBefore(let call): " [SIGKILL at git call \(call)]"
        case .killAfter(let call): " [SIGKILL after git call \(call)]"
        case .terminate(let call): " [SIGTERM during git call \(call)]"
        }
    }
}

/// Where a user action happens: the superproject (`module == nil`) or a module checkout, in the main worktree
/// (`worktree == nil`) or in an added one.
struct InterleavePlace: Equatable, CustomStringConvertible {
    var worktree: String?
    var module: String?

    var description: String {
        (module.map { "Modules/\($0)" } ?? "superproject") + (worktree.map { " of worktree \($0)" } ?? "")
    }
}

/// One step of a sequence. Commands name other runs symbolically (`<last-roll>`, `<unfinished>`): the ids are read
/// when the step runs, so a replay runs the same steps.
enum InterleaveStep: CustomStringConvertible {
    case command([String], worktree: String?, fault: InterleaveFault, rejecting: String?)
    /// The user edits a tracked file (its `pick`th) or writes a new untracked one.
    case edit(InterleavePlace, untracked: Bool, pick: Int)
    /// The user commits a new file on the checked-out branch.
    case commit(InterleavePlace)
    /// The user commits the edits they made there.
    case commitEdits(InterleavePlace)
    /// The user throws away the edits they made there (their own removal).
    case discardEdits(InterleavePlace)
    /// A colleague pushes a commit to a branch (its `pick`th) of a remote, from a clone of their own.
    case colleaguePush(repository: String, pick: Int)
    case worktreeAdd(String)
    /// `git worktree remove --force` (or, for a worktree holding submodules, what git asks for instead: delete it
    /// and `git worktree prune`).
    case worktreeRemove(String)

    var isCommand: Bool {
        if case .command = self { return true }
        return false
    }

    /// The step without its numbers, places and faults: `tenantctl resolve --abort`, `a colleague's push`.
    var kind: String {
        switch self {
        case .command(let arguments, _, _, _):
            "`tenantctl "
                + arguments.map { $0.hasPrefix("M") && Int($0.dropFirst()) != nil ? "M<n>" : $0 }
                .joined(separator: " ") + "`"
        case .edit: "the user's edit"
        case .commit, .commitEdits: "the user's commit"
        case .discardEdits: "the user's discarding of their edits"
        case .colleaguePush: "a colleague's push"
        case .worktreeAdd: "git worktree add"
        case .worktreeRemove: "git worktree remove"
        }
    }

    var description: String {
        switch self {
        case .command(let arguments, let worktree, let fault, let rejecting):
            (rejecting.map { "[\($0) rejects pushes] " } ?? "") + "tenantctl " + arguments.joined(separator: " ")
                + (worktree.map { " (in worktree \($0))" } ?? "") + fault.description
        case .edit(let place, let untracked, let pick):
            untracked ? "user writes a new file in \(place)" : "user edits tracked file #\(pick) in \(place)"
        case .commit(let place): "user commits a new file in \(place)"
        case .commitEdits(let place): "user commits their edits in \(place)"
        case .discardEdits(let place): "user discards their edits in \(place)"
        case .colleaguePush(let repository, let pick): "colleague pushes to branch #\(pick) of \(repository)"
        case .worktreeAdd(let name): "git worktree add \(name)"
        case .worktreeRemove(let name): "git worktree remove \(name)"
        }
    }
}

/// Draws the steps of a sequence from a seed.
struct InterleaveGenerator {
    static let modules = FaultLab.modules
    static let remotes = ["Superproject"] + modules

    /// The commands a step may run (the symbolic ids are read when it runs).
    static let commands: [[String]] = [
        ["switch", "t1"], ["switch", "t2"], ["switch", "t3"], ["switch", "t4"], ["switch", "t1"], ["switch", "t2"],
        ["roll"], ["roll"], ["roll", "--undo", "<last-roll>"], ["pin"], ["pin", "--push"], ["pin", "--push"],
        ["resolve", "t2"], ["resolve", "--continue"], ["resolve", "--abort"], ["customize", "t1", "Article"],
        ["customize", "--undo", "t1", "Article"], ["tenant", "add", "t4", "--from", "t2"],
        ["tenant", "remove", "t4"], ["tenant", "remove", "t4", "--archive"], ["tenant", "remove", "t3", "--archive"],
        ["tag", "M<step>"], ["status"], ["runs"], ["runs", "--abort", "<unfinished>"],
    ]

    var random: SplitMix64
    /// The added worktrees that exist (the generator follows its own adds and removes).
    private(set) var worktrees: [String] = []
    private var added = 0

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func next(index: Int) -> InterleaveStep {
        let kind = random.below(100)
        switch kind {
        case 0..<55: return command(index: index)
        case 55..<67: return .edit(place(), untracked: random.chance(40), pick: random.below(1000))
        case 67..<75: return .commit(place(moduleInMainOnly: true))
        case 75..<79: return .commitEdits(place(moduleInMainOnly: true))
        case 79..<83: return .discardEdits(place())
        case 83..<93:
            return .colleaguePush(repository: Self.remotes[random.below(Self.remotes.count)], pick: random.below(1000))
        case 93..<97 where worktrees.count < 2:
            added += 1
            worktrees.append("wt\(added)")
            return .worktreeAdd("wt\(added)")
        default:
            guard !worktrees.isEmpty else { return command(index: index) }
            return .worktreeRemove(worktrees.remove(at: random.below(worktrees.count)))
        }
    }

    private mutating func command(index: Int) -> InterleaveStep {
        var arguments = Self.commands[random.below(Self.commands.count)]
        arguments = arguments.map { $0.replacingOccurrences(of: "<step>", with: "\(index + 1)") }
        let worktree = !worktrees.isEmpty && random.chance(25) ? worktrees[random.below(worktrees.count)] : nil
        let fault: InterleaveFault
        let call = 1 + random.below(40)
        switch random.below(100) {
        case 0..<45: fault = .none
        case 45..<70: fault = .killBefore(call)
        case 70..<82: fault = .killAfter(call)
        default: fault = .terminate(call)
        }
        let rejecting = random.chance(12) ? Self.remotes[random.below(Self.remotes.count)] : nil
        return .command(arguments, worktree: worktree, fault: fault, rejecting: rejecting)
    }

    private mutating func place(moduleInMainOnly: Bool = false) -> InterleavePlace {
        let worktree = !worktrees.isEmpty && random.chance(25) ? worktrees[random.below(worktrees.count)] : nil
        let module = random.chance(60) ? Self.modules[random.below(Self.modules.count)] : nil
        if moduleInMainOnly && module != nil { return InterleavePlace(worktree: nil, module: module) }
        return InterleavePlace(worktree: worktree, module: module)
    }
}
