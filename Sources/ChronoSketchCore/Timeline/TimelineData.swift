/// The validated resource Timeline of a plan: resources in order, entries, and the assignments
/// that book entries onto resources.
///
/// Every instance satisfies the timeline rules of semantics.md: resource, entry and assignment ids
/// are nonblank and unique per kind, every entry ends after it starts, every assignment names an
/// existing entry and resource. Changes come as mutating methods that report what changed
/// (`apply(original:proposed:)`, `add(entry:assignments:)`, `remove(entry:)`), which is what the
/// server uses, and as non-mutating copies (`applying`, `adding`, `removing`), as in seed 004.
/// A rejected change throws and leaves the data exactly as it was.
///
/// Indexes keep reads and edits away from the rest of the plan: entries, assignments and resources
/// by id, assignments by entry, and per resource its assignments sorted by entry start, so that a
/// page costs time in proportion to the requested resources' bookings near the query interval and
/// an edit in proportion to the bookings of the resources it touches.
public struct TimelineData: Sendable {
    /// The resources in their confirmed order.
    public internal(set) var resources: [TimelineResource]

    /// Position of each resource id in `resources`.
    var resourcePositionByID: [String: Int]
    /// Every entry by id.
    var entriesByID: [String: TimelineEntry]
    /// Every assignment by id.
    var assignmentsByID: [String: TimelineAssignment]
    /// Assignment ids of each entry that has any, in the order they were added.
    var assignmentIDsByEntryID: [String: [String]]
    /// For each resource that has assignments: one slot per assignment, sorted.
    var slotsByResourceID: [String: [TimelineSlot]]
    /// For each resource that has assignments: the longest entry booked onto it, in minutes.
    var longestMinutesByResourceID: [String: Int]

    /// Empty data: no resources, entries or assignments.
    public init() {
        self.init(unchecked: [], entries: [], assignments: [])
    }

    /// Creates timeline data, validating it as a whole.
    /// - Throws: `TimelineError` naming the first rule the data breaks; see
    ///   `validate(resources:entries:assignments:)`.
    public init(
        resources: [TimelineResource], entries: [TimelineEntry], assignments: [TimelineAssignment]
    ) throws(TimelineError) {
        try TimelineData.validate(resources: resources, entries: entries, assignments: assignments)
        self.init(unchecked: resources, entries: entries, assignments: assignments)
    }

    /// Builds the indexes of data that is known to be valid.
    init(unchecked resources: [TimelineResource], entries: [TimelineEntry], assignments: [TimelineAssignment]) {
        self.resources = resources
        resourcePositionByID = Dictionary(minimumCapacity: resources.count)
        for (position, resource) in resources.enumerated() {
            resourcePositionByID[resource.id] = position
        }
        entriesByID = Dictionary(minimumCapacity: entries.count)
        for entry in entries {
            entriesByID[entry.id] = entry
        }
        assignmentsByID = Dictionary(minimumCapacity: assignments.count)
        assignmentIDsByEntryID = [:]
        slotsByResourceID = [:]
        longestMinutesByResourceID = [:]
        for assignment in assignments {
            assignmentsByID[assignment.id] = assignment
            assignmentIDsByEntryID[assignment.entryID, default: []].append(assignment.id)
            let entry = entriesByID[assignment.entryID]!
            slotsByResourceID[assignment.resourceID, default: []].append(
                TimelineSlot(entry: entry, assignment: assignment))
            longestMinutesByResourceID[assignment.resourceID] = max(
                longestMinutesByResourceID[assignment.resourceID] ?? 0, entry.minutes)
        }
        for resourceID in slotsByResourceID.keys {
            slotsByResourceID[resourceID]!.sort()
        }
    }

    /// The number of entries.
    public var entryCount: Int { entriesByID.count }

    /// The number of assignments.
    public var assignmentCount: Int { assignmentsByID.count }

    /// Every entry, ordered by start, then id.
    public var entries: [TimelineEntry] {
        entriesByID.values.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
    }

    /// Every assignment, ordered by resource (in resource order), then by its entry's start, then
    /// entry id, then assignment id.
    public var assignments: [TimelineAssignment] {
        resources.flatMap { assignments(ofResource: $0.id) }
    }

    /// The resource with this id, if any.
    public func resource(_ id: String) -> TimelineResource? {
        resourcePositionByID[id].map { resources[$0] }
    }

    /// The entry with this id, if any.
    public func entry(_ id: String) -> TimelineEntry? {
        entriesByID[id]
    }

    /// The assignment with this id, if any.
    public func assignment(_ id: String) -> TimelineAssignment? {
        assignmentsByID[id]
    }

    /// The assignments of an entry, in the order they were added (empty for an unknown entry).
    public func assignments(ofEntry entryID: String) -> [TimelineAssignment] {
        (assignmentIDsByEntryID[entryID] ?? []).map { assignmentsByID[$0]! }
    }

    /// The assignments to a resource, ordered by their entry's start, then entry id, then
    /// assignment id (empty for an unknown resource).
    public func assignments(ofResource resourceID: String) -> [TimelineAssignment] {
        (slotsByResourceID[resourceID] ?? []).map { assignmentsByID[$0.assignmentID]! }
    }
}

extension TimelineData: Equatable {
    /// Equal when the resources (in order), the entries and the assignments (by id) are equal.
    public static func == (lhs: TimelineData, rhs: TimelineData) -> Bool {
        lhs.resources == rhs.resources && lhs.entriesByID == rhs.entriesByID
            && lhs.assignmentsByID == rhs.assignmentsByID
    }
}
