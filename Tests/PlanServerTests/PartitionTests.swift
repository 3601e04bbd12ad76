import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing

/// Issue 14 §2 in small (the full form is `ops/bench partition`): the server in a network
/// namespace of its own, an editor and a dozen viewers in this process on the other end of a veth
/// pair; the editor proposes while the link is cut and restored. Every acked proposal must be in
/// the stored plan at the version of its ack, every id decided once, and every viewer must hold
/// every version once, in order, with a copy equal to the stored plan.
@Suite(
    "Server: a cut link under load", .serialized, .database,
    .enabled(if: NetworkNamespacePair.available, "needs root and ip (iproute2) for network namespaces"))
struct PartitionTests {
    static let viewers = 12

    @Test(
        "a 2.5-s cut: TCP rides it out, nobody reconnects, every viewer converges without a gap",
        .timeLimit(.minutes(1)))
    func rideOut() async throws {
        let run = try await PartitionRun.start(serverArguments: [], liveness: (10, 25))
        defer { run.close() }
        try await run.verify(try await run.cut(for: .milliseconds(2500)))
        for client in run.clients {
            let events = await client.inbox.all()
            #expect(!events.contains { if case .disconnected = $0 { true } else { false } }, "a client reconnected")
        }
    }

    @Test(
        "a 4-s cut with pings every second: both sides drop, clients resume with since and re-send, nothing lost or doubled",
        .timeLimit(.minutes(1)))
    func reconnect() async throws {
        let run = try await PartitionRun.start(serverArguments: ["--ping-interval-seconds", "1"], liveness: (1, 2))
        defer { run.close() }
        try await run.verify(try await run.cut(for: .seconds(4)))
        #expect(run.server.log.contains("no answer to pings"), "the server closed the silent connections")
        // The editor was welcomed again (re-sending what was pending: FaultLoad's checks found each id decided once).
        let welcomes = await run.editor.inbox.all().filter { if case .welcome = $0 { true } else { false } }
        #expect(welcomes.count >= 2, "the editor did not reconnect")
        for viewer in run.viewers {
            // Back with `resumed` (the versions missed, from the server's memory), never a second snapshot.
            let messages = await viewer.inbox.all().compactMap { event -> String? in
                if case .message(let message) = event { return message.typeName }
                return nil
            }
            #expect(messages.contains("resumed"), "a viewer did not resume")
            #expect(messages.filter { $0 == "snapshot" }.count == 1, "a viewer got a snapshot again")
        }
    }
}

/// The server in its namespace, its clients here, and the editor's load.
struct PartitionRun {
    let link: RootLinkedNamespace
    let fixture: PlanFixture
    let server: ServerProcess
    let editor: TestClient
    let viewers: [TestClient]
    let load: FaultLoad
    var clients: [TestClient] { [editor] + viewers }

    /// Starts the server in a namespace of its own with `serverArguments`, an editor and
    /// `PartitionTests.viewers` viewers (that reconnect by themselves, pinging a silent server
    /// after `liveness.ping` seconds and giving up after `liveness.hangup`), all subscribed.
    static func start(serverArguments: [String], liveness: (UInt16, UInt16)) async throws -> PartitionRun {
        let link = try RootLinkedNamespace()
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start(
            arguments: FaultLoad.serverArguments + serverArguments, launcher: link.launcher,
            host: link.namespaceAddress)
        func client(_ token: String, _ name: String) throws -> TestClient {
            try TestClient(
                url: server.url, token: token, name: name, reconnect: true, transport: SharedTransport.instance,
                liveness: liveness)
        }
        let editor = try client(fixture.editorToken, "cut-editor")
        let viewers = try (0..<PartitionTests.viewers).map { try client(fixture.viewerToken, "cut-viewer-\($0)") }
        for client in [editor] + viewers {
            try await client.ready()
            _ = try await client.subscribe(fixture.plan)
        }
        let load = FaultLoad(editor: editor, viewer: viewers[0], plan: fixture.plan, count: 100)
        return PartitionRun(
            link: link, fixture: fixture, server: server, editor: editor, viewers: viewers, load: load)
    }

    /// Proposes (100 adds, 50 ms apart), cuts the link once 10 are confirmed, restores it after
    /// `length`, and waits until every proposal is decided.
    /// - Returns: every decision received, by proposal id.
    func cut(for length: Duration) async throws -> [String: [ServerMessage]] {
        let answers = Task { try await load.run(within: 40) }
        defer { answers.cancel() }
        try await load.confirmedAtLeast(10)
        try link.setLink(up: false)
        try await Task.sleep(for: length)  // the cut's length, not a synchronization
        try link.setLink(up: true)
        return try await answers.value
    }

    /// FaultLoad's checks (each id acked once, in the log at its version with its decision, the
    /// plan holding every add, the first viewer's versions contiguous), then every other viewer:
    /// each version once, in order, and a copy equal to the stored plan.
    func verify(_ decisions: [String: [ServerMessage]]) async throws {
        try await load.verify(decisions, store: fixture.store, user: fixture.editor)
        let stored = try #require(try fixture.store.loadPlan(fixture.plan))
        let snapshot = PlanSnapshot(plan: fixture.plan, version: stored.version, document: stored.document)
        for viewer in viewers.dropFirst() {
            _ = try await viewer.expect("confirmed", within: 10) {
                if case .confirmed(_, let version, _, _, _, _, _) = $0 { return version >= stored.version }
                return false
            }
            let versions = await viewer.inbox.all().compactMap { event -> Int? in
                guard case .message(.confirmed(_, let version, _, _, _, _, _)) = event else { return nil }
                return version
            }
            #expect(versions == Array(1...stored.version), "a viewer missed or repeated a version")
            #expect(viewer.connection.copy(of: fixture.plan)?.snapshot == snapshot)
        }
    }

    func close() {
        for client in clients { client.close() }
        _ = server.terminate()
    }
}
