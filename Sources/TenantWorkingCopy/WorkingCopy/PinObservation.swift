import Foundation

/// What `pin` reads of the working copy before it decides anything (``PinPlanner``): the project, the superproject's
/// state and pins, and the checkout of every module it may pin.
struct PinObservation: Sendable {
    /// One module's checkout (only an initialised one has an entry).
    struct Checkout: Sendable, Equatable {
        /// Its working copy.
        var state: RepositoryState
        /// The pin recorded at the superproject's HEAD, an annotated tag peeled to its commit; nil: not pinned.
        var pinned: String?
        /// Whether its branch is published; read (after a fetch) only for the modules ``PinPlanner/candidates(_:)``
        /// names, nil for the others.
        var publication: Publication?

        init(state: RepositoryState, pinned: String?, publication: Publication? = nil) {
            self.state = state
            self.pinned = pinned
            self.publication = publication
        }
    }

    /// Whether a module's HEAD is on its remote.
    struct Publication: Sendable, Equatable {
        /// Commits of HEAD on no remote-tracking branch of the module.
        var unpushed: Int
        /// Whether the checked-out branch exists on the module's remote as last fetched; read only with `--push` and
        /// unpushed commits, nil otherwise.
        var remoteHasBranch: Bool?
        /// Commits the checked-out branch's remote branch (as last fetched) has that HEAD lacks: a push of HEAD would
        /// be refused as not a fast-forward. Read only with `--push` and unpushed commits, nil otherwise.
        var behindRemote: Int? = nil
    }

    /// The project files the checked-out branch is worked with.
    var project: Project
    /// The modules asked for by name; empty: every module.
    var names: [String]
    /// The superproject's working copy.
    var superproject: RepositoryState
    /// The pins recorded at the superproject's HEAD (path → commit; empty on an unborn branch).
    var pins: [String: String]
    /// The modules the stopped runs of this pin recorded before their first change; nil when there is none.
    var stoppedRecords: Set<String>?
    /// The initialised checkouts of the selected modules, by module name.
    var checkouts: [String: Checkout]
}

/// What `pin` reads of the superproject's remote branch once it knows what it pins (``PinPlanner/readsRemote(_:push:)``).
struct PinRemoteObservation: Sendable, Equatable {
    /// The remote branch's tip as just fetched; nil: the remote has no such branch.
    var tip: String?
    /// Where the local branch is against it (nil without a remote tip).
    var relation: PinLanding.Relation?
    /// The pins the local commits ahead of the remote add that are on no remote of their module; read only when the
    /// run publishes those commits as they are (``PinPlanner/publishesAhead(_:push:)``).
    var unpublishedPins: [WorkingCopyProblem] = []
}
