import ChronoSketchCore
import PlanProtocol
import PlanStore
import Testing
import WebSocketServer

@testable import PlanServer

/// Access while sessions are open, through the `Hub` driven by hand: `plans`, `grant`, the
/// announcements of role changes and revocations, and the connection limits. No socket, no
/// database: the worker jobs it asks for are answered by the test.
@Suite("Hub: grants, revocation and connection limits")
struct HubAccessTests {
    typealias F = OwnerFixture
    let start = OwnerFixture.start

    func hub(perUser: Int = 1000) -> Hub {
        var configuration = ServerConfiguration(databaseURL: "")
        configuration.maxConnectionsPerUser = perUser
        return Hub(configuration: configuration, now: OwnerFixture.start)
    }

    func run(_ hub: Hub, _ event: HubEvent) -> [String] {
        ActionLines.lines(hub.handle(event, now: start))
    }

    func say(_ hub: Hub, _ json: String, from id: UInt64 = 1) -> [String] {
        run(hub, .transport(.message(ConnectionID(id), Array(json.utf8))))
    }

    /// Connection `id` from `address`, authenticated as `user`.
    func signIn(_ hub: Hub, _ id: UInt64, as user: String, from address: String = "10.0.0.2") -> [String] {
        _ = run(hub, .transport(.opened(ConnectionID(id), address: address)))
        _ = say(hub, #"{"type":"hello","token":"t"}"#, from: id)
        return run(hub, .authenticated(ConnectionID(id), .success(user)))
    }

    /// A hub with connection 1 signed in as "ed" with `role` on plan "p" (loaded at version 5),
    /// subscribed to it and watching "w1" on it.
    func subscribed(as role: PlanRole = .editor) -> Hub {
        let hub = hub()
        _ = signIn(hub, 1, as: "ed")
        _ = say(hub, #"{"type":"subscribe","plan":"p"}"#)
        _ = run(hub, .roleLoaded(ConnectionID(1), plan: "p", .success(role)))
        _ = run(hub, .planLoaded("p", .success(F.owner().storedCopy)))
        let query = #"{"start":"2026-09-01T00:00","end":"2026-09-02T00:00","resourceIDs":["room"]}"#
        _ = say(hub, #"{"type":"watch","plan":"p","watch":"w1","query":\#(query)}"#)
        return hub
    }

    let rename =
        #"{"type":"propose","id":"ID","plan":"p","baseVersion":5,"op":{"type":"replace","#
        + #""previous":{"id":"a","title":"a","kind":"summary"},"proposed":{"id":"a","title":"A","kind":"summary"}}}"#

    func propose(_ id: String) -> String { rename.replacing("\"ID\"", with: "\"\(id)\"") }

    @Test("plans waits for the database; requests behind it are answered after it, in order")
    func plansInOrder() {
        let hub = hub()
        _ = signIn(hub, 1, as: "ed")
        #expect(say(hub, #"{"type":"plans","ref":"l1"}"#) == ["list plans of ed"])
        #expect(say(hub, #"{"type":"unwatch","watch":"none","ref":"u1"}"#) == [])
        let listing = [PlanListing(plan: "a", title: "A", role: .owner, version: 3)]
        #expect(
            run(hub, .plansListed(ConnectionID(1), ref: "l1", .success(listing)))
                == ["plans a:owner ref l1 → 1", "error notSubscribed ref u1 → 1"])
    }

    @Test("grant: granted echoes the ref; a last owner is forbidden; unknownUser and unknownPlan as the contract says")
    func grantOutcomes() {
        let hub = hub()
        _ = signIn(hub, 1, as: "olga")
        let outcomes: [(GrantOutcome, String)] = [
            (.granted, "granted p bob null ref g → 1"), (.lastOwner, "error forbidden ref g → 1"),
            (.forbidden, "error forbidden ref g → 1"), (.unknownUser, "error unknownUser ref g → 1"),
            (.unknownPlan, "error unknownPlan ref g → 1"),
        ]
        for (outcome, answer) in outcomes {
            #expect(
                say(hub, #"{"type":"grant","plan":"p","user":"bob","role":null,"ref":"g"}"#)
                    == ["grant by olga: bob p null"])
            let request = GrantRequest(plan: "p", user: "bob", role: nil, ref: "g")
            #expect(run(hub, .grantDecided(ConnectionID(1), request, .success(outcome))) == [answer])
        }
    }

    @Test("a role lost ends the plan's subscription and watches with one error forbidden carrying the plan")
    func roleLost() throws {
        let hub = subscribed()
        // The plan's audience as it stands now (the owner is a value: read it anew after each event).
        func audience() throws -> PlanAudience { try #require(hub.owners["p"]).audience }
        #expect(try audience().subscribers.count == 1 && !audience().watches.isEmpty)
        #expect(run(hub, .accessChanged(.role(plan: "p", user: "ed", nil))) == ["error forbidden plan p → 1"])
        #expect(try audience().subscribers.isEmpty && audience().watches.isEmpty && audience().presence.count == 0)
        // Later proposals: unknownPlan, at once (no lookup); a second announcement sends nothing.
        #expect(say(hub, propose("x1")) == ["rejected x1 unknownPlan - → 1"])
        #expect(run(hub, .accessChanged(.role(plan: "p", user: "ed", nil))) == [])
        // Another user's announcement touches nobody here.
        #expect(run(hub, .accessChanged(.role(plan: "p", user: "someone", .owner))) == [])
    }

    @Test("a changed role is announced with a role event, used for the next proposal and moves the session in presence")
    func roleChanged() throws {
        let hub = subscribed(as: .viewer)
        func audience() throws -> PlanAudience { try #require(hub.owners["p"]).audience }
        #expect(try audience().presence.listed.first?.rank == 1)
        #expect(say(hub, propose("v1")) == ["commit 5+0 decisions v1"])
        _ = run(hub, .committed(plan: "p", .success(5)))
        #expect(run(hub, .accessChanged(.role(plan: "p", user: "ed", .editor))) == ["role p editor → 1"])
        #expect(try audience().presence.listed.first?.rank == 0)
        // The same role announced again (a resynchronization) is not told twice.
        #expect(run(hub, .accessChanged(.role(plan: "p", user: "ed", .editor))) == [])
        #expect(say(hub, propose("v2")) == ["commit 5+1"])
        // The coalesced presence goes out at the next tick.
        _ = run(hub, .committed(plan: "p", .success(6)))
        #expect(run(hub, .accessChanged(.role(plan: "p", user: "ed", .viewer))) == ["role p viewer → 1"])
        #expect(try audience().presence.listed.first?.rank == 1)
    }

    @Test("an announcement that comes while a lookup is under way wins over the lookup's older read")
    func announcementBeatsLookup() {
        let hub = hub()
        _ = signIn(hub, 1, as: "ed")
        #expect(say(hub, propose("e1")) == ["role ed p"])
        #expect(run(hub, .accessChanged(.role(plan: "p", user: "ed", nil))) == [])
        #expect(
            run(hub, .roleLoaded(ConnectionID(1), plan: "p", .success(.editor))) == ["rejected e1 unknownPlan - → 1"])
    }

    @Test("revoked tokens close every session of the user with 1008, and a token check under way is refused")
    func revocation() {
        let hub = hub()
        _ = signIn(hub, 1, as: "ed")
        _ = signIn(hub, 2, as: "ed")
        _ = signIn(hub, 3, as: "other")
        _ = run(hub, .transport(.opened(ConnectionID(4), address: "10.0.0.2")))
        _ = say(hub, #"{"type":"hello","token":"old"}"#, from: 4)
        let closed = run(hub, .accessChanged(.tokensRevoked(user: "ed")))
        #expect(closed.filter { $0.hasPrefix("close") }.sorted() == ["close 1 1008", "close 2 1008"])
        #expect(closed.filter { $0.hasPrefix("error unauthenticated") }.count == 2)
        // The check of connection 4 read the old token before it was deleted: refused all the same.
        #expect(
            run(hub, .authenticated(ConnectionID(4), .success("ed")))
                == ["error unauthenticated ref - → 4", "close 4 1008"])
        // A check that starts after the revocation reads the database after it: a new token works.
        _ = run(hub, .transport(.opened(ConnectionID(5), address: "10.0.0.2")))
        _ = say(hub, #"{"type":"hello","token":"new"}"#, from: 5)
        #expect(run(hub, .authenticated(ConnectionID(5), .success("ed"))) == ["welcome ed ref - → 5"])
    }

    @Test("connections beyond the per-user limit are closed with 1008; closing frees a place")
    func connectionLimits() {
        let hub = hub(perUser: 2)
        #expect(signIn(hub, 1, as: "ed") == ["welcome ed ref - → 1"])
        #expect(signIn(hub, 2, as: "ed") == ["welcome ed ref - → 2"])
        #expect(signIn(hub, 3, as: "ed") == ["close 3 1008"])
        #expect(signIn(hub, 5, as: "ann", from: "10.0.0.3") == ["welcome ann ref - → 5"])
        _ = run(hub, .transport(.closed(ConnectionID(3), code: nil, reason: nil)))
        _ = run(hub, .transport(.closed(ConnectionID(1), code: nil, reason: nil)))
        #expect(signIn(hub, 6, as: "ed") == ["welcome ed ref - → 6"])
    }

    @Test("an authenticated session's unsent data is charged to its user")
    func chargedToUser() {
        let hub = hub()
        _ = run(hub, .transport(.opened(ConnectionID(1), address: "10.0.0.2")))
        _ = run(hub, .transport(.message(ConnectionID(1), Array(#"{"type":"hello","token":"t"}"#.utf8))))
        let actions = hub.handle(.authenticated(ConnectionID(1), .success("ed")), now: .now)
        #expect(actions.contains { if case .chargeTo(ConnectionID(1), "ed") = $0 { true } else { false } })
    }

    @Test("after missed announcements, the roles sessions rely on and their tokens are read again")
    func resynchronize() {
        let hub = subscribed()
        _ = signIn(hub, 2, as: "gone")
        #expect(run(hub, .accessChanged(.resynchronize)) == ["check access ed@p users [\"ed\", \"gone\"]"])
        let keys = [AccessKey(user: "ed", plan: "p")]
        let checked = CheckedAccess(roles: [nil], users: ["ed", "gone"], usersWithTokens: ["ed"])
        let lines = run(hub, .accessChecked(keys, .success(checked)))
        #expect(lines == ["error forbidden plan p → 1", "error unauthenticated ref - → 2", "close 2 1008"])
    }
}
