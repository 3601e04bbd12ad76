import ChronoSketchCore
import PlanProtocol
import PlanStore
import WebSocketServer
import WebSocketWire

/// What the hub and its plan owners decide to do: every effect they want, as a value. They
/// perform none of it; `HubExecutor` does, and feeds the results of database jobs back as
/// `HubEvent`s. Tests read these values to check ordering with no socket and no database.
enum HubAction {
    /// Queue bytes (encoded once) to one connection.
    case send(OutgoingBuffer, to: ConnectionID)
    /// Queue the same bytes to many connections.
    case broadcast(OutgoingBuffer, to: [ConnectionID])
    /// Close a connection with a code and a reason.
    case close(ConnectionID, CloseCode, reason: String)
    /// Charge what is queued to the connection to `user`'s share of the memory for unsent data.
    case chargeTo(ConnectionID, user: String)
    /// Run a job on a database worker; its result comes back as an event.
    case run(WorkerJob)
    /// Commit a batch on its plan's database worker, in one transaction with other plans'
    /// batches waiting for that worker (`CommitGroups`) → `HubEvent.committed`.
    case commit(CommitRequest)
    /// Let a session go on with its waiting requests in a later turn (`HubEvent.continuePending`).
    case continueLater(ConnectionID)
    /// Write a line to the server log.
    case log(LogLevel, String)
    /// Change a figure `/metrics` reports.
    case measure(Measurement)
    /// Every commit is finished: close every connection with 1001, then report the shutdown done.
    case finishShutdown

    /// The level of a log line.
    enum LogLevel: Equatable {
        case info
        case warning
    }
}

/// How a proposal was decided, as `/metrics` counts it.
enum ProposalOutcome: Hashable {
    case confirmed
    case noop
    case rejected(RejectionCode)
}

/// A change of one of the figures `/metrics` reports, as the hub decides it.
enum Measurement: Hashable {
    /// Open WebSocket connections, by `delta`.
    case connections(delta: Int)
    /// Subscriptions, by `delta`.
    case subscriptions(delta: Int)
    /// Plans in memory, by `delta`.
    case loadedPlans(delta: Int)
    /// A proposal decided.
    case decided(ProposalOutcome)
    /// A session gave up its turn with requests still waiting.
    case yieldedTurn
    /// A group commit took this long, from its start until its result was handled.
    case commitLatency(Duration)
    /// Log rows below a moved log start were deleted.
    case trimmedLogRows(Int)
}

/// Work that blocks (database round trips) or takes long (encoding a big snapshot), run on a
/// worker thread. Jobs with a plan run in that plan's lane, one after the other.
enum WorkerJob: Sendable {
    /// Check a `hello`'s token → `HubEvent.authenticated`.
    case authenticate(ConnectionID, token: String)
    /// Look up a user's role on a plan → `HubEvent.roleLoaded`.
    case lookUpRole(ConnectionID, user: String, plan: String)
    /// Load a plan into memory → `HubEvent.planLoaded`.
    case loadPlan(String)
    /// Load a plan again after its data could not be followed → `HubEvent.planReloaded`.
    case reloadPlan(String)
    /// Read stored decisions of proposals (user, id) → `HubEvent.decisionsLoaded`.
    case lookUpDecisions(plan: String, [ProposalKey])
    /// Read the log after `since` (at most `limit` rows) → `HubEvent.logRead`.
    case readLog(plan: String, since: Int, limit: Int?, LogReadPurpose)
    /// Delete a slice of the log rows below the log start → `HubEvent.trimmedLogDeleted`.
    case deleteTrimmedLog(plan: String)
    /// Encode a snapshot off the hub → `HubEvent.snapshotEncoded`.
    case encodeSnapshot(PlanSnapshot)
    /// Read the plans a user has a role on → `HubEvent.plansListed`.
    case listPlans(ConnectionID, user: String, ref: String?)
    /// Judge and apply an owner's grant → `HubEvent.grantDecided`.
    case grant(ConnectionID, granter: String, GrantRequest)
    /// Make (or read again) or revoke a user's feed key → `HubEvent.feedAnswered`.
    case feedKey(ConnectionID, user: String, FeedRequest)
    /// Read roles and tokens again → `HubEvent.accessChecked`.
    case checkAccess([AccessKey], users: [String])
    /// Read a page of the log for `history` → `HubEvent.answerReady`.
    case readHistory(ConnectionID, plan: String, before: Int, limit: Int, ref: String?)
    /// Rebuild the plan as of a version for `fetch` → `HubEvent.answerReady`.
    case fetch(ConnectionID, plan: String, version: Int, ref: String?)
    /// Compute a version's schedule figures → `HubEvent.scheduleComputed`.
    case computeSchedule(plan: String, version: Int, TaskCollection, calendar: PlanCalendar)
    /// Take a whole-plan settle's step on a copy of the candidate → `HubEvent.judgedOffHub`.
    case judgeOffHub(
        plan: String, epoch: Int, version: Int, PlanState, PlanOperation, JudgingContext)
    /// Rebuild a past version and answer a `schedule` request on it → `HubEvent.answerReady`.
    case scheduleAsOf(ConnectionID, plan: String, version: Int, ids: [String]?, ref: String?)
    /// Read what undoing a version needs → `HubEvent.undoSourceRead`.
    case readUndoSource(plan: String, version: Int)
    /// Keep a full copy of the plan at a version → `HubEvent.checkpointWritten`.
    case writeCheckpoint(plan: String, version: Int, PlanDocument)

    /// The lane the job runs in: a plan's loads and log reads keep their order (its commits run
    /// in the same lane: `HubExecutor.commit`).
    var lane: String? {
        switch self {
        case .loadPlan(let plan), .reloadPlan(let plan), .lookUpDecisions(let plan, _): plan
        case .readLog(let plan, _, _, .catchUp): plan
        case .authenticate, .lookUpRole, .readLog, .deleteTrimmedLog, .encodeSnapshot, .listPlans, .grant,
            .feedKey, .checkAccess, .readHistory, .fetch, .readUndoSource, .writeCheckpoint, .computeSchedule,
            .scheduleAsOf,
            .judgeOffHub:
            nil
        }
    }
}

/// One group commit: the mutations on top of `baseVersion`, the decisions without a version of
/// their own, and where the log's start moves (nil: it stays).
struct CommitRequest: Sendable {
    let plan: String
    let baseVersion: Int
    let mutations: [CommittedMutation]
    let decisions: [RecordedDecision]
    let logStart: Int?
}

/// Why the log is read.
enum LogReadPurpose: Equatable, Sendable {
    /// A subscriber resumes `since` a version older than this process's memory.
    case resume(ConnectionID, ref: String?)
    /// The plan follows what another process committed.
    case catchUp
}

/// A proposal's identity for exactly-once answers: the user and the id they chose.
struct ProposalKey: Hashable, Sendable {
    let user: String
    let proposalID: String
}
