import ChronoSketchCore
import PlanProtocol

/// The resource view's data: the bookings its watches delivered (bounded and indexed, see
/// `BookingCache`), the watch's planner, the collapsed resources and the entry forms' bookkeeping.
public struct ResourceViewState: Sendable {
    /// Decides which query the view watches and when (seed 003's viewport rules).
    public internal(set) var planner: ResourceQueryPlanner
    /// The bookings held.
    public internal(set) var bookings = BookingCache()
    /// The selected entry's position within the selected resource's entries.
    public internal(set) var entryIndex = 0
    /// Proposals on entries waiting for an answer: id → the entry it concerns.
    public internal(set) var pendingEntries: [String: String] = [:]
    /// Resources collapsed to one line: not queried, no bars.
    public internal(set) var collapsed: Set<String> = []
    /// A booking dragged with the mouse, until its proposal is answered (see `BookingDrag`).
    public internal(set) var drag: BookingDrag?
    /// The entry an open entry form edits.
    var formTarget: TimelineAssignedEntry?

    /// Creates an empty state whose watch ids carry `idPrefix`.
    public init(idPrefix: String = "") {
        planner = ResourceQueryPlanner(idPrefix: idPrefix)
    }

    /// The current watch id.
    public var watchID: String? { planner.watchID }
    /// The query watched.
    public var query: TimelineQuery? { planner.watched }

    /// Entries by id.
    public var entries: [String: TimelineEntry] { bookings.entries }
    /// Assignments by id.
    public var assignments: [String: TimelineAssignment] { bookings.assignments }

    /// Applies a page: it replaces what its query covers (those resources, that interval), and
    /// what is far from it is dropped (`resourceOrder`: every resource id in display order).
    public mutating func apply(query: TimelineQuery, page: TimelinePage, resourceOrder: [String]) {
        bookings.apply(query: query, page: page, resourceOrder: resourceOrder)
    }

    /// The assigned entries of a resource, by start.
    public func entries(of resourceID: String) -> [TimelineAssignedEntry] {
        bookings.entries(of: resourceID)
    }

    /// The loaded assignments of an entry (those on the queried resources), by resource id.
    public func assignments(ofEntry entryID: String) -> [TimelineAssignment] {
        bookings.assignments(ofEntry: entryID)
    }

    func rowCount(copy: ClientPlanCopy?) -> Int { copy?.snapshot.resources.count ?? 0 }
}
