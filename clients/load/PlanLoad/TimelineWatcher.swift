import ChronoSketchCore
import PlanClient
import PlanProtocol
import SystemSupport

/// A timeline watcher with a moving window: it follows the plan and, every interval, re-watches
/// (the same watch id, so the server replaces the watch) a 14-day window shifted by one day,
/// measuring the time from the request to the page that answers it.
final class TimelineWatcher: Sendable {
    struct State: Sendable {
        /// Window start (minute number) → request time.
        var requested: [Int: UInt64] = [:]
        var latencies: [Double] = []
        var pages = 0
        var step = 0
    }

    let connection: PlanConnection
    let plan: String
    let state = Locked(State())
    let offset: Int

    let index: Int
    /// Where a refusal by policy (1008) is recorded.
    let refusal: Refusal

    init(configuration: LoadConfiguration, index: Int, transport: ClientTransport, refusal: Refusal) throws {
        self.index = index
        self.refusal = refusal
        plan = configuration.plans[index % configuration.plans.count]
        offset = index * 7
        connection = try PlanConnection(
            options: .init(
                url: configuration.server, token: configuration.token, clientName: "plan-load/watcher\(index)",
                reconnect: true),
            transport: transport)
    }

    /// Connects, subscribes and starts listening.
    func start() -> Task<Void, Never> {
        let stream = connection.events
        let listener = Task { [self] in
            for await event in stream {
                if case .disconnected(let code, let reason, _) = event {
                    refusal.record("watcher \(index)", code: code, reason: reason)
                }
                guard case .message(.page(_, .some("moving"), _, let query, _, _)) = event else { continue }
                let now = ProcessIO.monotonicNanoseconds()
                state.withLock { state in
                    state.pages += 1
                    if let sent = state.requested.removeValue(forKey: query.start.minuteNumber) {
                        state.latencies.append(Double(now - sent) / 1e6)
                    }
                }
            }
        }
        connection.subscribe(plan)
        connection.start()
        return listener
    }

    /// Moves the window one day on (wrapping after 90 days); false while the plan is not there yet.
    @discardableResult
    func move() -> Bool {
        guard let copy = connection.copy(of: plan), !copy.snapshot.resources.isEmpty,
            let origin = try? CivilDate("2026-08-01")
        else { return false }
        let step = state.withLock { state -> Int in
            state.step += 1
            return state.step
        }
        guard let first = try? origin.adding(days: (offset + step) % 90),
            let last = try? first.adding(days: 14),
            let query = try? TimelineQuery(
                start: LocalDateTime(startOf: first), end: LocalDateTime(startOf: last),
                resourceIDs: copy.snapshot.resources.map(\.id))
        else { return false }
        let now = ProcessIO.monotonicNanoseconds()
        state.withLock { $0.requested[query.start.minuteNumber] = now }
        connection.watch(plan, query: query, id: "moving")
        return true
    }
}
