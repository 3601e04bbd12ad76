import ChronoSketchCore
import PlanProtocol

/// The resource view's data: the entries and assignments the current watch delivered.
public struct ResourceViewState: Sendable {
    /// The current watch id and its query.
    public internal(set) var watchID: String?
    /// The query watched.
    public internal(set) var query: TimelineQuery?
    /// Entries by id.
    public internal(set) var entries: [String: TimelineEntry] = [:]
    /// Assignments by id.
    public internal(set) var assignments: [String: TimelineAssignment] = [:]
    /// The selected entry's position within the selected resource's entries.
    public internal(set) var entryIndex = 0
    /// Proposals on entries waiting for an answer: id → the entry it concerns.
    public internal(set) var pendingEntries: [String: String] = [:]
    /// The entry an open entry form edits.
    var formTarget: TimelineAssignedEntry?
    var counter = 0

    /// Creates an empty state.
    public init() {}

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

    func rowCount(copy: ClientPlanCopy?) -> Int { copy?.snapshot.resources.count ?? 0 }
}

extension ClientModel {
    /// The resources shown, in order.
    public var resourceRows: [TimelineResource] { copy?.snapshot.resources ?? [] }

    /// The selected assigned entry of the resource view.
    public var selectedEntry: TimelineAssignedEntry? {
        let rows = resourceRows
        guard rows.indices.contains(selectedIndex) else { return nil }
        let entries = resources.entries(of: rows[selectedIndex].id)
        guard !entries.isEmpty else { return nil }
        return entries[min(resources.entryIndex, entries.count - 1)]
    }

    /// The query for what is visible: the visible columns plus one on each side, the visible
    /// resource rows plus three (seed 003's viewport rule).
    public func visibleQuery() -> TimelineQuery? {
        let rows = resourceRows
        guard !rows.isEmpty else { return nil }
        let axis = viewport.axis
        let columns = viewport.visibleColumnRange
        let first = axis.column(at: max(columns.lowerBound - 1, 0))
        let last = axis.column(at: min(columns.upperBound, axis.columnCount - 1))
        let ids = rows[topRow..<min(topRow + visibleRowCount + 3, rows.count)].map(\.id)
        guard let end = try? last.lastDate.adding(days: 1) else { return nil }
        return try? TimelineQuery(
            start: LocalDateTime(startOf: first.firstDate), end: LocalDateTime(startOf: end), resourceIDs: ids)
    }

    /// Watches what is visible when the resource view is shown (and only then); a changed view
    /// replaces the watch.
    mutating func resourceWatch() -> [ClientAction] {
        var actions: [ClientAction] = []
        guard mode == .resources, let query = visibleQuery() else {
            if let old = resources.watchID, mode != .resources {
                resources.watchID = nil
                resources.query = nil
                actions.append(.unwatch(id: old))
            }
            return actions
        }
        if let current = resources.query, current.start == query.start, current.end == query.end,
            current.resourceIDs == query.resourceIDs
        {
            return []
        }
        if let old = resources.watchID { actions.append(.unwatch(id: old)) }
        resources.counter += 1
        let id = "w-\(settings.idPrefix)-\(resources.counter)"
        resources.watchID = id
        resources.query = query
        actions.append(.watch(query, id: id))
        return actions
    }

    mutating func pressInResources(_ character: Character) -> [ClientAction] {
        switch character {
        case "n":
            resources.entryIndex += 1
            if let rows = Optional(resourceRows), rows.indices.contains(selectedIndex),
                resources.entryIndex >= resources.entries(of: rows[selectedIndex].id).count
            {
                resources.entryIndex = 0
            }
        case "m", "r":
            guard let target = selectedEntry else {
                message = strings.noSelection
                return []
            }
            let de = settings.language == .german
            let action: TaskAction = character == "m" ? .moveEntry : .reassignEntry
            let field: FormField =
                character == "m"
                ? .text(de ? "Beginn" : "Start", target.entry.start.description)
                : .choice(
                    de ? "Ressource" : "Resource", resourceRows.map { ($0.id, $0.label) },
                    selected: target.assignment.resourceID)
            resources.formTarget = target
            form = TaskForm(
                action: action, original: nil, title: action.title(settings.language) + ": " + target.entry.title,
                fields: [field])
        default:
            break
        }
        return resourceWatch()
    }

    mutating func saveEntryForm(_ form: inout TaskForm, target: TimelineAssignedEntry) -> [ClientAction] {
        var proposed = target
        if form.action == .moveEntry {
            guard let start = try? LocalDateTime(form.fields[0].text.trimmed),
                let end = LocalDateTime(minuteNumber: start.minuteNumber + target.entry.minutes),
                let moved = try? target.entry.with(start: start, end: end)
            else {
                form.error =
                    settings.language == .german
                    ? "Ungültiger Zeitpunkt (JJJJ-MM-TTTHH:MM)." : "Not a time (YYYY-MM-DDTHH:MM)."
                self.form = form
                return []
            }
            proposed.entry = moved
        } else if let resource = form.fields[0].selectedID {
            proposed.assignment = target.assignment.with(resourceID: resource)
        }
        counter += 1
        let id = "p-\(settings.idPrefix)-\(counter)"
        form.phase = .saving(proposalID: id)
        form.error = nil
        self.form = form
        pending[id] = target.entry.id
        resources.pendingEntries[id] = target.entry.id
        return [.propose(.timelineApply(original: target, proposed: proposed), id: id)]
    }
}

extension LocalDateTime {
    /// The time `minuteNumber` minutes after 0000-01-01T00:00, if valid.
    init?(minuteNumber: Int) {
        guard let date = try? CivilDate(dayNumber: minuteNumber / 1440),
            let time = try? LocalDateTime(date: date, hour: minuteNumber % 1440 / 60, minute: minuteNumber % 60)
        else { return nil }
        self = time
    }
}
