import ChronoSketchCore

/// Seed 003's viewport rules for the resources view's watch, as pure decisions: which query the
/// view needs, when it is sent (re-queries coalesced for 80 ms, equal queries never re-sent, a
/// failed load retried only on request), and whether a page may be applied (validated atomically
/// against the query it answers). It holds no clock: it asks to be woken (`Step.wake`) and the
/// adapter wakes it with the token.
public struct ResourceQueryPlanner: Sendable, Hashable {
    /// How long re-queries are coalesced, in milliseconds.
    public static let coalescingMilliseconds = 80
    /// Resource rows queried before the first and after the last visible one.
    public static let bufferRows = 3
    /// Time columns queried beyond each edge of the chart.
    public static let bufferColumns = 2

    /// The load state the view shows.
    public enum LoadState: Sendable, Hashable {
        /// Nothing requested, or the watch's last page applied.
        case idle
        /// A watch was sent and its first page has not arrived.
        case loading
        /// The query was refused or its page was invalid; confirmed data stays, Retry reloads.
        case failed(reason: String)
    }

    /// What the adapter must do.
    public enum Step: Sendable, Hashable {
        /// Watch this query under this id.
        case watch(TimelineQuery, id: String)
        /// End this watch.
        case unwatch(id: String)
        /// Call `wake(token:)` with this token after this many milliseconds.
        case wake(afterMilliseconds: Int, token: Int)
    }

    /// The current watch's id.
    public private(set) var watchID: String?
    /// The query the current watch asks.
    public private(set) var watched: TimelineQuery?
    /// A query waiting for the coalescing delay to pass.
    public private(set) var wanted: TimelineQuery?
    /// The load state.
    public private(set) var state = LoadState.idle
    /// Why the current watch's page was refused, when it was (for a reason in the user's language).
    public private(set) var pageError: TimelinePageError?
    private var timerToken: Int?
    private var tokens = 0
    private var counter = 0
    private let idPrefix: String

    /// A planner whose watch ids start with `w-<idPrefix>-`.
    public init(idPrefix: String) {
        self.idPrefix = idPrefix
    }

    /// The view needs `query` (nil: nothing, as when the view is hidden or has no resources).
    /// A query equal to the watched one is not sent again; any other one is sent once no other
    /// change came for `coalescingMilliseconds`.
    public mutating func want(_ query: TimelineQuery?) -> [Step] {
        guard let query else {
            wanted = nil
            timerToken = nil
            state = .idle
            guard let id = watchID else { return [] }
            watchID = nil
            watched = nil
            return [.unwatch(id: id)]
        }
        if query == watched {
            wanted = nil
            timerToken = nil
            return []
        }
        if query == wanted { return [] }
        wanted = query
        tokens += 1
        timerToken = tokens
        return [.wake(afterMilliseconds: ResourceQueryPlanner.coalescingMilliseconds, token: tokens)]
    }

    /// The coalescing delay of `token` passed: the wanted query is sent, unless a later change
    /// armed another delay.
    public mutating func wake(token: Int) -> [Step] {
        guard token == timerToken, let query = wanted else { return [] }
        timerToken = nil
        wanted = nil
        return send(query)
    }

    /// Retry (or an explicit reload): the wanted or watched query is sent now, even if equal.
    public mutating func retry() -> [Step] {
        guard let query = wanted ?? watched else { return [] }
        timerToken = nil
        wanted = nil
        return send(query)
    }

    private mutating func send(_ query: TimelineQuery) -> [Step] {
        var steps: [Step] = []
        if let old = watchID { steps.append(.unwatch(id: old)) }
        pageError = nil
        counter += 1
        let id = "w-\(idPrefix)-\(counter)"
        watchID = id
        watched = query
        state = .loading
        steps.append(.watch(query, id: id))
        return steps
    }

    /// A page arrived for `watch`. Returns the query to apply it with when it answers the current
    /// watch and passes `TimelinePage.validate(against:)`; nil for a page of an older watch
    /// (ignored) or an invalid one (nothing of it applied, the state failed).
    public mutating func receive(watch: String?, page: TimelinePage) -> TimelineQuery? {
        guard let watch, watch == watchID, let query = watched else { return nil }
        do {
            try page.validate(against: query)
        } catch {
            state = .failed(reason: error.description)
            pageError = error
            return nil
        }
        state = .idle
        return query
    }

    /// The server refused the query while it was loading (`badQuery`).
    public mutating func refused(_ reason: String) {
        guard state == .loading else { return }
        state = .failed(reason: reason)
    }
}
