import ChronoSketchCore
import PlanProtocol
import PlanStore
import Testing
import WebSocketServer
import WebSocketWire

@testable import PlanServer

/// Reading the actions a `Hub` or `PlanOwner` returns as short lines, in order, so that a test
/// states an ordering rule as a list: "commit 5+1", "confirmed 6 p1 → *", "ack p1 6 → 1".
enum ActionLines {
    static func lines(_ actions: [HubAction]) -> [String] {
        actions.compactMap(line)
    }

    /// The measurements among `actions` (`HubAction.measure`), in order: a gauge counted twice
    /// shows twice.
    static func measurements(_ actions: [HubAction]) -> [Measurement] {
        actions.compactMap {
            guard case .measure(let measurement) = $0 else { return nil }
            return measurement
        }
    }

    static func line(_ action: HubAction) -> String? {
        switch action {
        case .send(let buffer, let connection): return message(buffer).map { "\($0) → \(connection.rawValue)" }
        case .broadcast(let buffer, _): return message(buffer).map { "\($0) → *" }
        case .close(let connection, let code, _): return "close \(connection.rawValue) \(code.rawValue)"
        case .run(let job): return job.line
        case .commit(let request):
            return "commit \(request.baseVersion)+\(request.mutations.count)"
                + (request.decisions.isEmpty
                    ? "" : " decisions \(request.decisions.map(\.proposalID).joined(separator: ","))")
                + (request.logStart.map { " logStart \($0)" } ?? "")
        case .continueLater(let connection): return "continue \(connection.rawValue)"
        case .log, .measure, .chargeTo: return nil
        case .finishShutdown: return "finish shutdown"
        }
    }

    static func message(_ buffer: OutgoingBuffer) -> String? {
        guard let message = try? ServerMessage.decode(Array(buffer.payload)) else { return "undecodable" }
        switch message {
        case .welcome(_, let user, _, _, _, let ref): return "welcome \(user) ref \(ref ?? "-")"
        case .error(let code, _, let ref): return "error \(code.rawValue) ref \(ref ?? "-")"
        case .snapshot(let snapshot, _): return "snapshot \(snapshot.version)"
        case .resumed(_, let version, _, _): return "resumed \(version)"
        case .confirmed(_, let version, let id, _, _, _, _): return "confirmed \(version) \(id)"
        case .ack(let id, _, let version, let noop, _): return "ack \(id) \(version)\(noop ? " noop" : "")"
        case .rejected(let id, _, let code, _, let version, _, _):
            return "rejected \(id) \(code.rawValue) \(version.map(String.init) ?? "-")"
        case .page(_, let watch, let version, _, _, _): return "page \(watch ?? "-") \(version)"
        case .presence(_, let count, _): return "presence \(count)"
        case .plans(let entries, let ref):
            return "plans \(entries.map { "\($0.plan):\($0.role)" }.joined(separator: ",")) ref \(ref ?? "-")"
        case .granted(let plan, let user, let role, let ref):
            return "granted \(plan) \(user) \(role?.rawValue ?? "null") ref \(ref ?? "-")"
        case .planError(let code, _, let plan): return "error \(code.rawValue) plan \(plan)"
        case .history(_, let entries, let logStart, let more, _):
            return
                "history \(entries.map { String($0.version) }.joined(separator: ",")) from \(logStart)\(more ? " more" : "")"
        case .schedule(let answer, let ref):
            return "schedule \(answer.version) \(answer.tasks.map(\.id).joined(separator: ",")) ref \(ref ?? "-")"
        case .role(let plan, let role): return "role \(plan) \(role.rawValue)"
        case .feed(let plan, let path, let ref): return "feed \(plan) \(path ?? "revoked") ref \(ref ?? "-")"
        case .tasks(_, let version, let tasks, let missing, let ref):
            let found = tasks.map { "\($0.id):\($0.title)" }.joined(separator: ",")
            return "tasks \(version) \(found) missing \(missing.joined(separator: ",")) ref \(ref ?? "-")"
        }
    }
}

