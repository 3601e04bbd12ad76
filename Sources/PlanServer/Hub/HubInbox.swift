import Dispatch
import SystemSupport

/// Where events are posted for the hub, from any thread, and where its executor takes them, one
/// at a time, on the thread of its own it runs on (`next()` blocks). Each event carries when it
/// was posted, so that the time it waited for the hub can be measured.
///
/// A post wakes the executor's thread only when it sleeps (a semaphore that counts the events).
/// The executor ran as a task on Swift's global executor before: every event that found it idle
/// went through Dispatch's thread pool (a queue poke, a manager thread), a tenth of the server's
/// CPU in a storm of connections.
///
/// Two lanes. What the database reports — the results of the hub's own worker jobs (a commit, a
/// plan loaded, a log read) and the listener's announcements (other processes' commits, changes
/// of access) — is taken before anything else that waits: a commit's result that queued behind
/// a backlog of proposals held up the plan's next commit until the hub had judged them all
/// (events waited 3 ms on average under `ops/bench commits`). Announcements share the lane with the
/// results so that their order stays as posted: a role lookup that read `editor` is handled
/// after a revocation announced before it, as the hub's access checks assume. Everything else
/// (the transport's events, ticks) is taken in the order it was posted. The lanes come from
/// different threads, so no order between a message and a result was ever promised. Results
/// are caused by events the hub handled and announcements are rare, so the results lane cannot
/// starve the other.
final class HubInbox: Sendable {
    /// Which lane an event waits in.
    enum Lane: Sendable {
        /// The result of a worker job the hub started, or the listener's announcement: taken first.
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
        var finished = false

        /// The next event to take, results first.
        mutating func take() -> Posted? {
            if !results.isEmpty { return results.removeFirst() }
            if !arrivals.isEmpty { return arrivals.removeFirst() }
            return nil
        }
    }

    private let state = Locked(State())
    /// Signalled once per event queued, and once by `finish()`.
    private let queued = DispatchSemaphore(value: 0)

    /// Posts an event in `lane`; after `finish()` it is dropped.
    func post(_ event: HubEvent, lane: Lane = .arrivals) {
        let posted = Posted(event: event, at: .now)
        let accepted = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            switch lane {
            case .results: state.results.append(posted)
            case .arrivals: state.arrivals.append(posted)
            }
            return true
        }
        if accepted { queued.signal() }
    }

    /// The next event (results first), waiting for one when none is queued; nil once `finish()`
    /// was called and everything posted before it was taken. One thread takes events at a time.
    func next() -> Posted? {
        queued.wait()
        let taken = state.withLock { state -> Posted?? in
            if let posted = state.take() { return .some(posted) }
            return state.finished ? .some(nil) : .none
        }
        guard let taken else { preconditionFailure("the hub's inbox was signalled with nothing in it") }
        // Finished and empty: the next call ends at once too.
        if taken == nil { queued.signal() }
        return taken
    }

    /// Ends the inbox: events posted from now on are dropped, and `next()` returns nil once the
    /// ones already posted were taken.
    func finish() {
        let first = state.withLock { state -> Bool in
            defer { state.finished = true }
            return !state.finished
        }
        if first { queued.signal() }
    }
}
