import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import PlanStore
import PlanTestSupport
import Synchronization
import SystemSupport
import Testing

/// Issue 14 §3 in small (the full form is `ops/bench outage` and `ops/bench kill`): an editor
/// proposes while PostgreSQL, or the server itself, goes away and comes back; a viewer watches.
/// Every acked proposal must be in the stored plan at the version of its ack, every id decided
/// once, the viewer's versions contiguous and its copy equal to the stored plan.
@Suite("Server: faults under load (PostgreSQL killed, the server killed)", .database)
struct FaultTests {
    @Test(
        "PostgreSQL killed for 2 s under load: unavailable, /healthz 503 then 200, nothing acked lost, each id decided once",
        .timeLimit(.minutes(1)))
    func databaseOutage() async throws {
        let cluster = try await PrivateCluster.start(port: 5450)
        defer { withExtendedLifetime(cluster) {} }  // destroyed at the end, not after its last use
        let (url, store) = (cluster.url, cluster.store)
        try store.createPlan(id: "p", document: Demo.document)
        let editorToken = try store.createUser("ed")
        try store.grant(user: "ed", plan: "p", role: .editor)
        let viewerToken = try store.createUser("vi")
        try store.grant(user: "vi", plan: "p", role: .viewer)

        let server = try ServerProcess.start(databaseURL: url, arguments: FaultLoad.serverArguments)
        let (editor, viewer) = try await FaultLoad.clients(server.url, editorToken, viewerToken, plan: "p")
        defer {
            editor.close()
            viewer.close()
        }
        let load = FaultLoad(editor: editor, viewer: viewer, plan: "p", count: 80)
        let answers = Task { try await load.run(within: 40) }
        defer { answers.cancel() }
        try await load.confirmedAtLeast(10)

        let down = ContinuousClock.now
        #expect(try await cluster.kill())
        // The health flag is refreshed once a second: it must turn 503 while the database is down.
        let unhealthy = try await healthz(server.port, becomes: "503", within: .seconds(5))
        try await Task.sleep(until: down + .seconds(2))  // the outage's length, not a synchronization
        #expect(try await cluster.restart())
        let back = ContinuousClock.now
        let healthy = try await healthz(server.port, becomes: "200", within: .seconds(10))
        let decisions = try await answers.value
        // Issue 14 measured 503 within 0.55 s and 200 within 0.25 s; the bounds leave room for a busy machine.
        #expect(unhealthy - down < .seconds(3))
        #expect(healthy - back < .seconds(5))
        #expect(load.unavailable.load(ordering: .relaxed) > 0, "proposals during the outage were answered unavailable")
        try await load.verify(decisions, store: store, user: "ed")
    }

    @Test(
        "plan-server SIGKILLed under load and started again: clients resume, re-send, nothing acked lost, each id decided once",
        .timeLimit(.minutes(1)))
    func serverKilled() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start(arguments: FaultLoad.serverArguments)
        let (editor, viewer) = try await FaultLoad.clients(
            server.url, fixture.editorToken, fixture.viewerToken, plan: fixture.plan)
        defer {
            editor.close()
            viewer.close()
        }
        let load = FaultLoad(editor: editor, viewer: viewer, plan: fixture.plan, count: 80)
        let answers = Task { try await load.run(within: 40) }
        defer { answers.cancel() }
        try await load.confirmedAtLeast(10)

        try await offThePool { server.crash() }
        let down = ContinuousClock.now
        _ = try await editor.expectDisconnect()
        try await Task.sleep(until: down + .seconds(1))  // the server's down time, not a synchronization
        let waiting = editor.connection.pendingProposalIDs.count
        let again = try await offThePool {
            try ServerProcess.restart(port: server.port, arguments: FaultLoad.serverArguments)
        }
        defer { _ = again.terminate() }
        _ = try await healthz(again.port, becomes: "200", within: .seconds(10))
        let decisions = try await answers.value
        _ = try await viewer.expect("resumed", within: 20)

        #expect(waiting > 0, "proposals made while the server was down wait for it")
        try await load.verify(decisions, store: TestDatabase.store, user: fixture.editor)
    }

    /// Polls /healthz every 100 ms until it answers `code`, for at most `bound`.
    /// - Returns: when it did.
    private func healthz(_ port: Int, becomes code: String, within bound: Duration) async throws
        -> ContinuousClock.Instant
    {
        let deadline = ContinuousClock.now + bound
        let command = "curl -s -o /dev/null -m 1 -w '%{http_code}' http://127.0.0.1:\(port)/healthz"
        while ContinuousClock.now < deadline {
            if (try await offThePool { shell(command) }).output == code { return .now }
            try await Task.sleep(for: .milliseconds(100))  // polling an endpoint that has no event
        }
        throw HarnessError("/healthz did not answer \(code) within \(bound)")
    }
}

/// One editor adding a task every 50 ms (each add its own proposal id), sending an `unavailable`
/// one again with its id 200–400 ms later (as a real client does) until each is decided, and
/// one viewer whose every `confirmed` version is kept.
final class FaultLoad: Sendable {
    /// The server's options: no proposal rate limit (the re-sends come in bursts).
    static let serverArguments = ["--max-proposals-per-second", "100000"]

    let editor: TestClient
    let viewer: TestClient
    let plan: String
    let operations: [(id: String, operation: PlanOperation)]
    let unavailable = Atomic<Int>(0)
    let viewerVersions = Locked<[Int]>([])
    private let answers: AsyncStream<ServerMessage>
    private let continuation: AsyncStream<ServerMessage>.Continuation

