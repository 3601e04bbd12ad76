import ChronoSketchCore
import PlanProtocol
import PlanStore
import WebSocketServer
import WebSocketWire

/// One plan held in memory, as a state machine: the confirmed data, the candidate (confirmed
/// plus the proposals judged but not yet committed), the commit pipeline, and the plan's
/// audience (subscribers, watches, presence).
///
/// A value with one entry point: `handle(_:now:)` takes an event — a request, a commit's
/// result, a notification, a log read, a tick — and returns the actions it decides (`HubAction`),
/// in order. It performs no I/O and reads no clock. Where the pipeline stands is one `Phase`.
struct PlanOwner {
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

    /// Everything a plan owner reacts to. Requests come from sessions whose role the hub checked;
    /// results come from the jobs the owner asked for.
    enum Event {
        /// Just loaded: a checkpoint if one is due; with `trimmedLog`, the rows a trim left behind
        /// are deleted.
        case loaded(trimmedLog: Bool)
        /// A proposal (or a re-send of one decided or being decided) from a user with `role`.
        case proposal(ProposalOrigin, role: PlanRole, baseVersion: Int?, verdict: QueuedProposal.Verdict)
        /// A proposal refused before it is a decision (rate limit, shutdown): answered, not stored.
        case refusal(ProposalOrigin, RejectionCode, String)
        /// `subscribe`, maybe resuming `since` a version.
        case subscribe(PresenceRoster.Member, since: Int?, ref: String?)
        /// The log read for a resuming subscriber finished.
        case resumeRead(PresenceRoster.Member, since: Int, ref: String?, Result<LogRead?, StoreError>)
        /// A snapshot encoded on a worker is ready.
        case snapshotEncoded(version: Int, OutgoingBuffer)
        /// A subscriber leaves.
        case unsubscribe(ConnectionID)
        /// Watches of one connection end.
        case unwatch([String], of: ConnectionID)
        /// A connection closed: its subscription, its watches and any snapshot it waited for go.
        case disconnected(ConnectionID, watches: [String])
        /// A subscriber's role changed (and so, perhaps, its rank in presence).
        case roleChanged(PresenceRoster.Member)
        /// `query` (watch nil) or `watch`, already checked against the plan (`problem(with:)`).
        case query(TimelineQuery, watch: String?, ref: String?, for: ConnectionID)
        /// `history`.
        case history(before: Int?, limit: Int?, ref: String?, for: ConnectionID)
        /// `fetch`.
        case fetch(version: Int, ref: String?, for: ConnectionID)
        /// `schedule` (`version` nil: the current one; `ids` nil: every scheduled task).
        case schedule(version: Int?, ids: [String]?, ref: String?, for: ConnectionID)
        /// `tasks`: some tasks as they are now.
        case tasks(ids: [String], ref: String?, for: ConnectionID)
        /// A version's schedule figures were computed on a worker.
        case scheduleComputed(version: Int, ScheduleFigures)
        /// A whole-plan settle's step came back from a worker (`PlanOwner+OffHub`).
        case judgedOffHub(epoch: Int, version: Int, state: PlanState, CandidateStep)
        /// Another process committed up to this version (`Int.max`: announcements may be lost).
        case notified(Int)
        /// A group commit finished.
        case committed(Result<Int, StoreError>)
        /// The stored decisions of held proposals were read.
        case decisionsLoaded(Result<[ProposalKey: Decision], StoreError>)
        /// The log read for catching up finished.
        case caughtUp(Result<LogRead?, StoreError>)
        /// The plan was loaded again.
        case reloaded(Result<StoredPlan?, StoreError>)
        /// Log rows below the log start were deleted, or could not be.
        case trimmedLogDeleted(Result<Int, StoreError>)
        /// What undoing a version needs was read.
        case undoSourceRead(version: Int, Result<UndoSource, StoreError>)
        /// A reading of the system clock, for the time of a confirmation.
        case wallClock(WallClock)
        /// Once a second: coalesced presence, a failed log deletion tried again.
        case tick
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

    /// Who follows the plan.
    var audience = PlanAudience()
    /// The encoded snapshot of the current version, shared by every subscriber that asks (one
    /// copy per role named in it).
    var snapshotCache: SnapshotBuffers?
    /// Snapshots being encoded on a worker, by version, with the subscribers waiting for them.
    var snapshotEncodings: [Int: [PresenceRoster.Member]] = [:]
    /// The schedule figures of the current version, once computed (scheduling.md §6: once per
    /// version); dropped before a commit changes the data.
    var scheduleCache: (version: Int, figures: ScheduleFigures)?
    /// `schedule` requests waiting for a version's figures being computed on a worker.
    var scheduleWaiting: [Int: [ScheduleRequest]] = [:]
    /// A whole-plan settle being judged on a worker, with the proposals waiting behind it.
    var offHub: OffHubJudging?
    /// The data after a whole-plan settle judged on a worker from the confirmed data itself, with
    /// its version and proposal: taken as the confirmed data when that version commits, instead
    /// of applying the op and its cascade a second time on the hub.
    var settledOffHub: (version: Int, key: ProposalKey, state: PlanState)?
    /// Counts the times the candidate was set back to the confirmed data (a step taken on a worker
    /// from an older candidate is not taken).
    var candidateEpoch = 0
    /// When a request last used the plan.
    private(set) var lastUsed: ContinuousClock.Instant
    /// The time of the event being handled (given with it: the owner reads no clock).
    var eventTime: ContinuousClock.Instant

    /// The system clock as last read, for the time of a confirmation.
    private(set) var wallClock: WallClock
    /// The ops that revert recent versions (nil: not undoable), candidate versions included.
    var inverses = RecentInverses()
    /// Undo proposals waiting for their version's inverse to be read, by that version.
    var awaitingUndo: [Int: [QueuedProposal]] = [:]
    /// The newest version with a checkpoint written (or asked for) by this process.
    var checkpointed: Int

