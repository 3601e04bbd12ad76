import ChronoSketchCore
import PlanProtocol
import PlanStore
import Testing

@testable import PlanServer

/// The figures `/metrics` reports are decided by the hub as actions (`HubAction.measure`), like
/// every other effect: checked here with no socket, no database and no `Metrics`.
@Suite("Hub: measurements as actions")
struct HubMeasurementTests {
    typealias F = OwnerFixture
    let start = OwnerFixture.start
    let connection = ConnectionID(1)

    /// The measurements among `actions`, in order (a gauge counted twice shows twice).
    static func measurements(_ actions: [HubAction]) -> [Measurement] {
        actions.compactMap {
            guard case .measure(let measurement) = $0 else { return nil }
            return measurement
        }
    }

    func measured(_ hub: Hub, _ event: HubEvent) -> [Measurement] {
        Self.measurements(hub.handle(event, now: start))
    }

    func say(_ hub: Hub, _ json: String) -> [Measurement] {
        measured(hub, .transport(.message(connection, Array(json.utf8))))
    }

    @Test("a connection, a plan loaded for a subscriber, the subscription, and all of it undone on close")
    func connectionAndSubscription() {
        let hub = Hub(configuration: ServerConfiguration(databaseURL: ""), now: start)
        #expect(measured(hub, .transport(.opened(connection, address: "10.0.0.2"))) == [.connections(delta: 1)])
        #expect(say(hub, #"{"type":"hello","token":"t","client":"test"}"#) == [])
        #expect(measured(hub, .authenticated(connection, .success("ed"))) == [])
        #expect(say(hub, #"{"type":"subscribe","plan":"p"}"#) == [])
        #expect(measured(hub, .roleLoaded(connection, plan: "p", .success(.editor))) == [])
        #expect(
            measured(hub, .planLoaded("p", .success(F.owner().storedCopy)))
                == [.loadedPlans(delta: 1), .subscriptions(delta: 1)])
        #expect(say(hub, #"{"type":"unsubscribe","plan":"p"}"#) == [.subscriptions(delta: -1)])
        // The role is known now: the plan is in memory, the subscription is counted at once.
        #expect(say(hub, #"{"type":"subscribe","plan":"p"}"#) == [.subscriptions(delta: 1)])
        #expect(
            measured(hub, .transport(.closed(connection, code: nil, reason: nil)))
                == [.connections(delta: -1), .subscriptions(delta: -1)])
    }

    @Test("each decision is counted by outcome once its batch commits, with the commit's time from its start")
    func decisions() {
        let owner = F.owner()
        _ = owner.propose(F.origin("p1"), F.rename("a", from: "a", to: "A"))
        _ = owner.propose(F.origin("p2", connection: 2), F.rename("b", from: "x", to: "B"))
        let committed = Self.measurements(owner.committed(.success(6), now: start + .milliseconds(12)))
        #expect(committed == [.commitLatency(.milliseconds(12)), .proposal(outcome: "confirmed")])
        let decided = Self.measurements(owner.committed(.success(6), now: start + .milliseconds(20)))
        #expect(decided == [.commitLatency(.milliseconds(8)), .proposal(outcome: "rejected", code: .staleTask)])
    }
}
