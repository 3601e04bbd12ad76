import ChronoSketchCore
import PlanStore
import WebSocketServer
import WebSocketWire

/// Everything the hub reacts to, delivered in order through one stream. The time comes with the
/// event (`Hub.handle(_:now:)`): the hub reads no clock.
enum HubEvent: Sendable {
    /// From the transport.
    case transport(TransportEvent)
    /// A token check finished.
    case authenticated(ConnectionID, Result<String?, StoreError>)
    /// A role lookup for a session finished.
    case roleLoaded(ConnectionID, plan: String, Result<PlanRole?, StoreError>)
    /// A plan load finished.
    case planLoaded(String, Result<StoredPlan?, StoreError>)
    /// A group commit finished: the new version, or why nothing was written.
    case committed(plan: String, Result<Int, StoreError>)
    /// Decisions looked up after a commit hit an already decided proposal.
    case decisionsLoaded(plan: String, Result<[ProposalKey: Decision], StoreError>)
    /// A plan was loaded again after its data could not be followed.
    case planReloaded(String, Result<StoredPlan?, StoreError>)
    /// A snapshot encoded on a worker is ready.
    case snapshotEncoded(plan: String, version: Int, OutgoingBuffer)
    /// A log read finished (for a resuming subscriber, or to catch up with other processes).
    case logRead(plan: String, since: Int, LogReadPurpose, Result<LogRead?, StoreError>)
    /// Log rows below a moved log start were deleted (how many), or could not be.
    case trimmedLogDeleted(plan: String, Result<Int, StoreError>)
    /// Another process committed (or notifications may have been missed: plan nil).
    case externalCommit(plan: String?, version: Int)
    /// The plans a user has a role on were read (the answer to `plans`).
    case plansListed(ConnectionID, ref: String?, Result<[PlanListing], StoreError>)
    /// An owner's grant was judged (and, when granted, applied and announced).
    case grantDecided(ConnectionID, GrantRequest, Result<GrantOutcome, StoreError>)
    /// A feed key was made or read (nil: the user has no role on the plan), or revoked (nil).
    case feedAnswered(ConnectionID, FeedRequest, Result<String?, StoreError>)
    /// A change of access announced by some process (this one included), or the announcements
    /// may have been missed (`PlanListener` reconnected).
    case accessChanged(AccessChange)
    /// The roles and tokens sessions rely on, read again after announcements may have been missed.
    case accessChecked([AccessKey], Result<CheckedAccess, StoreError>)
    /// The answer to a request read on a worker (`history`, `fetch`) is encoded: send it.
    case answerReady(ConnectionID, OutgoingBuffer)
    /// A version's schedule figures were computed.
    case scheduleComputed(plan: String, version: Int, ScheduleFigures)
    /// A whole-plan settle's step, taken on a worker from the candidate at `epoch`/`version`.
    case judgedOffHub(plan: String, epoch: Int, version: Int, PlanState, CandidateStep)
    /// What undoing `version` needs was read (for the proposals waiting for it).
    case undoSourceRead(plan: String, version: Int, Result<UndoSource, StoreError>)
    /// A checkpoint was written (or could not be: a later fetch replays more).
    case checkpointWritten(plan: String, version: Int, Result<Void, StoreError>)
    /// A reading of the system clock (at start and once a second), for `confirmed.at`.
    case wallClock(WallClock)
    /// A session used up its turn with requests still waiting: it goes on with them now.
    case continuePending(ConnectionID)
    /// Once per second: presence, idle plans, silent connections.
    case tick
    /// SIGTERM: finish in-flight commits, close everyone with 1001.
    case shutdown
}

/// A change of access, as `PlanListener` reports it.
enum AccessChange: Sendable, Equatable {
    /// `user`'s role on `plan` is now `role` (nil: none).
    case role(plan: String, user: String, PlanRole?)
    /// Every token of `user` was deleted: its sessions end.
    case tokensRevoked(user: String)
    /// Announcements may have been missed: what open sessions rely on is read again.
    case resynchronize
}

/// A user and a plan: whose role on what.
struct AccessKey: Hashable, Sendable {
    let user: String
    let plan: String
}

/// What `WorkerJob.checkAccess` read: a role (or none) per key, in order, and which of the
/// users checked still have a token.
struct CheckedAccess: Sendable {
    let roles: [PlanRole?]
    let users: [String]
    let usersWithTokens: Set<String>
}

/// A `feed` request (interchange.md §13).
struct FeedRequest: Sendable, Equatable {
    let plan: String
    let revoke: Bool
    let ref: String?
}

/// An owner's `grant` request.
struct GrantRequest: Sendable, Equatable {
    let plan: String
    let user: String
    let role: PlanRole?
    let ref: String?
}
