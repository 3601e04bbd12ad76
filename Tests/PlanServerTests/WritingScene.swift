import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing

/// A server, a fresh demo plan, its editor (not subscribed; it asked one query, so its role is
/// known) and a subscribed viewer who watches the stream.
struct WritingScene {
    let fixture: PlanFixture
    let server: ServerProcess
    let editor: TestClient
    let viewer: TestClient
    let initial: ClientPlanCopy
    let initialTimeline: TimelinePage

    static func make() async throws -> WritingScene {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let editor = try TestClient(url: server.url, token: fixture.editorToken, transport: SharedTransport.instance)
        let viewer = try TestClient(url: server.url, token: fixture.viewerToken, transport: SharedTransport.instance)
        try await editor.ready()
        try await viewer.ready()
        let initial = try await viewer.subscribe(fixture.plan)
        let timeline = try await editor.timelinePage(fixture.plan)
        return WritingScene(
            fixture: fixture, server: server, editor: editor, viewer: viewer, initial: initial,
            initialTimeline: timeline)
    }

    func close() {
        editor.close()
        viewer.close()
    }

    /// A fresh subscriber's copy.
    func freshCopy() async throws -> ClientPlanCopy {
        let client = try await TestClient.connected(to: server, token: fixture.viewerToken)
        defer { client.close() }
        return try await client.subscribe(fixture.plan)
    }

    /// Renames Release (from the untouched demo plan's value onwards, whatever its title now).
    func proposeMarker(on client: TestClient? = nil) async throws -> ServerMessage {
        let copy = try await freshCopy()
        let release = copy["release"]!
        return try await (client ?? editor).propose(
            .replace(previous: release, proposed: release.with(title: release.title + "!")), plan: fixture.plan,
            id: TestDatabase.unique("marker"), baseVersion: copy.version)
    }

    /// Nothing changed: a fresh snapshot and the timeline are as at the start, the viewer heard
    /// nothing, and the next change takes version 1.
    func expectUnchanged(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await freshCopy() == initial, sourceLocation: sourceLocation)
        let timeline = try await editor.timelinePage(fixture.plan)
        #expect(Set(timeline.entries) == Set(initialTimeline.entries), sourceLocation: sourceLocation)
        #expect(Set(timeline.assignments) == Set(initialTimeline.assignments), sourceLocation: sourceLocation)
        let marker = try await proposeMarker()
        #expect(marker.ackVersion == 1, sourceLocation: sourceLocation)
        let next = try await viewer.nextMessage()
        #expect(
            next.confirmedVersion == 1 && next.mutationID == marker.proposalID, "the viewer's next message: \(next)",
            sourceLocation: sourceLocation)
    }
}

extension TestClient {
    /// Sends a `propose` written by hand and waits for its answer.
    func proposeRaw(id: String, plan: String, baseVersion: Int, op: String) async throws -> ServerMessage {
        connection.sendRaw(
            Array(
                #"{"type":"propose","id":"\#(id)","plan":"\#(plan)","baseVersion":\#(baseVersion),"op":\#(op)}"#.utf8))
        return try await answer(to: id)
    }

    /// The next message other than `presence` (and the `welcome`, which `ready()` leaves behind).
    func nextMessage(within seconds: Double = 10) async throws -> ServerMessage {
        let event = await inbox.next(within: seconds) { event in
            if case .message(let message) = event { return !["presence", "welcome"].contains(message.typeName) }
            return false
        }
        guard case .message(let message)? = event else { throw HarnessError("no message within \(seconds) s") }
        return message
    }

    /// The next `ack` or `rejected`, whatever its id.
    func nextAnswer(within seconds: Double = 10) async throws -> ServerMessage {
        let event = await inbox.next(within: seconds) { event in
            if case .message(let message) = event { return ["ack", "rejected"].contains(message.typeName) }
            return false
        }
        guard case .message(let message)? = event else { throw HarnessError("no answer within \(seconds) s") }
        return message
    }

    /// The whole demo timeline (both rooms, September and October 2026) as a one-off query sees it.
    func timelinePage(_ plan: String) async throws -> TimelinePage {
        let ref = TestDatabase.unique("page")
        let query = try TimelineQuery(
            start: Demo.time("2026-09-01T00:00"), end: Demo.time("2026-11-01T00:00"),
            resourceIDs: ["room-1", "room-2"])
        connection.sendRaw(ClientMessage.query(plan: plan, query: query, ref: ref).bytes)
        guard case .page(_, _, _, _, let page, _) = try await expect("page", where: { $0.ref == ref }) else {
            throw HarnessError("no page")
        }
        return page
    }
}

extension ServerMessage {
    /// The version of a `confirmed`, else nil.
    var confirmedVersion: Int? {
        if case .confirmed(_, let version, _, _, _, _, _) = self { return version }
        return nil
    }

    /// The mutation id of a `confirmed`, else nil.
    var mutationID: String? {
        if case .confirmed(_, _, let id, _, _, _, _) = self { return id }
        return nil
    }

    /// The proposal id of an `ack` or `rejected`, else nil.
    var proposalID: String? {
        switch self {
        case .ack(let id, _, _, _, _), .rejected(let id, _, _, _, _, _, _): id
        default: nil
        }
    }

    /// The same `ack` or `rejected` for another proposal id.
    func with(id: String) -> ServerMessage {
        switch self {
        case .ack(_, let plan, let version, let noop, let ref):
            .ack(id: id, plan: plan, version: version, noop: noop, ref: ref)
        case .rejected(_, let plan, let code, let message, let version, let ref, _):
            .rejected(id: id, plan: plan, code: code, message: message, version: version, ref: ref)
        default: self
        }
    }
}
