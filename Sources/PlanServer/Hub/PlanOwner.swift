import ChronoSketchCore
import PlanProtocol
import PlanStore
import WebSocketWire

/// One plan held in memory, as a state machine: the confirmed data, the candidate (confirmed
/// plus the proposals judged but not yet committed), the commit pipeline, and the plan's
/// audiences (subscribers, watches, presence).
///
/// Its methods take an event — a proposal, a commit's result, a notification, a log read, a
/// tick — and return the actions it decides (`HubAction`): they perform no I/O and read no
/// clock. Where the pipeline stands is one `Phase`.
final class PlanOwner {
    /// Where the commit pipeline stands.
    enum Phase {
        /// Nothing is being committed or read: the next proposal is judged and committed at once.
        case idle
        /// A batch is being committed; what is judged meanwhile waits in `next` for the following
        /// transaction.
        case committing(InFlight, next: JudgedQueue)
        /// A batch hit a proposal decided before (by another process, or before a restart): the
        /// stored decisions of the held proposals are being looked up.
        case lookingUpDecisions(held: [QueuedProposal])
        /// The log is being read to follow what other processes committed; the held proposals are
        /// judged again against the caught-up data.
        case catchingUp(held: [QueuedProposal])
        /// The plan is being loaded again (its data could not be followed). `committed`: proposals
        /// committed all the same, answered once every subscriber has the reload's snapshot.
        case reloading(held: [QueuedProposal], committed: [JudgedProposal])
    }

    /// The batch being committed.
    struct InFlight {
        let batch: [JudgedProposal]
        /// When the commit was started (for the commit latency).
        let started: ContinuousClock.Instant
        /// Where the commit moves the log's start, if it does.
        let logStart: Int?
        /// The highest version another process announced while the commit ran (it may be ours).
        var announced: Int?
    }

    let id: String
    let configuration: ServerConfiguration
    var title: String
    /// The data as committed, at `version`.
    var confirmed: PlanState
    var version: Int
    /// The confirmed data plus every judged, uncommitted proposal.
    var candidate: PlanState
    var candidateVersion: Int
    var phase = Phase.idle

    /// The oldest version that can be rebuilt and undone from the log (as far as this process knows).
    var logStart: Int
    /// Where the deletion of log rows below `logStart` stands.
    var trimmedLogDeletion = TrimmedLogDeletion.idle

    /// Decisions of proposals decided by this process since the plan was loaded (bounded).
    var recentDecisions = RecentDecisions()
    /// Proposals being decided, with the re-sends of each that wait for the same answer.
    var undecided: [ProposalKey: [ProposalOrigin]] = [:]

    /// Confirmed messages since the plan was loaded (bounded), for resuming subscribers from memory.
    var recentConfirmed: [OutgoingBuffer] = []
    /// The version of `recentConfirmed.first`.
    var recentConfirmedStart: Int

    var subscribers: Set<ConnectionID> = [] { didSet { subscriberListCache = nil } }
    private var subscriberListCache: [ConnectionID]?
    /// The plan's watches, indexed by the resources they request: a confirmed timeline change
    /// looks only at the watches on the resources it touched.
    var watches = TimelineWatchIndex<WatchKey>()
    /// The subscribers as `presence` lists them.
    var presence = PresenceRoster()
    /// Presence changed since the last coalesced update; `presenceCurrent` already has it.
    var presenceDirty = false
    /// The newest subscriber, which received the current presence directly when it joined.
    var presenceCurrent: ConnectionID?
    /// The encoded snapshot of the current version, shared by every subscriber that asks.
    var snapshotCache: (version: Int, buffer: OutgoingBuffer)?
    /// Snapshots being encoded on a worker, by version, with the subscribers waiting for them.
    var snapshotEncodings: [Int: [PresenceRoster.Member]] = [:]
    /// When a request last used the plan.
    var lastUsed: ContinuousClock.Instant
    /// The time of the event being handled (given with it: the owner reads no clock).
    var eventTime: ContinuousClock.Instant

    /// The system clock as last read, for the time of a confirmation.
    var wallClock: WallClock
    /// The ops that revert recent versions (nil: not undoable), candidate versions included.
    var inverses = RecentInverses()
    /// Undo proposals waiting for their version's inverse to be read, by that version.
    var awaitingUndo: [Int: [QueuedProposal]] = [:]
    /// The newest version with a checkpoint written (or asked for) by this process.
    var checkpointed: Int

    /// The actions decided by the event being handled; `take()` hands them over.
    private var actions: [HubAction] = []

    static let recentConfirmedLimit = 10_000

    init(stored: StoredPlan, configuration: ServerConfiguration, now: ContinuousClock.Instant) {
        id = stored.id
        self.configuration = configuration
        title = stored.document.title
        confirmed = stored.document.state
        candidate = stored.document.state
        version = stored.version
        candidateVersion = stored.version
        logStart = stored.logStart
        recentConfirmedStart = stored.version + 1
        lastUsed = now
        eventTime = now
        wallClock = WallClock(anchor: now, unixSeconds: 0)
        // A plan without a recent checkpoint gets one at the version it was loaded at (`loaded()`).
        checkpointed = stored.latestCheckpoint ?? -configuration.checkpointEvery
    }

