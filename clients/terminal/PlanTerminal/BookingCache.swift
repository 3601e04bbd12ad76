import ChronoSketchCore

/// The bookings (timeline entries and their assignments) the resources view holds: what its
/// watches delivered, bounded and indexed, as a pure value.
///
/// **Pages** follow seed 003: a page replaces the assignments its query covers (those resources,
/// entries overlapping that interval), an assignment id arriving again replaces its cached
/// version wherever it was, an entry arriving again is one object across all its assignments,
/// and entries no assignment names any more are dropped.
///
/// **Bound.** After a page, only the assignments near its query are kept: those of resources at
/// most `marginRows` rows above or below the query's resources (in display order), whose entries
/// overlap the query's interval widened by its own length on each side. So however long the view
/// has been browsed, the cache holds no more than the bookings of `query rows + 2 × marginRows`
/// resources over three query lengths.
///
/// **Index.** Each resource's assignments are held sorted by (entry start, entry id, assignment
/// id) with the longest entry's length, so the bookings of a resource in an interval are found
/// by binary search: a screen costs O(rows shown + bookings shown), not O(bookings held).
public struct BookingCache: Sendable, Hashable {
    /// Resource rows kept beyond each side of the last page's query.
    public static let marginRows = 40

    /// One resource's assignments, sorted, and the longest of their entries in minutes.
    struct Row: Sendable, Hashable {
        var items: [TimelineAssignedEntry] = []
        var longestMinutes = 0
    }

    /// Entries by id.
    public private(set) var entries: [String: TimelineEntry] = [:]
    /// Assignments by id.
    public private(set) var assignments: [String: TimelineAssignment] = [:]
    /// Assignment ids by entry id.
    private var byEntry: [String: Set<String>] = [:]
    /// Assignment ids by resource id (what `rows` is built from).
    private var byResource: [String: Set<String>] = [:]
    /// Each resource's sorted assignments.
    private var rows: [String: Row] = [:]

    /// An empty cache.
    public init() {}

    /// The number of assignments held.
    public var count: Int { assignments.count }

    /// Applies a page answering `query` (see the type's description), then drops what is far from
    /// it. `resourceOrder` is every resource id in display order (for the row bound); a query
    /// whose resources are not in it keeps only its own resources.
    public mutating func apply(query: TimelineQuery, page: TimelinePage, resourceOrder: [String]) {
        var dirty = Set<String>()
        for resourceID in query.resourceIDs {
            for id in byResource[resourceID] ?? [] {
                guard let assignment = assignments[id], let entry = entries[assignment.entryID] else { continue }
                if query.overlaps(entry) { remove(assignment: id, dirty: &dirty) }
            }
        }
        for assignment in page.assignments where assignments[assignment.id] != nil {
            remove(assignment: assignment.id, dirty: &dirty)
        }
        for entry in page.entries where entries[entry.id] != nil && entries[entry.id] != entry {
            // Its other assignments show the new value, sorted by its new start.
            for id in byEntry[entry.id] ?? [] {
                if let resourceID = assignments[id]?.resourceID { dirty.insert(resourceID) }
            }
        }
        for entry in page.entries { entries[entry.id] = entry }
        for assignment in page.assignments {
            assignments[assignment.id] = assignment
            byEntry[assignment.entryID, default: []].insert(assignment.id)
            byResource[assignment.resourceID, default: []].insert(assignment.id)
            dirty.insert(assignment.resourceID)
        }
        evict(outside: BookingCache.bound(of: query, resourceOrder: resourceOrder), dirty: &dirty)
        entries = entries.filter { byEntry[$0.key] != nil }
        for resourceID in dirty { rebuildRow(resourceID) }
    }

