import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import PlanStore
import PlanTestSupport
import SystemSupport
import Testing

@Suite("PlanClient: reconnect, resume and re-send", .database)
struct ClientReconnectTests {
    @Test("after a server restart the client reconnects, resumes from its version and its copy stays exact")
    func reconnectAndResume() async throws {
        let fixture = try PlanFixture.make()
        var server = try ServerProcess.start()
        let port = server.port
        let viewer = try TestClient(
            url: server.url, token: fixture.viewerToken, reconnect: true, transport: SharedTransport.instance)
        defer { viewer.close() }
        try await viewer.ready()
        _ = try await viewer.subscribe(fixture.plan)
        server.crash()
        _ = try await viewer.expectDisconnect()
        // Meanwhile another writer changes the plan.
        let release = fixture.document.state.tasks["release"]!
        try TestDatabase.commitOutside(
            .replace(previous: release, proposed: release.with(title: "Moved on")), to: fixture.plan, baseVersion: 0,
            state: fixture.document.state)
        // The server comes back on the same port; the client finds it by itself.
        server = try ServerProcess.start(arguments: ["--port", "\(port)"])
        try await viewer.ready(within: 20)
        let resumed = try await viewer.expect("resumed", within: 20)
        #expect(resumed == .resumed(plan: fixture.plan, version: 1, role: .viewer))
        let copy = try #require(viewer.connection.copy(of: fixture.plan))
        #expect(copy.version == 1 && copy["release"]?.title == "Moved on")
        let stored = try #require(try TestDatabase.store.loadPlan(fixture.plan))
        #expect(copy.snapshot == PlanSnapshot(plan: fixture.plan, version: 1, document: stored.document))
    }

    @Test(
        "a server that stops answering (frozen, or a cut link): the client's pings go unanswered, it hangs up and reconnects"
    )
    func frozenServer() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let viewer = try TestClient(
            url: server.url, token: fixture.viewerToken, reconnect: true, transport: SharedTransport.instance,
            liveness: (ping: 1, hangup: 3))
        defer { viewer.close() }
        try await viewer.ready()
        _ = try await viewer.subscribe(fixture.plan)
        // The kernel still takes the bytes, nothing answers: only the client's own check can tell.
        kill(server.pid, SIGSTOP)
        defer { kill(server.pid, SIGCONT) }
        _ = try await viewer.expectDisconnect(within: 15)  // throws when still connected
        kill(server.pid, SIGCONT)
        try await viewer.ready(within: 20)
        _ = try await viewer.expect("resumed", within: 20)
    }

    @Test("a backlog of proposals made while disconnected is re-sent at the server's pace: none is rateLimited")
    func pacedResend() async throws {
        let fixture = try PlanFixture.make()
        let limit = ["--max-proposals-per-second", "40"]
        var server = try ServerProcess.start(arguments: limit)
        let port = server.port
        let editor = try TestClient(
            url: server.url, token: fixture.editorToken, reconnect: true, transport: SharedTransport.instance)
        defer { editor.close() }
        try await editor.ready()
        _ = try await editor.subscribe(fixture.plan)
        server.crash()
        _ = try await editor.expectDisconnect()
        let ids = try (0..<60).map { number in
            editor.connection.propose(
                .add(try GanttTask(id: "offline-\(number)", title: "Offline \(number)", kind: .summary)),
                plan: fixture.plan)
        }
        server = try ServerProcess.start(arguments: limit + ["--port", "\(port)"])
        for id in ids {
            let answer = try await editor.answer(to: id, within: 20)
            #expect(answer.ackVersion != nil, "\(id): \(answer)")
        }
    }

    @Test("a proposal made while disconnected is sent after the reconnect, once")
    func pendingProposalResent() async throws {
        let fixture = try PlanFixture.make()
        var server = try ServerProcess.start()
        let port = server.port
        let editor = try TestClient(
            url: server.url, token: fixture.editorToken, reconnect: true, transport: SharedTransport.instance)
        defer { editor.close() }
        try await editor.ready()
        let copy = try await editor.subscribe(fixture.plan)
        server.crash()
        _ = try await editor.expectDisconnect()
        let review = copy["review"]!
        let id = editor.connection.propose(
            .replace(previous: review, proposed: review.with(title: "Offline edit")), plan: fixture.plan)
        #expect(editor.connection.pendingProposalIDs == [id])
        server = try ServerProcess.start(arguments: ["--port", "\(port)"])
        let answer = try await editor.answer(to: id, within: 20)
        #expect(answer.ackVersion == 1)
        #expect(editor.connection.pendingProposalIDs.isEmpty)
        let stored = try #require(try TestDatabase.store.loadPlan(fixture.plan))
        #expect(stored.version == 1 && stored.document.state.tasks["review"]?.title == "Offline edit")
    }
}

@Suite("PlanClient: observing messages as they arrive", .database)
struct ClientObserverTests {
    @Test("the observer sees every message in order, after the copy changed and before the event stream")
    func observerOrder() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        defer { _ = server.terminate() }
        let editor = try TestClient(url: server.url, token: fixture.editorToken, transport: SharedTransport.instance)
        defer { editor.close() }
        let seen = Locked<[(type: String, copyVersion: Int?)]>([])
        let connection = editor.connection
        let plan = fixture.plan
        connection.observeMessages { message in
            let version = connection.copy(of: plan)?.version
            seen.withLock { $0.append((message.typeName, version)) }
        }
        try await editor.ready()
        _ = try await editor.subscribe(plan)
        let review = fixture.document.state.tasks["review"]!
        let answer = try await editor.propose(
            .replace(previous: review, proposed: review.with(title: "Seen")), plan: plan)
        #expect(answer.ackVersion == 1)
        // By the time the ack came out of the event stream, the observer had it, after the confirmed.
        let types = seen.withLock { $0.map(\.type) }
        #expect(types.contains("snapshot"))
        let confirmedIndex = try #require(types.firstIndex(of: "confirmed"))
        let ackIndex = try #require(types.firstIndex(of: "ack"))
        #expect(confirmedIndex < ackIndex)
        #expect(seen.withLock { $0[confirmedIndex].copyVersion } == 1)
    }
}
