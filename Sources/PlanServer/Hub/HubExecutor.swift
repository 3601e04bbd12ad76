import ChronoSketchCore
import PlanProtocol
import PlanStore
import SystemSupport
import WebSocketServer
import WebSocketWire

/// Runs the hub: takes each event from the inbox, hands it to `Hub` with the time, and turns
/// the actions it returns into transport writes, worker jobs and log lines. A worker job's
/// result comes back through the same inbox (in its lane for results, taken first), so the hub
/// sees everything in one order.
///
/// Everything here runs on the thread that runs `run()`; other threads only post events.
final class HubExecutor {
    let hub: Hub
    let store: PlanStore
    let transport: WebSocketTransport
    let workers: BlockingWorkers
    let metrics: Metrics
    let log: ServerLog
    let events: HubInbox
    /// Audiences larger than this share frames (see `ServerConfiguration.coalescingAudience`).
    let coalescingAudience: Int
    /// Called once every connection is closed after a shutdown.
    var shutdownFinished: (@Sendable () -> Void)?
    /// Commits waiting for their worker, made together when several wait on one thread.
    let commitGroups = CommitGroups()

    init(
        hub: Hub, store: PlanStore, transport: WebSocketTransport, workers: BlockingWorkers, metrics: Metrics,
        log: ServerLog, events: HubInbox
    ) {
        self.hub = hub
        self.store = store
        self.transport = transport
        self.workers = workers
        self.metrics = metrics
        self.log = log
        self.events = events
        coalescingAudience = hub.configuration.coalescingAudience
    }

    /// Processes events until the inbox is finished (blocking: it runs on a thread of its own).
    func run() {
        while let posted = events.next() {
            let event = posted.event
            switch event {
            case .transport(.message(let connection, _)), .transport(.binaryMessage(let connection)):
                transport.messageTaken(from: connection)
            default: break
            }
            let started = ContinuousClock.now
            metrics.observe(.hubWait, started - posted.at)
            perform(hub.handle(event, now: started))
            switch event {
            case .committed:
                metrics.fanoutLatency.observe((ContinuousClock.now - started).inSeconds)
            case .transport(.message):
                metrics.observe(.hubMessage, ContinuousClock.now - started)
            default:
                break
            }
        }
    }

    /// Performs actions in order.
    func perform(_ actions: [HubAction]) {
        for action in actions {
            switch action {
            case .send(let buffer, let connection):
                transport.send(buffer, to: connection)
            case .broadcast(let buffer, let connections):
                transport.broadcast(buffer, to: connections, coalesce: connections.count > coalescingAudience)
            case .close(let connection, let code, let reason):
                transport.close(connection, code: code, reason: reason)
            case .chargeTo(let connection, let user):
                transport.assign(connection, toAccount: user)
            case .run(let job):
                run(job)
            case .commit(let request):
                commit(request)
            case .continueLater(let connection):
                events.post(.continuePending(connection))
            case .log(.info, let text):
                log.info(text)
            case .log(.warning, let text):
                log.warning(text)
            case .measure(let measurement):
                metrics.record(measurement)
            case .finishShutdown:
                finishShutdown()
            }
        }
    }

    /// Runs a job on a worker and posts its result; the time a history page or a past version
    /// takes on its worker is measured.
    private func run(_ job: WorkerJob) {
        let store = self.store
        let events = self.events
        let metrics = self.metrics
        workers.submit(lane: job.lane) {
            let started = ContinuousClock.now
            let result = job.perform(on: store, metrics: metrics)
            switch job {
            case .readHistory: metrics.observe(.historyRead, ContinuousClock.now - started)
            case .fetch: metrics.observe(.fetchRebuild, ContinuousClock.now - started)
            default: break
            }
            events.post(result, lane: .results)
        }
    }

    /// Commits a batch on its plan's worker thread, together with the other commits waiting for
    /// that thread when it starts (`CommitGroups`), and posts each plan's result.
    private func commit(_ request: CommitRequest) {
        let (store, events, metrics, groups) = (self.store, self.events, self.metrics, commitGroups)
        let thread = workers.thread(of: request.plan)
        groups.add(CommitGroups.Waiting(request: request, submitted: .now), thread: thread)
        workers.submit(lane: request.plan) {
            let group = groups.take(thread: thread)
            guard !group.isEmpty else { return }
            let started = ContinuousClock.now
            let results = store.commitTogether(
                group.map(\.request.batch),
                observe: { timing in
                    metrics.commitTransactions.wrappingAdd(1, ordering: .relaxed)
                    metrics.observe(.commitEncode, timing.encoding)
                    metrics.observe(.commitExecute, timing.executing)
                    metrics.observe(.commitSync, timing.syncing)
                },
                split: { metrics.splitCommitGroups.wrappingAdd(1, ordering: .relaxed) })
            metrics.observe(.commitTransaction, ContinuousClock.now - started)
            for (waiting, result) in zip(group, results) {
                metrics.observe(.commitQueued, started - waiting.submitted)
                events.post(.committed(plan: waiting.request.plan, result), lane: .results)
            }
        }
    }

