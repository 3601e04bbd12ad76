import ChronoSketchCore
import PlanProtocol
import PlanStore
import Testing
import WebSocketServer

@testable import PlanServer

/// Sessions through the `Hub` driven by hand: events in (with their time), actions out. No
/// socket, no database: the worker jobs it asks for are answered by the test.
@Suite("Hub: sessions, in order")
struct HubSessionTests {
    typealias F = OwnerFixture
    let start = OwnerFixture.start
    let connection = ConnectionID(1)

    func hub(helloTimeout: Duration = .seconds(10)) -> Hub {
        var configuration = ServerConfiguration(databaseURL: "")
        configuration.helloTimeout = helloTimeout
        return Hub(configuration: configuration, now: OwnerFixture.start)
    }

    func run(_ hub: Hub, _ event: HubEvent, after: Duration = .zero) -> [String] {
        ActionLines.lines(hub.handle(event, now: start + after))
    }

    func say(_ hub: Hub, _ json: String, from id: UInt64 = 1) -> [String] {
        run(hub, .transport(.message(ConnectionID(id), Array(json.utf8))))
    }

    /// A hub with connection 1 authenticated as "ed", an editor of plan "p" (loaded, version 5).
    func signedIn() -> Hub {
        let hub = hub()
        _ = run(hub, .transport(.opened(connection, address: "10.0.0.2")))
        _ = say(hub, #"{"type":"hello","token":"t","client":"test"}"#)
        _ = run(hub, .authenticated(connection, .success("ed")))
        _ = say(hub, #"{"type":"subscribe","plan":"p"}"#)
        _ = run(hub, .roleLoaded(connection, plan: "p", .success(.editor)))
        _ = run(hub, .planLoaded("p", .success(F.owner().storedCopy)))
        return hub
    }

    @Test("hello: the token is checked on a worker; requests sent right behind it are answered after the welcome")
    func helloThenRequests() {
        let hub = hub()
        #expect(run(hub, .transport(.opened(connection, address: "10.0.0.2"))) == [])
        #expect(say(hub, #"{"type":"hello","token":"t","client":"test","ref":"h1"}"#) == ["authenticate 1 t"])
        #expect(say(hub, #"{"type":"subscribe","plan":"p","ref":"s1"}"#) == [])
        #expect(run(hub, .authenticated(connection, .success("ed"))) == ["welcome ed ref h1 → 1", "role ed p"])
        #expect(run(hub, .roleLoaded(connection, plan: "p", .success(.editor))) == ["load p"])
        let loaded = run(hub, .planLoaded("p", .success(F.owner().storedCopy)))
        #expect(loaded == ["snapshot 5 → 1", "presence 1 → 1"])
    }

    @Test("an unknown token: error unauthenticated echoing the hello's ref, then close 1008")
    func unknownToken() {
        let hub = hub()
        _ = run(hub, .transport(.opened(connection, address: "10.0.0.2")))
        _ = say(hub, #"{"type":"hello","token":"t","client":"test","ref":"h1"}"#)
        #expect(
            run(hub, .authenticated(connection, .success(nil))) == ["error unauthenticated ref h1 → 1", "close 1 1008"])
    }

    @Test("a connection silent past the hello timeout is closed at the next tick; one that said hello is not")
    func silentConnectionClosed() {
        let hub = hub(helloTimeout: .seconds(3))
        _ = run(hub, .transport(.opened(ConnectionID(1), address: "a")))
        _ = run(hub, .transport(.opened(ConnectionID(2), address: "b")))
        _ = say(hub, #"{"type":"hello","token":"t","client":"test"}"#, from: 2)
        #expect(run(hub, .tick, after: .seconds(2)) == [])
        #expect(run(hub, .tick, after: .seconds(3)) == ["error unauthenticated ref - → 1", "close 1 1008"])
    }

    @Test("requests piled up behind a lookup are handled TurnBudget.maxRequests per turn, the rest in the next")
    func floodYieldsTurn() {
        let hub = signedIn()
        #expect(say(hub, #"{"type":"subscribe","plan":"q"}"#) == ["role ed q"])
        for _ in 0..<100 { #expect(say(hub, #"{"type":"unwatch","watch":"none"}"#) == []) }
        let turn = run(hub, .roleLoaded(connection, plan: "q", .success(nil)))
        #expect(turn.first == "error unknownPlan ref - → 1")
        #expect(turn.filter { $0.hasPrefix("error notSubscribed") }.count == TurnBudget.maxRequests - 1)
        #expect(turn.last == "continue 1")
        // Meanwhile the connection's new messages only join the queue.
        #expect(say(hub, #"{"type":"unwatch","watch":"none"}"#) == [])
        let rest = run(hub, .continuePending(connection))
        #expect(rest.count == 100 - (TurnBudget.maxRequests - 1) + 1)
        #expect(rest.allSatisfy { $0.hasPrefix("error notSubscribed") })
    }

    @Test("shutdown waits for the commit in flight; a proposal meanwhile is refused unavailable")
    func shutdownWaitsForCommit() {
        let hub = signedIn()
        let propose = #"{"type":"propose","id":"p1","plan":"p","baseVersion":5,"op":{"type":"remove","previous":"#
        let op = #"{"id":"b","title":"b","kind":"summary"}}}"#
        #expect(say(hub, propose + op) == ["commit 5+1"])
        #expect(run(hub, .shutdown) == [])
        let again = #"{"type":"propose","id":"p2","plan":"p","baseVersion":5,"op":{"type":"remove","previous":"#
        #expect(say(hub, again + op) == ["rejected p2 unavailable 6 → 1"])
        #expect(
            run(hub, .committed(plan: "p", .success(6))) == ["confirmed 6 p1 → *", "ack p1 6 → 1", "finish shutdown"])
    }

    @Test("a closed connection leaves presence, and the plan leaves memory once idle for its lifetime")
    func closeAndIdlePlan() {
        let hub = signedIn()
        #expect(hub.owners["p"]?.audience.subscribers.count == 1)
        _ = run(hub, .transport(.closed(connection, code: nil, reason: nil)))
        #expect(hub.owners["p"]?.audience.subscribers.isEmpty == true)
        #expect(run(hub, .tick, after: .seconds(1)) == [])
        #expect(hub.owners["p"] != nil)
        _ = run(hub, .tick, after: hub.configuration.idlePlanLifetime + .seconds(1))
        #expect(hub.owners["p"] == nil)
    }

    @Test("the figures /metrics reports are actions: a connection, a plan loaded, a subscription, all undone on close")
    func measurements() {
        let subject = hub()
        func measured(_ event: HubEvent) -> [Measurement] {
            ActionLines.measurements(subject.handle(event, now: start))
        }
        func said(_ json: String) -> [Measurement] { measured(.transport(.message(connection, Array(json.utf8)))) }
        #expect(measured(.transport(.opened(connection, address: "10.0.0.2"))) == [.connections(delta: 1)])
        #expect(said(#"{"type":"hello","token":"t","client":"test"}"#) == [])
        #expect(measured(.authenticated(connection, .success("ed"))) == [])
        #expect(said(#"{"type":"subscribe","plan":"p"}"#) == [])
        #expect(measured(.roleLoaded(connection, plan: "p", .success(.editor))) == [])
        #expect(
            measured(.planLoaded("p", .success(F.owner().storedCopy)))
                == [.loadedPlans(delta: 1), .subscriptions(delta: 1)])
        #expect(said(#"{"type":"unsubscribe","plan":"p"}"#) == [.subscriptions(delta: -1)])
        // The role is known now: the plan is in memory, the subscription is counted at once.
        #expect(said(#"{"type":"subscribe","plan":"p"}"#) == [.subscriptions(delta: 1)])
        #expect(
            measured(.transport(.closed(connection, code: nil, reason: nil)))
                == [.connections(delta: -1), .subscriptions(delta: -1)])
    }
}
