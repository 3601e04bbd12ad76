import ChronoSketchCore
import PlanProtocol
import PlanStore
import PlanTestSupport
import Testing

/// A value the database refuses must fail only the proposal that holds it, never its
/// batch-mates (issue 12: one poisoned proposal made about 900 of 980 of another editor's fail).
@Suite("Server: a value the database refuses", .serialized, .database)
struct RefusedValueTests {
    @Test("in a group commit, the proposal whose value the database refuses is rejected alone; the others commit")
    func poisonedBatch() async throws {
        // A cluster of its own: the fault is a trigger on `tasks`, and creating one takes a lock
        // that every other test's commits would queue behind.
        let cluster = try await PrivateCluster.start(port: 5449)
        defer { withExtendedLifetime(cluster) {} }  // destroyed at the end, not after its last use
        let (url, store) = (cluster.url, cluster.store)
        let fixture = try PlanFixture.make(store: store)
        let server = try ServerProcess.start(databaseURL: url)
        // A fault of the real database: titles "poison" of this plan fail as a data exception.
        let function = "poison"
        let database = try PGConnection(conninfo: url)
        try database.query(
            """
            CREATE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.plan_id = '\(fixture.plan)' AND NEW.title = 'poison' THEN
                    RAISE EXCEPTION 'poisoned value' USING ERRCODE = '22023';
                END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER \(function) BEFORE INSERT OR UPDATE ON tasks FOR EACH ROW EXECUTE FUNCTION \(function)();
            """)
        defer { _ = try? database.query("DROP TRIGGER \(function) ON tasks; DROP FUNCTION \(function)()") }

        let alice = try await RawWebSocket.connect(port: server.port)
        defer { alice.close() }
        let bob = try await RawWebSocket.connect(port: server.port)
        defer { bob.close() }
        try await alice.hello(token: fixture.editorToken)
        try await bob.hello(token: try fixture.user(.editor))
        let tasks = fixture.document.state.tasks
        let spec = tasks["spec"]!
        let build = tasks["build"]!
        let release = tasks["release"]!

        // Both sessions' roles are looked up before the row is held (nothing but the commit may
        // wait on it).
        try await alice.awaitProcessed(fixture)
        try await bob.awaitProcessed(fixture)
        // Hold the plan's row: the first commit waits, and what comes meanwhile forms one batch.
        let lock = try PGConnection(conninfo: url)
        try lock.query("BEGIN")
        try lock.query("SELECT 1 FROM plans WHERE id = $1 FOR UPDATE", [fixture.plan])
        try await alice.propose(.replace(previous: spec, proposed: progressed(spec, 21)), id: "first", fixture)
        try await alice.awaitProcessed(fixture)
        try await bob.propose(.replace(previous: release, proposed: release.with(title: "poison")), id: "bad", fixture)
        try await bob.awaitProcessed(fixture)
        var previous = build
        for step in 1...3 {
            let next = progressed(build, Double(step * 10))
            try await alice.propose(.replace(previous: previous, proposed: next), id: "mate-\(step)", fixture)
            previous = next
        }
        try await alice.awaitProcessed(fixture)
        try lock.query("COMMIT")

        for (id, version) in [("first", 1), ("mate-1", 2), ("mate-2", 3), ("mate-3", 4)] {
            guard case .ack(id, _, let acked, _, _) = try await alice.next() else {
                throw HarnessError("no ack for \(id)")
            }
            #expect(acked == version, "\(id)")
        }
        guard case .rejected("bad", _, let code, let message, _, _, _) = try await bob.next() else {
            throw HarnessError("no rejection for the poisoned proposal")
        }
        #expect(code == .badMessage && message.contains("refused"), "\(message)")

        let viewer = try await TestClient.connected(to: server, token: fixture.viewerToken)
        defer { viewer.close() }
        let copy = try await viewer.subscribe(fixture.plan)
        #expect(copy.version == 4)
        #expect(copy["build"] == progressed(build, 30) && copy["release"] == release)
        // The decision is kept: sent again, the same answer, nothing applied.
        try await bob.propose(.replace(previous: release, proposed: release.with(title: "poison")), id: "bad", fixture)
        guard case .rejected("bad", _, .badMessage, _, _, _, _) = try await bob.next() else {
            throw HarnessError("a re-sent poisoned proposal was not answered with its decision")
        }
    }
}

/// The activity with another progress.
private func progressed(_ task: GanttTask, _ progress: Double) -> GanttTask {
    task.with(kind: .activity(schedule: task.schedule, progress: progress))
}

extension RawWebSocket {
    /// Sends a proposal to the fixture's plan at version 0.
    fileprivate func propose(_ operation: PlanOperation, id: String, _ fixture: PlanFixture) async throws {
        try await send(
            opcode: RawWebSocket.text,
            ClientMessage.propose(id: id, plan: fixture.plan, baseVersion: 0, operation: operation).bytes)
    }

    /// Sends a query and waits for its page: everything sent before it has been handled (a
    /// session's requests are handled in order), though proposals may wait for their commit.
    fileprivate func awaitProcessed(_ fixture: PlanFixture) async throws {
        let query = try TimelineQuery(
            start: LocalDateTime("2026-09-01T00:00"), end: LocalDateTime("2026-09-02T00:00"), resourceIDs: ["room-1"])
        try await send(
            opcode: RawWebSocket.text, ClientMessage.query(plan: fixture.plan, query: query, ref: "mark").bytes)
        guard case .page(_, _, _, _, _, "mark") = try await next() else { throw HarnessError("no page") }
    }
}