    /// Closes every connection with 1001 on a worker (it waits for queues to flush), then
    /// reports the shutdown done.
    private func finishShutdown() {
        let finished = shutdownFinished
        shutdownFinished = nil
        let transport = self.transport
        let log = self.log
        workers.submit {
            transport.shutdown(code: .goingAway, reason: "server shutting down")
            log.info("all connections closed")
            finished?()
        }
    }
}

extension WorkerJob {
    /// Runs the job (on a worker thread: it blocks) and returns the event that reports it.
    func perform(on store: PlanStore, metrics: Metrics) -> HubEvent {
        switch self {
        case .authenticate(let connection, let token):
            return .authenticated(connection, Result { () throws(StoreError) in try store.authenticate(token: token) })
        case .lookUpRole(let connection, let user, let plan):
            return .roleLoaded(
                connection, plan: plan, Result { () throws(StoreError) in try store.role(of: user, in: plan) })
        case .loadPlan(let plan):
            return .planLoaded(plan, Result { () throws(StoreError) in try store.loadPlan(plan) })
        case .reloadPlan(let plan):
            return .planReloaded(plan, Result { () throws(StoreError) in try store.loadPlan(plan) })
        case .lookUpDecisions(let plan, let keys):
            return .decisionsLoaded(
                plan: plan,
                Result { () throws(StoreError) -> [ProposalKey: Decision] in
                    let decisions = try store.decisions(plan: plan, of: keys.map { ($0.user, $0.proposalID) })
                    var found: [ProposalKey: Decision] = [:]
                    for (key, decision) in zip(keys, decisions) { found[key] = decision }
                    return found
                })
        case .readLog(let plan, let since, let limit, let purpose):
            return .logRead(
                plan: plan, since: since, purpose,
                Result { () throws(StoreError) in
                    if let limit {
                        try store.mutations(of: plan, since: since, limit: limit)
                    } else {
                        try store.mutations(of: plan, since: since)
                    }
                })
        case .deleteTrimmedLog(let plan):
            return .trimmedLogDeleted(
                plan: plan, Result { () throws(StoreError) in try store.deleteTrimmedLog(of: plan) })
        case .encodeSnapshot(let snapshot):
            return .snapshotEncoded(
                plan: snapshot.plan, version: snapshot.version, OutgoingBuffer(ServerMessage.snapshot(snapshot).bytes))
        case .listPlans, .grant, .feedKey, .checkAccess:
            return performAccess(on: store)
        case .readHistory(let connection, let plan, let before, let limit, let ref):
            return .answerReady(connection, HistoryAnswers.history(plan, before: before, limit: limit, ref: ref, store))
        case .fetch(let connection, let plan, let version, let ref):
            return .answerReady(connection, HistoryAnswers.fetch(plan, version: version, ref: ref, store))
        case .computeSchedule(let plan, let version, let tasks, let calendar):
            return .scheduleComputed(plan: plan, version: version, ScheduleFigures(tasks, time: WorkingTime(calendar)))
        case .judgeOffHub(let plan, let epoch, let version, var state, let operation, let context):
            let step = CandidateStep.apply(operation, to: &state, context: context)
            return .judgedOffHub(plan: plan, epoch: epoch, version: version, state, step)
        case .scheduleAsOf(let connection, let plan, let version, let ids, let ref):
            return .answerReady(
                connection, HistoryAnswers.schedule(plan, version: version, ids: ids, ref: ref, store))
        case .readUndoSource(let plan, let version):
            return .undoSourceRead(
                plan: plan, version: version,
                Result { () throws(StoreError) in try store.undoSource(of: plan, version: version) })
        case .writeCheckpoint(let plan, let version, let document):
            return .checkpointWritten(
                plan: plan, version: version,
                Result { () throws(StoreError) in
                    try store.writeCheckpoint(plan: plan, version: version, document: document)
                })
        }
    }

    /// The access jobs: `plans`, `grant`, `feed`, and reading roles and tokens again.
    private func performAccess(on store: PlanStore) -> HubEvent {
        switch self {
        case .listPlans(let connection, let user, let ref):
            return .plansListed(connection, ref: ref, Result { () throws(StoreError) in try store.plans(of: user) })
        case .grant(let connection, let granter, let request):
            return .grantDecided(
                connection, request,
                Result { () throws(StoreError) in
                    try store.grant(by: granter, user: request.user, plan: request.plan, role: request.role)
                })
        case .feedKey(let connection, let user, let request):
            return .feedAnswered(
                connection, request,
                Result { () throws(StoreError) in
                    guard !request.revoke else {
                        try store.revokeFeedKey(plan: request.plan, user: user)
                        return nil
                    }
                    return try store.feedKey(plan: request.plan, user: user)
                })
        case .checkAccess(let keys, let users):
            return .accessChecked(
                keys,
                Result { () throws(StoreError) in
                    CheckedAccess(
                        roles: try store.roles(of: keys.map { ($0.user, $0.plan) }), users: users,
                        usersWithTokens: try store.usersWithTokens(among: users))
                })
        default:
            preconditionFailure("not an access job")
        }
    }
}