extension WorkerJob {
    var line: String {
        switch self {
        case .authenticate(let connection, let token): "authenticate \(connection.rawValue) \(token)"
        case .lookUpRole(_, let user, let plan): "role \(user) \(plan)"
        case .loadPlan(let plan): "load \(plan)"
        case .reloadPlan(let plan): "reload \(plan)"
        case .lookUpDecisions(_, let keys): "decisions? \(keys.map(\.proposalID).joined(separator: ","))"
        case .readLog(_, let since, _, .catchUp): "read log since \(since)"
        case .readLog(_, let since, _, .resume(let connection, _)): "read log since \(since) for \(connection.rawValue)"
        case .deleteTrimmedLog: "delete trimmed log"
        case .encodeSnapshot(let snapshot): "encode snapshot \(snapshot.version)"
        case .listPlans(_, let user, _): "list plans of \(user)"
        case .grant(_, let granter, let request):
            "grant by \(granter): \(request.user) \(request.plan) \(request.role?.rawValue ?? "null")"
        case .feedKey(_, let user, let request):
            "feed key of \(user) for \(request.plan)\(request.revoke ? " revoke" : "")"
        case .checkAccess(let keys, let users):
            "check access \(keys.map { "\($0.user)@\($0.plan)" }.sorted().joined(separator: ",")) users \(users.sorted())"
        case .readHistory(let connection, _, let before, let limit, _):
            "read history before \(before) limit \(limit) for \(connection.rawValue)"
        case .fetch(let connection, _, let version, _): "fetch \(version) for \(connection.rawValue)"
        case .readUndoSource(_, let version): "read undo of \(version)"
        case .writeCheckpoint(_, let version, _): "checkpoint \(version)"
        case .computeSchedule(_, let version, _, _): "compute schedule \(version)"
        case .scheduleAsOf(let connection, _, let version, _, _): "schedule \(version) for \(connection.rawValue)"
        case .judgeOffHub(_, let epoch, let version, _, _, _): "judge off hub at \(version) epoch \(epoch)"
        }
    }
}

/// Plans, tasks and operations for driving a `PlanOwner` by hand.
enum OwnerFixture {
    static let start = ContinuousClock.now

    static func task(_ id: String, _ title: String? = nil) -> GanttTask {
        try! GanttTask(id: id, title: title ?? id, kind: .summary)
    }

    /// A plan at `version` holding tasks "a" and "b".
    static func owner(version: Int = 5, logKeep: Int = 0, logStart: Int = 0, checkpointEvery: Int = 500)
        -> OwnerDriver
    {
        var configuration = ServerConfiguration(databaseURL: "")
        configuration.logKeep = logKeep
        configuration.checkpointEvery = checkpointEvery
        let stored = StoredPlan(
            id: "p", version: version, document: document(), logStart: logStart, latestCheckpoint: version)
        return OwnerDriver(
            PlanOwner(
                stored: stored, configuration: configuration, now: start,
                wallClock: WallClock(anchor: start, unixSeconds: 0)))
    }

    /// Tasks "a" and "b" (titled as their ids unless given), and one timeline resource, "room".
    static func document(a: String = "a", b: String = "b") -> PlanDocument {
        let tasks = try! TaskCollection([task("a", a), task("b", b)])
        let timeline = try! TimelineData(
            resources: [try! TimelineResource(id: "room", label: "Room")], entries: [], assignments: [])
        return PlanDocument(title: "Plan", state: PlanState(tasks: tasks, timeline: timeline))
    }

    /// A day's page of the resource "room".
    static let roomQuery = try! TimelineQuery(
        start: LocalDateTime("2026-09-01T00:00"), end: LocalDateTime("2026-09-02T00:00"), resourceIDs: ["room"])

    static func origin(_ id: String, connection: UInt64 = 1, user: String = "ed") -> ProposalOrigin {
        ProposalOrigin(connection: ConnectionID(connection), user: user, proposalID: id, ref: nil)
    }

    /// Renames `task` from `from` to `to`: stale when its title is no longer `from`.
    static func rename(_ task: String, from: String, to: String) -> QueuedProposal.Verdict {
        .judge(.replace(previous: self.task(task, from), proposed: self.task(task, to)))
    }

    static func member(_ connection: UInt64, editor: Bool = false) -> PresenceRoster.Member {
        PresenceRoster.Member(
            connection: ConnectionID(connection), role: editor ? .editor : .viewer,
            entry: PresenceSession(session: "s\(connection)", user: "u\(connection)", client: "test"))
    }

    /// A log row another process wrote: `task` renamed at `version`.
    static func logged(
        _ version: Int, _ id: String, rename task: String, from: String, to: String, inverseFromOp: Bool = false
    ) -> LoggedMutation {
        let operation = PlanOperation.replace(previous: self.task(task, from), proposed: self.task(task, to))
        return LoggedMutation(
            version: version, proposalID: id, user: "other", opJSON: operation.json,
            changesJSON: #"{"tasks":{}}"#, inverseFromOp: inverseFromOp)
    }
}

/// A `PlanOwner` driven by hand: each call hands it one event (at the fixture's time unless
/// given) and returns what it decided, so that a test reads as a transcript of the owner's
/// events. The owner is a value; the driver holds it so that a test can name it once.
final class OwnerDriver {
    var owner: PlanOwner

    init(_ owner: PlanOwner) {
        self.owner = owner
    }