    /// What is kept after a page for `query`: the resources within `marginRows` of its rows and
    /// its interval widened by its length on each side (in minutes, the end exclusive).
    static func bound(of query: TimelineQuery, resourceOrder: [String]) -> (resources: Set<String>, minutes: Range<Int>)
    {
        let start = query.start.minuteNumber
        let end = query.end.minuteNumber
        let span = end - start
        let minutes = (start - span)..<(end + span)
        guard let first = query.resourceIDs.first, let last = query.resourceIDs.last,
            let lower = resourceOrder.firstIndex(of: first), let upper = resourceOrder.lastIndex(of: last)
        else { return (Set(query.resourceIDs), minutes) }
        let from = max(min(lower, upper) - marginRows, 0)
        let to = min(max(lower, upper) + marginRows + 1, resourceOrder.count)
        return (Set(resourceOrder[from..<to]).union(query.resourceIDs), minutes)
    }

    private mutating func evict(outside bound: (resources: Set<String>, minutes: Range<Int>), dirty: inout Set<String>)
    {
        for resourceID in Array(byResource.keys) where !bound.resources.contains(resourceID) {
            for id in byResource[resourceID] ?? [] { remove(assignment: id, dirty: &dirty) }
        }
        let far = assignments.compactMap { id, assignment -> String? in
            guard let entry = entries[assignment.entryID] else { return id }
            let minutes = entry.start.minuteNumber..<entry.end.minuteNumber
            return minutes.overlaps(bound.minutes) ? nil : id
        }
        for id in far { remove(assignment: id, dirty: &dirty) }
    }

    private mutating func remove(assignment id: String, dirty: inout Set<String>) {
        guard let assignment = assignments.removeValue(forKey: id) else { return }
        byEntry[assignment.entryID]?.remove(id)
        if byEntry[assignment.entryID]?.isEmpty == true { byEntry[assignment.entryID] = nil }
        byResource[assignment.resourceID]?.remove(id)
        if byResource[assignment.resourceID]?.isEmpty == true { byResource[assignment.resourceID] = nil }
        dirty.insert(assignment.resourceID)
    }

    private mutating func rebuildRow(_ resourceID: String) {
        guard let ids = byResource[resourceID] else {
            rows[resourceID] = nil
            return
        }
        var row = Row()
        row.items = ids.compactMap { id in
            assignments[id].flatMap { assignment in
                entries[assignment.entryID].map { TimelineAssignedEntry(entry: $0, assignment: assignment) }
            }
        }
        row.items.sort(by: BookingCache.displayOrder)
        row.longestMinutes = row.items.map(\.entry.minutes).max() ?? 0
        rows[resourceID] = row
    }

    /// The order of a resource's bookings: by start, then entry id, then assignment id.
    static func displayOrder(_ a: TimelineAssignedEntry, _ b: TimelineAssignedEntry) -> Bool {
        (a.entry.start, a.entry.id, a.assignment.id) < (b.entry.start, b.entry.id, b.assignment.id)
    }

    /// The assigned entries of a resource held, in display order.
    public func entries(of resourceID: String) -> [TimelineAssignedEntry] {
        rows[resourceID]?.items ?? []
    }

    /// The assigned entries of a resource held that overlap the minutes `interval` (end
    /// exclusive), in display order: a binary search for the first one that can reach into it,
    /// then only those that start before its end.
    public func entries(of resourceID: String, overlapping interval: Range<Int>) -> [TimelineAssignedEntry] {
        guard let row = rows[resourceID] else { return [] }
        let items = row.items
        // Nothing starting earlier than this can reach into the interval.
        let earliest = interval.lowerBound - row.longestMinutes
        var found: [TimelineAssignedEntry] = []
        var index = items.partitionIndex { $0.entry.start.minuteNumber < earliest }
        while index < items.count, items[index].entry.start.minuteNumber < interval.upperBound {
            if items[index].entry.end.minuteNumber > interval.lowerBound { found.append(items[index]) }
            index += 1
        }
        return found
    }

    /// The assignments of an entry held, by resource id.
    public func assignments(ofEntry entryID: String) -> [TimelineAssignment] {
        (byEntry[entryID] ?? []).compactMap { assignments[$0] }.sorted { $0.resourceID < $1.resourceID }
    }
}