    init(editor: TestClient, viewer: TestClient, plan: String, count: Int) {
        self.editor = editor
        self.viewer = viewer
        self.plan = plan
        operations = (0..<count).map { index in
            let task = try! GanttTask(
                id: "fault-\(index)", title: "Fault \(index)", kind: .activity(schedule: nil, progress: 0))
            return ("fault-proposal-\(index)", .add(task))
        }
        (answers, continuation) = AsyncStream.makeStream()
        let continuation = continuation
        editor.connection.observeMessages { message in
            if case .ack = message { continuation.yield(message) }
            if case .rejected = message { continuation.yield(message) }
        }
        viewer.connection.observeMessages { [weak self] message in
            if case .confirmed(_, let version, _, _, _, _, _) = message {
                self?.viewerVersions.withLock { $0.append(version) }
            }
        }
    }

    /// An editor and a viewer of `plan` that reconnect by themselves, both subscribed.
    static func clients(_ url: String, _ editorToken: String, _ viewerToken: String, plan: String) async throws
        -> (TestClient, TestClient)
    {
        let editor = try TestClient(
            url: url, token: editorToken, name: "fault-editor", reconnect: true, transport: SharedTransport.instance)
        let viewer = try TestClient(
            url: url, token: viewerToken, name: "fault-viewer", reconnect: true, transport: SharedTransport.instance)
        try await editor.ready()
        try await viewer.ready()
        _ = try await editor.subscribe(plan)
        _ = try await viewer.subscribe(plan)
        return (editor, viewer)
    }

    /// Waits until the viewer holds `version` (the load is under way).
    func confirmedAtLeast(_ version: Int) async throws {
        _ = try await viewer.expect("confirmed", within: 20) {
            if case .confirmed(_, let seen, _, _, _, _, _) = $0 { return seen >= version }
            return false
        }
    }

    /// Proposes every add, 50 ms apart, and collects the answers until every id is decided
    /// (`unavailable` decides nothing: the proposal goes out again), for at most `seconds`.
    /// - Returns: every decision received, by proposal id.
    func run(within seconds: Int) async throws -> [String: [ServerMessage]] {
        let connection = editor.connection
        let plan = plan
        let operations = operations
        let proposer = Task {
            for (id, operation) in operations {
                connection.propose(operation, plan: plan, id: id)
                try await Task.sleep(for: .milliseconds(50))  // the load's pace
            }
        }
        defer { proposer.cancel() }
        return try await withThrowingTaskGroup(of: [String: [ServerMessage]].self) { group in
            group.addTask { try await self.collect() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                throw HarnessError("proposals still undecided after \(seconds) s")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    private func collect() async throws -> [String: [ServerMessage]] {
        let byID = Dictionary(uniqueKeysWithValues: operations.map { ($0.id, $0.operation) })
        var decisions: [String: [ServerMessage]] = [:]
        for await message in answers {
            switch message {
            case .rejected(let id, _, .unavailable, _, _, _, _):
                unavailable.add(1, ordering: .relaxed)
                guard let operation = byID[id] else { break }
                let (connection, plan) = (editor.connection, plan)
                Task {
                    try await Task.sleep(for: .milliseconds(Int.random(in: 200...400)))  // a client's retry pause
                    connection.propose(operation, plan: plan, id: id)
                }
            case .ack(let id, _, _, _, _), .rejected(let id, _, _, _, _, _, _):
                decisions[id, default: []].append(message)
            default:
                break
            }
            if decisions.count == operations.count { return decisions }
        }
        throw HarnessError("the answers ended")
    }

    /// Every id acked once, each in the log at the version of its ack with that decision stored,
    /// the stored plan at the number of acks and holding every add, the viewer's versions
    /// contiguous and its copy (and the editor's) equal to the stored plan.
    func verify(_ decisions: [String: [ServerMessage]], store: PlanStore, user: String) async throws {
        let versions = decisions.compactMapValues { $0.count == 1 ? $0[0].ackVersion : nil }
        let other = decisions.filter { versions[$0.key] == nil }
        #expect(versions.count == operations.count, "every add acked, once: \(other)")
        let stored = try #require(try store.loadPlan(plan))
        #expect(stored.version == versions.count)
        try await confirmedAtLeast(stored.version)
        guard case .mutations(let log, _)? = try store.mutations(of: plan, since: 0) else {
            Issue.record("no log")
            return
        }
        #expect(log.map(\.version) == Array(1...max(1, stored.version)))
        let logged = Dictionary(uniqueKeysWithValues: log.map { ($0.proposalID, $0.version) })
        for (id, version) in versions {
            #expect(logged[id] == version, "\(id) acked at \(version), in the log at \(String(describing: logged[id]))")
            let decision = try store.decision(plan: plan, user: user, proposalID: id)
            #expect(decision == .acknowledged(version: version, noop: false))
        }
        for index in operations.indices { #expect(stored.document.state.tasks["fault-\(index)"] != nil) }
        let snapshot = PlanSnapshot(plan: plan, version: stored.version, document: stored.document)
        // The viewer got every version once, in order (a resume after the kill included).
        #expect(viewerVersions.withLock { $0 } == Array(1...stored.version))
        #expect(viewer.connection.copy(of: plan)?.snapshot == snapshot)
        #expect(editor.connection.copy(of: plan)?.snapshot == snapshot)
    }
}
