import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import PlanServer
import PlanStore
import PlanTestSupport
import Testing

/// Grants and revocation over the wire, end to end with real processes: two servers on one
/// database (an owner on one, the grantee on the other), and `plan-server user revoke` and
/// `user token` run as commands. Every wait awaits a message or a close, and is bounded.
@Suite("Server: grants and revocation across processes", .database)
struct GrantEndToEndTests {
    /// A new user; its name and token.
    static func user(_ prefix: String) throws -> (name: String, token: String) {
        let name = TestDatabase.unique(prefix)
        return (name, try TestDatabase.store.createUser(name))
    }

    /// Runs `plan-server ARGUMENTS --database URL`; its exit status and output.
    static func command(_ arguments: String) async throws -> (status: Int32, output: String) {
        try await offThePool { shell("\(ServerProcess.binary) \(arguments) --database '\(TestDatabase.url)'") }
    }

    static let rename = PlanOperation.replace(
        previous: Demo.document.state.tasks.tasks.first { $0.id == "review" }!,
        proposed: try! GanttTask(
            id: "review", title: "Review again", parentID: "design", kind: .activity(schedule: nil, progress: 0)))

    @Test("plans: every plan the user has a role on, ordered by id, with title, role and version; ref echoed")
    func plans() async throws {
        let first = try PlanFixture.make()
        let second = try PlanFixture.make()
        let (name, token) = try Self.user("lister")
        try TestDatabase.store.grant(user: name, plan: second.plan, role: .owner)
        try TestDatabase.store.grant(user: name, plan: first.plan, role: .viewer)
        let server = try ServerProcess.start()
        let client = try await TestClient.connected(to: server, token: token)
        defer { client.close() }
        client.connection.sendRaw(ClientMessage.plans(ref: "l1").bytes)
        let answer = try await client.expect("plans")
        let expected = [
            PlanListing(plan: first.plan, title: "Demo", role: .viewer, version: 0),
            PlanListing(plan: second.plan, title: "Demo", role: .owner, version: 0),
        ].sorted { Array($0.plan.utf8).lexicographicallyPrecedes(Array($1.plan.utf8)) }
        #expect(answer == .plans(expected, ref: "l1"))
    }

    @Test("a grant on server A takes effect at once on an open session on server B; so does the revocation")
    func grantAcrossProcesses() async throws {
        let fixture = try PlanFixture.make()
        let plan = fixture.plan
        let ownerToken = try fixture.user(.owner)
        let (bob, bobToken) = try Self.user("bob")
        try TestDatabase.store.grant(user: bob, plan: plan, role: .viewer)
        let serverA = try ServerProcess.start()
        let serverB = try ServerProcess.start()
        let owner = try await TestClient.connected(to: serverA, token: ownerToken)
        defer { owner.close() }
        // Carol watches presence on B: bob, newest, is listed after her until he becomes an editor.
        let carol = try await TestClient.connected(to: serverB, token: fixture.viewerToken)
        defer { carol.close() }
        _ = try await carol.subscribe(plan)
        let viewer = try await TestClient.connected(to: serverB, token: bobToken)
        defer { viewer.close() }
        #expect(try await viewer.subscribe(plan).role == .viewer, "the snapshot names the session's role")
        let query = try TimelineQuery(
            start: LocalDateTime("2026-09-01T00:00"), end: LocalDateTime("2026-10-01T00:00"), resourceIDs: ["room-1"])
        viewer.connection.watch(plan, query: query, id: "w1")
        _ = try await viewer.expect("page") { if case .page(_, "w1", _, _, _, _) = $0 { true } else { false } }
        #expect(try await viewer.propose(Self.rename, plan: plan, id: "as-viewer").rejectionCode == .forbidden)

        owner.connection.sendRaw(ClientMessage.grant(plan: plan, user: bob, role: .editor, ref: "g1").bytes)
        #expect(try await owner.expect("granted") == .granted(plan: plan, user: bob, role: .editor, ref: "g1"))
        // Bob's session on B hears its new role as an event, and his copy follows it.
        #expect(try await viewer.expect("role") == .role(plan: plan, role: .editor))
        #expect(viewer.connection.copy(of: plan)?.role == .editor)
        _ = try await carol.expect("presence") {
            if case .presence(_, _, let sessions) = $0 { sessions.first?.user == bob } else { false }
        }
        #expect(try await viewer.propose(Self.rename, plan: plan, id: "as-editor").ackVersion == 1)

        owner.connection.sendRaw(ClientMessage.grant(plan: plan, user: bob, role: nil, ref: "g2").bytes)
        #expect(try await owner.expect("granted") == .granted(plan: plan, user: bob, role: nil, ref: "g2"))
        let ended = try await viewer.expect("error") { $0.plan == plan }
        guard case .planError(.forbidden, _, plan) = ended else { throw HarnessError("unexpected \(ended)") }
        let later = try await viewer.propose(Self.rename, plan: plan, id: "after", baseVersion: 1)
        #expect(later.rejectionCode == .unknownPlan)
        // Nothing more of the plan reaches bob: an edit by the owner is heard by carol alone.
        #expect(try await owner.propose(.remove(previous: Self.rename.proposedTask), plan: plan).ackVersion == 2)
        _ = try await carol.expect("confirmed") { $0.plan == plan }
        // Bob's answer to unsubscribe comes after anything B sent him before it: not version 2.
        viewer.connection.sendRaw(ClientMessage.unsubscribe(plan: plan, ref: "u").bytes)
        let next = await viewer.inbox.next(within: 10) { event in
            guard case .message(let message) = event else { return false }
            if case .confirmed(_, 2, _, _, _, _, _) = message { return true }
            return message.ref == "u"
        }
        guard case .message(.error(.notSubscribed, _, "u"))? = next else {
            throw HarnessError("then \(String(describing: next))")
        }
    }

