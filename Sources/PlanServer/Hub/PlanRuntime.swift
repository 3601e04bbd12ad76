import ChronoSketchCore
import PlanProtocol
import PlanStore

/// Who asked for a proposal and how to answer them.
struct ProposalOrigin {
    let connection: ConnectionID
    let user: String
    let proposalID: String
    let ref: String?
}

/// A proposal waiting to be judged against the candidate data.
struct QueuedProposal {
    /// What deciding the proposal means.
    enum Verdict {
        /// Apply the op to the candidate.
        case judge(PlanOperation)
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

/// One watch of one connection: the key of `PlanRuntime.watches`.
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

/// One plan held in memory by the hub: the confirmed data, the candidate (confirmed plus the
/// proposals judged but not yet committed), the commit pipeline, subscribers and watchers.
final class PlanRuntime {
    let id: String
    var title: String
    /// The data as committed, at `version`.
    var confirmed: PlanState
    var version: Int
    /// The confirmed data plus every judged, uncommitted proposal.
    var candidate: PlanState
    var candidateVersion: Int

    /// The batch being committed now, if any.
    var inFlight: [JudgedProposal]?
    /// The log holds the versions after this one (as far as this process knows).
    var logStart: Int
    /// Where the deletion of log rows at or below `logStart` stands.
    var trimmedLogDeletion = TrimmedLogDeletion.idle
    /// Judged proposals for the next transaction.
    var nextBatch: [JudgedProposal] = []
    /// How many of the next proposals are committed one per transaction: after the database
    /// refused a value in a batch, so that only the proposal that holds it fails.
    var committingAlone = 0
    /// Proposals waiting until the plan is consistent again (after a failed commit).
    var held: [QueuedProposal] = []
    /// Whether a log read or reload is bringing the plan up to date.
    var resynchronizing = false
    /// Committed proposals whose answers wait for a reload's snapshot.
    var answerAfterReload: [JudgedProposal] = []
    /// The highest version announced by NOTIFY while a commit was in flight (it may be our own).
    var announcedVersion = 0
    /// Decisions of proposals decided by this process since the plan was loaded (bounded).
    var recentDecisions: [String: Decision] = [:]
    var recentDecisionOrder: [String] = []
    /// Re-sent proposals whose first copy is still being decided: answered with the same decision.
    var duplicatesWaiting: [String: [ProposalOrigin]] = [:]

    /// Confirmed messages since the plan was loaded (bounded), for resuming subscribers from memory.
    var recentConfirmed: [OutgoingBuffer] = []
    /// The version of `recentConfirmed.first`.
    var recentConfirmedStart: Int

    var subscribers: Set<ConnectionID> = [] { didSet { subscriberListCache = nil } }
    private var subscriberListCache: [ConnectionID]?
    /// The subscribers as an array, built once per change of membership: every broadcast until
    /// the next change shares it.
    var subscriberList: [ConnectionID] {
        if let cached = subscriberListCache { return cached }
        let list = Array(subscribers)
        subscriberListCache = list
        return list
    }
    /// The plan's watches, indexed by the resources they request: a confirmed timeline change
    /// looks only at the watches on the resources it touched.
    var watches = TimelineWatchIndex<WatchKey>()
    /// The subscribers as `presence` lists them.
    var presence = PresenceRoster()
    /// Presence changed since the last coalesced update; `presenceCurrent` already got it.
    var presenceDirty = false
    /// The newest subscriber, which received the current presence directly when it joined.
    var presenceCurrent: ConnectionID?

    /// Notes a change of who is here; `knownTo` already has the new list.
    func presenceChanged(knownTo connection: ConnectionID? = nil) {
        presenceDirty = true
        presenceCurrent = connection
    }
    var lastUsed: ContinuousClock.Instant = .now
    /// The encoded snapshot of the current version, shared by every subscriber that asks.
    var snapshotCache: (version: Int, buffer: OutgoingBuffer)?
    /// Snapshots being encoded on a worker, by version, with the connections waiting for them.
    var snapshotEncodings: [Int: [ConnectionID]] = [:]

    static let recentDecisionLimit = 50_000
    static let recentConfirmedLimit = 10_000

    init(stored: StoredPlan) {
        logStart = stored.logStart
        id = stored.id
        title = stored.document.title
        confirmed = stored.document.state
        candidate = stored.document.state
        version = stored.version
        candidateVersion = stored.version
        recentConfirmedStart = stored.version + 1
    }

    /// The key of a proposal in the decision maps.
    static func decisionKey(user: String, proposalID: String) -> String {
        "\(user)\u{0}\(proposalID)"
    }

    func remember(_ decision: Decision, user: String, proposalID: String) {
        let key = PlanRuntime.decisionKey(user: user, proposalID: proposalID)
        if recentDecisions.updateValue(decision, forKey: key) == nil { recentDecisionOrder.append(key) }
        if recentDecisionOrder.count > PlanRuntime.recentDecisionLimit {
            let dropped = recentDecisionOrder.prefix(PlanRuntime.recentDecisionLimit / 10)
            for key in dropped { recentDecisions[key] = nil }
            recentDecisionOrder.removeFirst(dropped.count)
        }
    }

    func appendConfirmed(_ buffer: OutgoingBuffer) {
        recentConfirmed.append(buffer)
        if recentConfirmed.count > PlanRuntime.recentConfirmedLimit {
            let drop = PlanRuntime.recentConfirmedLimit / 10
            recentConfirmed.removeFirst(drop)
            recentConfirmedStart += drop
        }
    }

    /// Whether nothing needs the plan in memory any more.
    var isIdle: Bool {
        subscribers.isEmpty && watches.isEmpty && inFlight == nil && nextBatch.isEmpty && held.isEmpty
            && !resynchronizing && snapshotEncodings.isEmpty
            && trimmedLogDeletion != .running
    }
}
