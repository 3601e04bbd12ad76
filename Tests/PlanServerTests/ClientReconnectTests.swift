import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import PlanStore
import PlanTestSupport
import Testing

@Suite("PlanClient: reconnect, resume and re-send")
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
        #expect(resumed == .resumed(plan: fixture.plan, version: 1))
        let copy = try #require(viewer.connection.copy(of: fixture.plan))
        #expect(copy.version == 1 && copy["release"]?.title == "Moved on")
        let stored = try #require(try TestDatabase.store.loadPlan(fixture.plan))
        #expect(copy.snapshot == PlanSnapshot(plan: fixture.plan, version: 1, document: stored.document))
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
