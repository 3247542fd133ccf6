import Foundation

extension RunJournal {
    /// A `tenantctl resolve` resolution as its runs record it: the start point of every repository (what `--abort`
    /// restores), the merges and pins it makes, how far it got, and what each step left in each repository's index and
    /// files. Each resolve run appends it to its own journal as it stands after every step (``Transaction/recordResolution(_:)``),
    /// the first time before its first change, so the journal alone says what a killed, stopped or finished start or
    /// continuation did; `--abort`, `runs --abort <run-id>` and the next resolve read it from there.
    public struct Resolution: Sendable, Equatable, Codable {
        /// How far the resolution got.
        public enum Phase: String, Sendable, Codable, Equatable {
            /// `resolve <t>` recorded the start points and is switching and merging (a kill here: `--abort`).
            case starting
            /// The merges are started; the user resolves, stages and runs `--continue`.
            case resolving
            /// `--continue` committed every merge and the superproject; publishing is next.
            case committed
            /// `--continue` is publishing (the journal `runId` records what landed).
            case publishing
        }

        /// Where one repository stood before the resolution started: what `--abort` restores.
        public struct StartPoint: Sendable, Equatable, Codable {
            /// `superproject` or the module name.
            public var repository: String
            /// Path relative to the superproject root ("" for the superproject).
            public var path: String
            /// Whether the module was a repository of its own (false: not initialised; left as the switch set it up).
            public var initialised: Bool
            /// The checked-out branch (nil: detached).
            public var headBranch: String?
            /// The HEAD commit.
            public var head: String?
            /// Every local branch → commit.
            public var branches: [String: String]
            /// The branch the resolution checks out here (the only branch it may create; nil: a state written before
            /// this was recorded).
            public var resolutionBranch: String?

            public init(
                repository: String, path: String, initialised: Bool, headBranch: String?, head: String?,
                branches: [String: String], resolutionBranch: String? = nil
            ) {
                self.repository = repository
                self.path = path
                self.initialised = initialised
                self.headBranch = headBranch
                self.head = head
                self.branches = branches
                self.resolutionBranch = resolutionBranch
            }

            /// The repository's branch and HEAD, as a run journal records them before the first change.
            public var before: RunJournal.Before {
                RunJournal.Before(repository: repository, branch: headBranch, head: head)
            }
        }

        /// One repository's merge of its general branch into the tenant branch.
        public struct Merge: Sendable, Equatable, Codable {
            /// `superproject` or the module name.
            public var repository: String
            /// Path relative to the superproject root ("" for the superproject).
            public var path: String
            /// The branch merged into (the tenant's branch).
            public var branch: String
            /// The general branch merged.
            public var generalBranch: String
            /// The tenant branch's tip on the remote when the resolution started (first parent; the push's lease).
            public var ours: String
            /// The general branch's tip merged (second parent); nil: the superproject only re-pins (no merge).
            public var theirs: String?
            /// The commit message (as roll's).
            public var message: String
            /// Paths that conflicted when the merge started (checked for conflict markers by `--continue`).
            public var conflicts: [String]
            /// The resulting commit, once made.
            public var commit: String?
            /// The remote the branch is published to: the module's URL, or the superproject's remote name.
            public var remote: String

            public init(
                repository: String, path: String, branch: String, generalBranch: String, ours: String, theirs: String?,
                message: String, conflicts: [String] = [], commit: String? = nil, remote: String
            ) {
                self.repository = repository
                self.path = path
                self.branch = branch
                self.generalBranch = generalBranch
                self.ours = ours
                self.theirs = theirs
                self.message = message
                self.conflicts = conflicts
                self.commit = commit
                self.remote = remote
            }

            /// Whether this is the superproject's merge.
            public var isSuperproject: Bool { repository == Resolution.superproject }
        }

        /// One module's pin on the tenant branch after the resolution (roll's pin rule).
        public struct Pin: Sendable, Equatable, Codable {
            /// Module name.
            public var module: String
            /// Gitlink path.
            public var path: String
            /// The pin before.
            public var old: String?
            /// The pin, when known from the start (the module's general tip, or its tenant branch's tip when the module
            /// needs no merge); nil: the tip of the module's merge (known once it is committed).
            public var commit: String?

            public init(module: String, path: String, old: String?, commit: String?) {
                self.module = module
                self.path = path
                self.old = old
                self.commit = commit
            }
        }

        /// The repository name of the superproject.
        public static let superproject = "superproject"

        /// Format version.
        public var schemaVersion = 1
        /// The tenant id.
        public var tenant: String
        /// The tenant's superproject branch.
        public var branch: String
        /// The superproject's general branch.
        public var generalBranch: String
        /// ISO 8601 time the resolution started.
        public var startedAt: String
        /// How far it got.
        public var phase: Phase
        /// Every repository's start point, the superproject first.
        public var startPoints: [StartPoint]
        /// The module merges in manifest order.
        public var modules: [Merge]
        /// The superproject's merge (or re-pin commit).
        public var superproject: Merge
        /// Every module's pin by the rule, in manifest order.
        public var pins: [Pin]
        /// Gitlinks removed from the tenant branch (modules removed or moved on the general branch).
        public var removedPaths: [String]
        /// The run journal of the `resolve --continue` that publishes (its entries say what landed; `--abort` and
        /// `roll --undo <runId>` take it back), once publishing started.
        public var runId: String?
        /// The root of the superproject worktree where the resolution started (nil: a state written before worktrees
        /// were recorded).
        public var worktree: String?
        /// That worktree's own git directory (`--absolute-git-dir`): only there may `--continue` and `--abort` run.
        public var gitDirectory: String?
        /// What the resolution left in each repository's index and files, by relative path ("" for the superproject):
        /// every path not as HEAD has it, with its index entry and file. `--abort` keeps whatever differs from it (the
        /// user's changes); nil: the start stopped before it was recorded (or a state written before it was).
        public var left: [String: [String: String]]?
        /// Started with `--review`: `--continue` proposes the result as the tenant's review instead of pushing to
        /// its branches (nil: a plain resolution).
        public var review: Bool?
        /// The forge kind asked for with `--forge` (nil: as `modules.json` says).
        public var forge: String?

        public init(
            tenant: String, branch: String, generalBranch: String, startedAt: String, phase: Phase,
            startPoints: [StartPoint], modules: [Merge], superproject: Merge, pins: [Pin], removedPaths: [String]
        ) {
            self.tenant = tenant
            self.branch = branch
            self.generalBranch = generalBranch
            self.startedAt = startedAt
            self.phase = phase
            self.startPoints = startPoints
            self.modules = modules
            self.superproject = superproject
            self.pins = pins
            self.removedPaths = removedPaths
        }

        /// Every merge: the modules, then the superproject.
        public var merges: [Merge] { modules + [superproject] }
    }
}