    /// The actions decided by the event being handled; `handle` hands them over.
    private var actions: [HubAction] = []

    static let recentConfirmedLimit = 10_000

    init(stored: StoredPlan, configuration: ServerConfiguration, now: ContinuousClock.Instant, wallClock: WallClock) {
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
        self.wallClock = wallClock
        // A plan without a recent checkpoint gets one at the version it was loaded at (`.loaded`).
        checkpointed = stored.latestCheckpoint ?? -configuration.checkpointEvery
    }

    /// Handles one event at `now`; returns what to do, in order.
    mutating func handle(_ event: Event, now: ContinuousClock.Instant) -> [HubAction] {
        eventTime = now
        switch event {
        case .loaded(let trimmedLog):
            if trimmedLog { deleteTrimmedLog() }
            checkpointIfDue()
        case .proposal(let origin, let role, let baseVersion, let verdict):
            lastUsed = now
            propose(origin, role: role, baseVersion: baseVersion, verdict: verdict)
        case .refusal(let origin, let code, let message):
            lastUsed = now
            refuse(origin, code, message)
        case .subscribe(let member, let since, let ref):
            lastUsed = now
            subscribe(member, since: since, ref: ref)
        case .resumeRead(let member, let since, let ref, let result): resumeRead(member, since: since, ref: ref, result)
        case .snapshotEncoded(let version, let buffer): snapshotEncoded(version: version, buffer)
        case .unsubscribe(let connection): unsubscribe(connection)
        case .unwatch(let watchIDs, let connection): audience.unwatch(watchIDs, of: connection)
        case .disconnected(let connection, let watchIDs): disconnected(connection, watches: watchIDs)
        case .roleChanged(let member): audience.move(member)
        case .query(let query, let watch, let ref, let connection):
            lastUsed = now
            page(query, watch: watch, ref: ref, for: connection)
        case .history(let before, let limit, let ref, let connection):
            lastUsed = now
            history(before: before, limit: limit, ref: ref, for: connection)
        case .fetch(let version, let ref, let connection):
            lastUsed = now
            fetch(version: version, ref: ref, for: connection)
        case .schedule(let version, let ids, let ref, let connection):
            lastUsed = now
            schedule(version: version, request: ScheduleRequest(connection: connection, ids: ids, ref: ref))
        case .scheduleComputed(let version, let figures): scheduleComputed(version: version, figures)
        case .tasks(let ids, let ref, let connection):
            lastUsed = now
            tasks(ids, ref: ref, for: connection)
        case .judgedOffHub(let epoch, let version, let state, let step):
            judgedOffHub(epoch: epoch, version: version, state: state, step)
        case .notified(let announced): notified(announced)
        case .committed(let result): committed(result)
        case .decisionsLoaded(let result): decisionsLoaded(result)
        case .caughtUp(let result): caughtUp(result)
        case .reloaded(let result): reloaded(result)
        case .trimmedLogDeleted(let result): trimmedLogDeleted(result)
        case .undoSourceRead(let version, let result): undoSourceRead(version: version, result)
        case .wallClock(let reading): wallClock = reading
        case .tick: tick()
        }
        defer { actions = [] }
        return actions
    }

    // MARK: What the hub may ask

    /// Whether a batch is being committed or waits to be (judged proposals wait only behind a
    /// commit in flight: in any other phase the next one starts at once).
    var hasUncommittedWork: Bool {
        if case .committing = phase { return true }
        return false
    }

    /// Whether nothing needs the plan in memory any more.
    var isIdle: Bool {
        guard case .idle = phase, offHub == nil else { return false }
        return audience.isEmpty && snapshotEncodings.isEmpty && scheduleWaiting.isEmpty
            && trimmedLogDeletion != .running
    }

    /// Whether a proposal with this key was decided lately or is being decided (a re-send is
    /// answered from memory, and costs no rate).
    func knows(_ key: ProposalKey) -> Bool {
        recentDecisions[key] != nil || undecided[key] != nil
    }

    /// Whether `connection` is subscribed.
    func isSubscribed(_ connection: ConnectionID) -> Bool {
        audience.subscribers.contains(connection)
    }

    /// The connections waiting for the snapshot of `version` to be encoded.
    func waitingForSnapshot(_ version: Int) -> [ConnectionID] {
        snapshotEncodings[version]?.map(\.connection) ?? []
    }

    /// Why a query cannot be answered on this plan, or nil.
    func problem(with query: TimelineQuery) -> String? {
        do {
            try query.validate(against: confirmed.timeline)
            return nil
        } catch {
            return error.message
        }
    }

    // MARK: Emitting actions

    mutating func emit(_ action: HubAction) {
        actions.append(action)
    }

    mutating func send(_ message: ServerMessage, to connection: ConnectionID) {
        emit(.send(OutgoingBuffer(message.bytes), to: connection))
    }

    mutating func broadcast(_ buffer: OutgoingBuffer, to connections: [ConnectionID]) {
        guard !connections.isEmpty else { return }
        emit(.broadcast(buffer, to: connections))
    }

    mutating func log(_ text: String) { emit(.log(.info, text)) }

    mutating func warn(_ text: String) { emit(.log(.warning, text)) }

    mutating func appendConfirmed(_ buffer: OutgoingBuffer) {
        recentConfirmed.append(buffer)
        if recentConfirmed.count > PlanOwner.recentConfirmedLimit {
            let drop = PlanOwner.recentConfirmedLimit / 10
            recentConfirmed.removeFirst(drop)
            recentConfirmedStart += drop
        }
    }
}
