import ChronoSketchCore
import PlanProtocol
import PlanStore
import PlanTestSupport
import Testing

/// Feed keys (interchange.md §13) end to end: made on the command line and over the wire, the
/// same on every asking, reading one plan's calendar feed and nothing else, and dead after a
/// revoke, the end of the role, or `user revoke`.
@Suite("Server: feed keys for calendar applications", .database)
struct FeedKeyTests {
    static func get(_ port: Int, _ target: String) throws -> String {
        try exchangeOnce(port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    }

    /// `plan-server ARGUMENTS` on the tests' database.
    static func command(_ arguments: String) -> (status: Int32, output: String) {
        shell("'\(ServerProcess.binary)' \(arguments) 2>&1")
    }

    @Test("the command line makes, lists and revokes keys; a key reads its plan's feed only")
    func commandLine() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let port = server.port
        let plan = fixture.plan
        let created = Self.command("feed create '\(fixture.editor)' '\(plan)'")
        let path = created.output.trimmingSpaces
        #expect(created.status == 0 && path.hasPrefix("/plans/\(plan)/calendar.ics?key="), "\(created.output)")
        #expect(Self.command("feed create '\(fixture.editor)' '\(plan)'").output.trimmingSpaces == path)
        let listed = Self.command("feed list '\(fixture.editor)'")
        #expect(listed.status == 0 && listed.output.hasPrefix("\(plan)\t\(path)\t"), "\(listed.output)")

        let feed = try await offThePool { try Self.get(port, path) }
        #expect(feed.hasPrefix("HTTP/1.1 200 OK\r\n") && feed.contains("Content-Type: text/calendar; charset=utf-8"))
        #expect(feed.contains("UID:\(plan)/build@chronosketch\r\n"))
        // Nothing else: not another plan's feed, not an export, not the WebSocket.
        let key = String(path.split(separator: "=").last!)
        let other = try PlanFixture.make()
        let otherFeed = try await offThePool { try Self.get(port, "/plans/\(other.plan)/calendar.ics?key=\(key)") }
        #expect(otherFeed.hasPrefix("HTTP/1.1 404 "))
        let export = try await offThePool { try Self.get(port, "/plans/\(plan)/export?format=json&key=\(key)") }
        #expect(export.hasPrefix("HTTP/1.1 401 "))
        let socket = try TestClient(url: server.url, token: key, transport: SharedTransport.instance)
        #expect(try await socket.expect("error") == .error(code: .unauthenticated, message: "unknown token"))
        socket.close()
        let wrong = try await offThePool { try Self.get(port, "/plans/\(plan)/calendar.ics?key=x\(key)") }
        #expect(wrong.hasPrefix("HTTP/1.1 404 "))

        let revoked = Self.command("feed revoke '\(fixture.editor)' '\(plan)'")
        #expect(revoked.status == 0, "\(revoked.output)")
        #expect(try await offThePool { try Self.get(port, path) }.hasPrefix("HTTP/1.1 404 "))
        let again = Self.command("feed create '\(fixture.editor)' '\(plan)'").output.trimmingSpaces
        #expect(again.hasPrefix("/plans/\(plan)/calendar.ics?key=") && again != path)
        #expect(Self.command("feed revoke '\(fixture.editor)' '\(other.plan)'").status == 1)
        let stranger = Self.command("feed create '\(fixture.editor)' '\(other.plan)'")
        #expect(stranger.status == 1 && stranger.output.contains("no role"), "\(stranger.output)")
    }

    @Test("over the wire: the same key on every asking, revoked on request; none without a role")
    func overTheWire() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let viewer = try await TestClient.connected(to: server, token: fixture.viewerToken)
        defer { viewer.close() }
        viewer.connection.sendRaw(ClientMessage.feed(plan: fixture.plan, ref: "f1").bytes)
        let first = try await viewer.expect("feed")
        guard case .feed(let plan, let path?, let ref) = first else { throw HarnessError("no path: \(first)") }
        #expect(plan == fixture.plan && ref == "f1" && path.hasPrefix("/plans/\(fixture.plan)/calendar.ics?key="))
        viewer.connection.sendRaw(ClientMessage.feed(plan: fixture.plan, ref: "f2").bytes)
        #expect(try await viewer.expect("feed") == .feed(plan: fixture.plan, path: path, ref: "f2"))
        let port = server.port
        #expect(try await offThePool { try Self.get(port, path) }.hasPrefix("HTTP/1.1 200 OK\r\n"))

        viewer.connection.sendRaw(ClientMessage.feed(plan: fixture.plan, revoke: true, ref: "f3").bytes)
        #expect(try await viewer.expect("feed") == .feed(plan: fixture.plan, path: nil, ref: "f3"))
        #expect(try await offThePool { try Self.get(port, path) }.hasPrefix("HTTP/1.1 404 "))

        viewer.connection.sendRaw(ClientMessage.feed(plan: "no-such-plan", ref: "f4").bytes)
        let refused = try await viewer.expect("error")
        guard case .error(.unknownPlan, _, "f4") = refused else { throw HarnessError("not unknownPlan: \(refused)") }
    }

    @Test("a key dies with its user's role on the plan and with user revoke")
    func diesWithTheRole() throws {
        let fixture = try PlanFixture.make()
        let store = fixture.store
        let owner = TestDatabase.unique("owner")
        _ = try store.createUser(owner)
        try store.grant(user: owner, plan: fixture.plan, role: .owner)
        let key = try #require(try store.feedKey(plan: fixture.plan, user: fixture.editor))
        #expect(try store.feedUser(plan: fixture.plan, key: key) == fixture.editor)
        // A changed role keeps the key; an ended one takes it along.
        #expect(try store.grant(by: owner, user: fixture.editor, plan: fixture.plan, role: .viewer) == .granted)
        #expect(try store.feedUser(plan: fixture.plan, key: key) == fixture.editor)
        #expect(try store.grant(by: owner, user: fixture.editor, plan: fixture.plan, role: nil) == .granted)
        #expect(try store.feedUser(plan: fixture.plan, key: key) == nil)
        // Given the role back, the user gets a new key, never the dead one.
        try store.grant(user: fixture.editor, plan: fixture.plan, role: .editor)
        let second = try #require(try store.feedKey(plan: fixture.plan, user: fixture.editor))
        #expect(second != key)
        #expect(try store.feedUser(plan: fixture.plan, key: key) == nil)
        try store.revokeTokens(of: fixture.editor)
        #expect(try store.feedUser(plan: fixture.plan, key: second) == nil)
        #expect(try store.feedKeys(of: fixture.editor).isEmpty)
    }
}