    /// One event at `now`; the actions decided.
    func handle(_ event: PlanOwner.Event, now: ContinuousClock.Instant = OwnerFixture.start) -> [HubAction] {
        owner.handle(event, now: now)
    }

    // MARK: What tests read (and set up)

    var version: Int { owner.version }
    var logStart: Int { owner.logStart }
    var recentConfirmedStart: Int { owner.recentConfirmedStart }
    var inverses: RecentInverses { owner.inverses }
    var isIdle: Bool { owner.isIdle }
    var hasUncommittedWork: Bool { owner.hasUncommittedWork }
    var subscribers: Set<ConnectionID> { owner.audience.subscribers }
    var watches: TimelineWatchIndex<WatchKey> { owner.audience.watches }
    var confirmed: PlanState {
        get { owner.confirmed }
        set { owner.confirmed = newValue }
    }

    /// The plan as the store would load it again.
    var storedCopy: StoredPlan {
        StoredPlan(
            id: owner.id, version: owner.version,
            document: PlanDocument(title: owner.title, state: owner.confirmed), logStart: owner.logStart,
            latestCheckpoint: owner.checkpointed)
    }

    // MARK: Events, by name

    /// A proposal from an editor (or `role`), as lines.
    func propose(_ origin: ProposalOrigin, _ verdict: QueuedProposal.Verdict, role: PlanRole = .editor) -> [String] {
        ActionLines.lines(handle(.proposal(origin, role: role, baseVersion: nil, verdict: verdict)))
    }

    func propose(
        _ origin: ProposalOrigin, role: PlanRole, baseVersion: Int?, verdict: QueuedProposal.Verdict,
        now: ContinuousClock.Instant
    ) -> [HubAction] {
        handle(.proposal(origin, role: role, baseVersion: baseVersion, verdict: verdict), now: now)
    }

    func committed(_ result: Result<Int, StoreError>) -> [String] {
        ActionLines.lines(handle(.committed(result)))
    }

    func committed(_ result: Result<Int, StoreError>, now: ContinuousClock.Instant) -> [HubAction] {
        handle(.committed(result), now: now)
    }

    /// `subscribe`, with whether the subscriber joined at once.
    func subscribe(_ member: PresenceRoster.Member, since: Int?, ref: String?) -> ([HubAction], joined: Bool) {
        let actions = handle(.subscribe(member, since: since, ref: ref))
        return (actions, owner.isSubscribed(member.connection))
    }

    func resumeRead(
        _ member: PresenceRoster.Member, since: Int, ref: String?, _ result: Result<LogRead?, StoreError>
    ) -> [HubAction] {
        handle(.resumeRead(member, since: since, ref: ref, result))
    }

    /// An encoded snapshot, with those it subscribed.
    func snapshotEncoded(version: Int, _ buffer: OutgoingBuffer) -> ([HubAction], joined: [ConnectionID]) {
        let waiting = owner.waitingForSnapshot(version)
        let actions = handle(.snapshotEncoded(version: version, buffer))
        return (actions, waiting.filter { owner.isSubscribed($0) })
    }

    func notified(_ version: Int) -> [HubAction] { handle(.notified(version)) }

    func caughtUp(_ result: Result<LogRead?, StoreError>, now: ContinuousClock.Instant) -> [HubAction] {
        handle(.caughtUp(result), now: now)
    }

    func reloaded(_ result: Result<StoredPlan?, StoreError>, now: ContinuousClock.Instant) -> [HubAction] {
        handle(.reloaded(result), now: now)
    }

    func decisionsLoaded(
        _ result: Result<[ProposalKey: Decision], StoreError>, now: ContinuousClock.Instant
    ) -> [HubAction] {
        handle(.decisionsLoaded(result), now: now)
    }

    func trimmedLogDeleted(_ result: Result<Int, StoreError>) -> [HubAction] { handle(.trimmedLogDeleted(result)) }

    func tick(now: ContinuousClock.Instant) -> [HubAction] { handle(.tick, now: now) }

    func page(
        _ query: TimelineQuery, watch: String?, ref: String?, for connection: ConnectionID, now: ContinuousClock.Instant
    ) -> [HubAction] {
        handle(.query(query, watch: watch, ref: ref, for: connection), now: now)
    }

    func unsubscribe(_ connection: ConnectionID) -> [HubAction] { handle(.unsubscribe(connection)) }

    func removeWatches(_ watchIDs: [String], of connection: ConnectionID) {
        _ = handle(.unwatch(watchIDs, of: connection))
    }

    func disconnected(_ connection: ConnectionID, watches: [String]) -> [HubAction] {
        handle(.disconnected(connection, watches: watches))
    }
}
