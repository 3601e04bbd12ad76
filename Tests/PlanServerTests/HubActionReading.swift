import ChronoSketchCore
import PlanProtocol
import PlanStore
import Testing
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
        case .resumed(_, let version, _): return "resumed \(version)"
        case .confirmed(_, let version, let id, _, _, _, _): return "confirmed \(version) \(id)"
        case .ack(let id, _, let version, let noop, _): return "ack \(id) \(version)\(noop ? " noop" : "")"
        case .rejected(let id, _, let code, _, let version, _):
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
        case .checkAccess(let keys, let users):
            "check access \(keys.map { "\($0.user)@\($0.plan)" }.sorted().joined(separator: ",")) users \(users.sorted())"
        case .readHistory(let connection, _, let before, let limit, _):
            "read history before \(before) limit \(limit) for \(connection.rawValue)"
        case .fetch(let connection, _, let version, _): "fetch \(version) for \(connection.rawValue)"
        case .readUndoSource(_, let version): "read undo of \(version)"
        case .writeCheckpoint(_, let version, _): "checkpoint \(version)"
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
    static func owner(version: Int = 5, logKeep: Int = 0, logStart: Int = 0, checkpointEvery: Int = 500) -> PlanOwner {
        var configuration = ServerConfiguration(databaseURL: "")
        configuration.logKeep = logKeep
        configuration.checkpointEvery = checkpointEvery
        let stored = StoredPlan(
            id: "p", version: version, document: document(), logStart: logStart, latestCheckpoint: version)
        return PlanOwner(stored: stored, configuration: configuration, now: start)
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
            connection: ConnectionID(connection), rank: editor ? 0 : 1,
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

extension PlanOwner {
    /// Proposes on behalf of a test, at the fixture's time.
    func propose(_ origin: ProposalOrigin, _ verdict: QueuedProposal.Verdict, role: PlanRole = .editor) -> [String] {
        if let known = answerIfKnown(origin) { return ActionLines.lines(known) }
        return ActionLines.lines(
            propose(origin, role: role, baseVersion: nil, verdict: verdict, now: OwnerFixture.start))
    }

    func committed(_ result: Result<Int, StoreError>) -> [String] {
        ActionLines.lines(committed(result, now: OwnerFixture.start))
    }
}
