import ChronoSketchCore
import PlanTestSupport
import Testing

@testable import PlanStore

/// Grants, the plans a user sees, and revocation against the real database; the announcements
/// are read by a real `PlanListener`.
@Suite("PlanStore access: grants, plans, revocation", .database)
struct AccessTests {
    let store = TestDatabase.store

    /// A plan owned by a new user; returns the plan and the owner.
    func ownedPlan(_ title: String = "Owned") throws -> (plan: String, owner: String) {
        let plan = TestDatabase.unique("access")
        try store.createPlan(id: plan, document: PlanDocument(title: title, state: PlanState()))
        let owner = TestDatabase.unique("owner")
        _ = try store.createUser(owner)
        try store.grant(user: owner, plan: plan, role: .owner)
        return (plan, owner)
    }

    @Test("plans: every plan the user has a role on, ordered by id, with title, role and version")
    func plansOfUser() throws {
        let user = TestDatabase.unique("lister")
        _ = try store.createUser(user)
        let first = try ownedPlan("First")
        let second = try ownedPlan("Second")
        _ = try ownedPlan("Unseen")
        try store.grant(user: user, plan: second.plan, role: .viewer)
        try store.grant(user: user, plan: first.plan, role: .editor)
        let expected = [
            PlanListing(plan: first.plan, title: "First", role: .editor, version: 0),
            PlanListing(plan: second.plan, title: "Second", role: .viewer, version: 0),
        ].sorted { Array($0.plan.utf8).lexicographicallyPrecedes(Array($1.plan.utf8)) }
        #expect(try store.plans(of: user) == expected)
        #expect(try store.plans(of: TestDatabase.unique("nobody")) == [])
    }

    @Test("grant: owners only, unknownPlan for who cannot see it, unknownUser, null revokes, the last owner stays")
    func grantRules() throws {
        let (plan, owner) = try ownedPlan()
        let bob = TestDatabase.unique("bob")
        _ = try store.createUser(bob)
        let stranger = TestDatabase.unique("stranger")
        _ = try store.createUser(stranger)
        #expect(try store.grant(by: stranger, user: bob, plan: plan, role: .viewer) == .unknownPlan)
        #expect(
            try store.grant(by: owner, user: TestDatabase.unique("ghost"), plan: plan, role: .viewer) == .unknownUser)
        #expect(try store.grant(by: owner, user: bob, plan: plan, role: .editor) == .granted)
        #expect(try store.role(of: bob, in: plan) == .editor)
        #expect(try store.grant(by: bob, user: stranger, plan: plan, role: .viewer) == .forbidden)
        #expect(try store.grant(by: owner, user: owner, plan: plan, role: nil) == .lastOwner)
        #expect(try store.grant(by: owner, user: owner, plan: plan, role: .editor) == .lastOwner)
        #expect(try store.role(of: owner, in: plan) == .owner)
        #expect(try store.grant(by: owner, user: bob, plan: plan, role: .owner) == .granted)
        #expect(try store.grant(by: bob, user: owner, plan: plan, role: nil) == .granted)
        #expect(try store.role(of: owner, in: plan) == nil)
        #expect(try store.grant(by: bob, user: bob, plan: plan, role: .viewer) == .lastOwner)
    }

    @Test("grants and revocations are announced on the access channel, in commit order")
    func announcements() async throws {
        let events = EventCollector()
        let listener = try PlanListener(conninfo: TestDatabase.url) { events.continuation.yield($0) }
        try listener.start()
        defer { listener.stop() }
        #expect(await events.first(within: 10) { $0 == .resynchronize } != nil)
        let (plan, owner) = try ownedPlan()
        #expect(await events.first(within: 10) { $0 == .roleChanged(plan: plan, user: owner, role: .owner) } != nil)
        let bob = TestDatabase.unique("bob")
        _ = try store.createUser(bob)
        #expect(try store.grant(by: owner, user: bob, plan: plan, role: .viewer) == .granted)
        #expect(try store.grant(by: owner, user: bob, plan: plan, role: nil) == .granted)
        #expect(await events.first(within: 10) { $0 == .roleChanged(plan: plan, user: bob, role: .viewer) } != nil)
        #expect(await events.first(within: 10) { $0 == .roleChanged(plan: plan, user: bob, role: nil) } != nil)
        try store.revokeTokens(of: bob)
        #expect(await events.first(within: 10) { $0 == .tokensRevoked(user: bob) } != nil)
    }

    @Test("revocation: no old token works again, a new one does; an unknown user is notFound")
    func revocation() throws {
        let user = TestDatabase.unique("revoked")
        let first = try store.createUser(user)
        let second = try store.issueToken(for: user)
        #expect(try store.revokeTokens(of: user) == 2)
        #expect(try store.authenticate(token: first) == nil)
        #expect(try store.authenticate(token: second) == nil)
        let fresh = try store.issueToken(for: user)
        #expect(try store.authenticate(token: fresh) == user)
        #expect(throws: StoreError.self) { try store.revokeTokens(of: TestDatabase.unique("ghost")) }
        #expect(try store.usersWithTokens(among: [user, TestDatabase.unique("ghost")]) == [user])
    }

    @Test("payloads: names with spaces, quotes and other scripts survive; unreadable ones are dropped")
    func payloads() {
        let access = PlanStore.accessChannel
        #expect(
            PlanListener.event(channel: access, payload: #"{"plan" : "a b \"c\"", "user" : "Zoë", "role" : null}"#)
                == .roleChanged(plan: "a b \"c\"", user: "Zoë", role: nil))
        #expect(PlanListener.event(channel: access, payload: #"{"revoked" : "x y"}"#) == .tokensRevoked(user: "x y"))
        #expect(PlanListener.event(channel: access, payload: #"{"plan":"p","user":"u","role":"king"}"#) == nil)
        #expect(PlanListener.event(channel: access, payload: "not json") == nil)
        #expect(
            PlanListener.event(channel: PlanListener.channel, payload: "7 a plan")
                == .committed(plan: "a plan", version: 7))
    }
}
