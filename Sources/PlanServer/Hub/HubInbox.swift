import Synchronization

/// Where events are posted for the hub, from any thread, and where its executor takes them, one
/// at a time. Each event carries when it was posted, so that the time it waited for the hub can
/// be measured.
///
/// Two lanes. The results of the hub's own worker jobs (a commit, a plan loaded, a log read) are
/// taken before anything else that waits: a commit's result that queued behind a backlog of
/// proposals held up the plan's next commit by the time the hub took to judge them all (a fifth
/// of one plan's commit cycle under load), and every other result is likewise something the hub
/// started and someone waits for. Everything else (the transport's events, the listener's
/// announcements, ticks) is taken in the order it was posted. Each lane keeps its own order; the
/// two lanes come from different threads, so no order between them was ever promised. A result
/// is caused by an event the hub already handled, so the results lane is bounded by the work
/// the hub started and cannot starve the other.
final class HubInbox: Sendable {
    /// Which lane an event waits in.
    enum Lane: Sendable {
        /// The result of a worker job the hub started: taken first.
        case results
        /// Everything else, in the order posted.
        case arrivals
    }

    /// An event and when it was posted.
    struct Posted: Sendable {
        let event: HubEvent
        let at: ContinuousClock.Instant
    }

    private struct State: ~Copyable {
        var results = RequestQueue<Posted>()
        var arrivals = RequestQueue<Posted>()
        /// The executor, while it waits for an event (both lanes are empty then).
        var waiter: CheckedContinuation<Posted?, Never>?
        var finished = false

        /// The next event to take, results first.
        mutating func take() -> Posted? {
            if !results.isEmpty { return results.removeFirst() }
            if !arrivals.isEmpty { return arrivals.removeFirst() }
            return nil
        }
    }

    private let state = Mutex(State())

    /// Posts an event in `lane`; after `finish()` it is dropped.
    func post(_ event: HubEvent, lane: Lane = .arrivals) {
        let posted = Posted(event: event, at: .now)
        let waiter = state.withLock { state -> CheckedContinuation<Posted?, Never>? in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            switch lane {
            case .results: state.results.append(posted)
            case .arrivals: state.arrivals.append(posted)
            }
            return nil
        }
        waiter?.resume(returning: posted)
    }

    /// The next event (results first), waiting for one when none is queued; nil once `finish()`
    /// was called and everything posted before it was taken. One task takes events at a time.
    func next() async -> Posted? {
        if let ready = state.withLock({ $0.take() }) { return ready }
        return await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Posted?? in
                if let posted = state.take() { return .some(posted) }
                if state.finished { return .some(nil) }
                precondition(state.waiter == nil, "one task takes the hub's events")
                state.waiter = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Ends the inbox: events posted from now on are dropped, and `next()` returns nil once the
    /// ones already posted were taken.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<Posted?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }
}