    @Test("grant refusals: a viewer is forbidden, a stranger gets unknownPlan, unknownUser, the last owner stays")
    func grantRefusals() async throws {
        let fixture = try PlanFixture.make()
        let (olga, olgaToken) = try Self.user("olga")
        try TestDatabase.store.grant(user: olga, plan: fixture.plan, role: .owner)
        let server = try ServerProcess.start()
        let owner = try await TestClient.connected(to: server, token: olgaToken)
        let viewer = try await TestClient.connected(to: server, token: fixture.viewerToken)
        let stranger = try await TestClient.connected(to: server, token: fixture.strangerToken)
        defer { for client in [owner, viewer, stranger] { client.close() } }
        let cases: [(TestClient, ClientMessage, ProtocolErrorCode)] = [
            (viewer, .grant(plan: fixture.plan, user: olga, role: nil, ref: "r1"), .forbidden),
            (stranger, .grant(plan: fixture.plan, user: olga, role: nil, ref: "r2"), .unknownPlan),
            (
                owner, .grant(plan: fixture.plan, user: TestDatabase.unique("ghost"), role: .viewer, ref: "r3"),
                .unknownUser
            ),
            (owner, .grant(plan: fixture.plan, user: olga, role: .editor, ref: "r4"), .forbidden),
        ]
        for (client, message, code) in cases {
            client.connection.sendRaw(message.bytes)
            let answer = try await client.expect("error") { $0.ref == message.ref }
            guard case .error(code, _, _) = answer else { throw HarnessError("\(message): \(answer)") }
        }
        #expect(try TestDatabase.store.role(of: olga, in: fixture.plan) == .owner)
    }

    @Test(
        "user revoke closes the user's sessions on both servers with 1008; user token issues a new one")
    func revokeAcrossProcesses() async throws {
        let fixture = try PlanFixture.make()
        let (name, token) = try Self.user("revoked")
        try TestDatabase.store.grant(user: name, plan: fixture.plan, role: .editor)
        let serverA = try ServerProcess.start()
        let serverB = try ServerProcess.start()
        let onA = try await TestClient.connected(to: serverA, token: token)
        let onB = try await TestClient.connected(to: serverB, token: token)
        let bystander = try await TestClient.connected(to: serverB, token: fixture.editorToken)
        defer { for client in [onA, onB, bystander] { client.close() } }
        _ = try await onB.subscribe(fixture.plan)

        let revoked = try await Self.command("user revoke \(name)")
        #expect(revoked.status == 0, "\(revoked.output)")
        // How fast is measured by a benchmark, not here: under the whole suite's load a timed
        // bound only measures the machine. The closes come from the NOTIFY, not from a timeout.
        #expect(try await onA.expectDisconnect(within: 5) == 1008)
        #expect(try await onB.expectDisconnect(within: 5) == 1008)
        // The bystander stays.
        #expect(try await bystander.propose(Self.rename, plan: fixture.plan).ackVersion == 1)

        let again = try TestClient(url: serverB.url, token: token, transport: SharedTransport.instance)
        #expect(try await again.expect("error") == .error(code: .unauthenticated, message: "unknown token"))
        #expect(try await again.expectDisconnect() == 1008)
        let issued = try await Self.command("user token \(name)")
        #expect(issued.status == 0)
        let fresh = String(issued.output.split(separator: "\n").last ?? "")
        let back = try await TestClient.connected(to: serverA, token: fresh)
        back.close()
    }

    @Test("connections beyond --max-connections-per-user are closed with 1008")
    func connectionLimits() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start(arguments: ["--max-connections-per-user", "2"])
        let first = try await TestClient.connected(to: server, token: fixture.editorToken)
        let second = try await TestClient.connected(to: server, token: fixture.editorToken)
        let third = try TestClient(url: server.url, token: fixture.editorToken, transport: SharedTransport.instance)
        #expect(try await third.expectDisconnect() == 1008)
        let viewer = try await TestClient.connected(to: server, token: fixture.viewerToken)
        for client in [first, second, third, viewer] { client.close() }
    }
}

extension PlanOperation {
    /// The task a `replace` proposes.
    var proposedTask: GanttTask {
        guard case .replace(_, let proposed) = self else { preconditionFailure("not a replace") }
        return proposed
    }
}