    /// The subscribers as an array, built once per change of membership: every broadcast until
    /// the next change shares it.
    var subscriberList: [ConnectionID] {
        if let cached = subscriberListCache { return cached }
        let list = Array(subscribers)
        subscriberListCache = list
        return list
    }

    /// Whether a batch is being committed or waits to be (judged proposals wait only behind a
    /// commit in flight: in any other phase the next one starts at once).
    var hasUncommittedWork: Bool {
        if case .committing = phase { return true }
        return false
    }

    /// Whether nothing needs the plan in memory any more.
    var isIdle: Bool {
        guard case .idle = phase else { return false }
        return subscribers.isEmpty && watches.isEmpty && snapshotEncodings.isEmpty && trimmedLogDeletion != .running
    }

    // MARK: Emitting actions

    func emit(_ action: HubAction) {
        actions.append(action)
    }

    /// Hands over the actions decided so far.
    func take() -> [HubAction] {
        defer { actions = [] }
        return actions
    }

    func send(_ message: ServerMessage, to connection: ConnectionID) {
        emit(.send(OutgoingBuffer(message.bytes), to: connection))
    }

    func broadcast(_ buffer: OutgoingBuffer, to connections: [ConnectionID]) {
        guard !connections.isEmpty else { return }
        emit(.broadcast(buffer, to: connections))
    }

    func log(_ text: String) { emit(.log(.info, text)) }

    func warn(_ text: String) { emit(.log(.warning, text)) }

    func appendConfirmed(_ buffer: OutgoingBuffer) {
        recentConfirmed.append(buffer)
        if recentConfirmed.count > PlanOwner.recentConfirmedLimit {
            let drop = PlanOwner.recentConfirmedLimit / 10
            recentConfirmed.removeFirst(drop)
            recentConfirmedStart += drop
        }
    }
}

/// The decisions a plan owner made since the plan was loaded, for answering re-sent proposals
/// from memory; the oldest tenth is forgotten when `limit` is passed (the database keeps them all).
struct RecentDecisions {
    static let limit = 50_000
    private var decisions: [ProposalKey: Decision] = [:]
    private var order: [ProposalKey] = []

    subscript(key: ProposalKey) -> Decision? { decisions[key] }

    mutating func remember(_ decision: Decision, for key: ProposalKey) {
        if decisions.updateValue(decision, forKey: key) == nil { order.append(key) }
        if order.count > RecentDecisions.limit {
            let dropped = order.prefix(RecentDecisions.limit / 10)
            for key in dropped { decisions[key] = nil }
            order.removeFirst(dropped.count)
        }
    }
}

/// Who asked for a proposal and how to answer them.
struct ProposalOrigin {
    let connection: ConnectionID
    let user: String
    let proposalID: String
    let ref: String?

    var key: ProposalKey { ProposalKey(user: user, proposalID: proposalID) }
}

/// A proposal waiting to be judged against the candidate data.
struct QueuedProposal {
    /// What deciding the proposal means.
    enum Verdict {
        /// Apply the op to the candidate.
        case judge(PlanOperation)
        /// Undo `version` with the op that reverts it (read from the log or kept in memory).
        case undo(version: Int, inverse: PlanOperation)
        /// Already known to be rejected (a malformed op, a role too low, a version ahead); the
        /// rejection is still a decision, recorded with the batch for exactly-once answers.
        case reject(RejectionCode, String)
    }

    let origin: ProposalOrigin
    let verdict: Verdict
}

/// A proposal judged against the candidate and waiting for its batch to commit.
struct JudgedProposal {
    let proposal: QueuedProposal
    /// nil for a rejection or a no-op (a decision without a version of its own).
    let mutation: CommittedMutation?
    let decision: Decision

    var origin: ProposalOrigin { proposal.origin }
}

/// Judged proposals waiting for the next transaction, in the order they were judged.
struct JudgedQueue {
    private(set) var proposals: [JudgedProposal] = []
    /// How many of the first proposals are committed one per transaction: after the database
    /// refused a value in a batch, so that only the proposal that holds it fails.
    private(set) var alone = 0

    /// `proposals`, the first `alone` of them to be committed one per transaction.
    init(_ proposals: [JudgedProposal], alone: Int = 0) {
        self.proposals = proposals
        self.alone = min(alone, proposals.count)
    }

    var isEmpty: Bool { proposals.isEmpty }

    /// The proposals waiting, for judging them again.
    var waiting: [QueuedProposal] { proposals.map(\.proposal) }

    mutating func append(_ judged: JudgedProposal) { proposals.append(judged) }

    /// Takes the next transaction's batch: one proposal while some go alone, else all of them.
    mutating func takeBatch() -> [JudgedProposal] {
        guard alone == 0 else {
            alone -= 1
            return [proposals.removeFirst()]
        }
        defer { proposals = [] }
        return proposals
    }
}

/// One watch of one connection: the key of `PlanOwner.watches`.
struct WatchKey: Hashable, Sendable {
    let connection: ConnectionID
    let watch: String
}

/// The deletion of the log rows a moved log start left behind.
enum TrimmedLogDeletion {
    /// Nothing under way.
    case idle
    /// A slice is being deleted on a worker.
    case running
    /// The last slice failed: tried again on the next tick (or when the plan is loaded again).
    case failed
}
