import ChronoSketchCore
import PlanProtocol

/// The resource view's data: the entries and assignments the current watch delivered, the watch's
/// planner, the collapsed resources and the entry forms' bookkeeping.
public struct ResourceViewState: Sendable {
    /// Decides which query the view watches and when (seed 003's viewport rules).
    public internal(set) var planner: ResourceQueryPlanner
    /// Entries by id.
    public internal(set) var entries: [String: TimelineEntry] = [:]
    /// Assignments by id.
    public internal(set) var assignments: [String: TimelineAssignment] = [:]
    /// The selected entry's position within the selected resource's entries.
    public internal(set) var entryIndex = 0
    /// Proposals on entries waiting for an answer: id → the entry it concerns.
    public internal(set) var pendingEntries: [String: String] = [:]
    /// Resources collapsed to one line: not queried, no bars.
    public internal(set) var collapsed: Set<String> = []
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

    /// Applies a page: it replaces what its query covers (those resources, that interval).
    public mutating func apply(query: TimelineQuery, page: TimelinePage) {
        for (id, assignment) in assignments where query.requests(resourceID: assignment.resourceID) {
            if let entry = entries[assignment.entryID], !query.overlaps(entry) { continue }
            assignments[id] = nil
        }
        for entry in page.entries { entries[entry.id] = entry }
        for assignment in page.assignments { assignments[assignment.id] = assignment }
        let used = Set(assignments.values.map(\.entryID))
        entries = entries.filter { used.contains($0.key) }
    }

    /// The assigned entries of a resource, by start.
    public func entries(of resourceID: String) -> [TimelineAssignedEntry] {
        assignments.values.filter { $0.resourceID == resourceID }
            .compactMap { assignment in
                entries[assignment.entryID].map { TimelineAssignedEntry(entry: $0, assignment: assignment) }
            }
            .sorted { ($0.entry.start, $0.entry.id) < ($1.entry.start, $1.entry.id) }
    }

    /// The loaded assignments of an entry (those on the queried resources), by resource id.
    public func assignments(ofEntry entryID: String) -> [TimelineAssignment] {
        assignments.values.filter { $0.entryID == entryID }.sorted { $0.resourceID < $1.resourceID }
    }

    func rowCount(copy: ClientPlanCopy?) -> Int { copy?.snapshot.resources.count ?? 0 }
}
