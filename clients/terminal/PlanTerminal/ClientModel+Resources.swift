import ChronoSketchCore
import PlanProtocol

/// Where entries fall on the resources view's chart: minutes to cells for the current viewport.
struct ResourceChartGeometry {
    let startMinute: Int
    let minutesPerCell: Double
    let origin: Int
    let width: Int
    let horizonCells: Int

    init(viewport: ChartViewport) {
        let axis = viewport.axis
        let cells = ChartRenderer.cellsPerColumn(axis.zoom)
        startMinute = LocalDateTime(startOf: axis.horizon.start).minuteNumber
        minutesPerCell = Double(1440 * axis.zoom.daysPerColumn) / Double(cells)
        origin = viewport.firstColumn * cells
        width = viewport.visibleColumns * cells
        horizonCells = Int((axis.width * Double(cells)).rounded(.up)) - origin
    }

    /// The minutes the chart shows (end exclusive).
    var visibleMinutes: Range<Int> {
        let from = startMinute + Int((Double(origin) * minutesPerCell).rounded(.down))
        let to = startMinute + Int((Double(origin + min(width, horizonCells)) * minutesPerCell).rounded(.up))
        return from..<max(to, from)
    }

    /// The cells `[start, end)` of an entry's bar, clipped to the chart; nil when it is off screen.
    func span(of entry: TimelineEntry) -> Range<Int>? {
        let from = Double(entry.start.minuteNumber - startMinute) / minutesPerCell - Double(origin)
        let to = Double(entry.end.minuteNumber - startMinute) / minutesPerCell - Double(origin)
        // Ended before the first visible cell: not a one-cell bar at the left edge.
        guard to > 0 else { return nil }
        let start = max(Int(from.rounded(.down)), 0)
        let end = min(max(Int(to.rounded(.up)), start + 1), width, horizonCells)
        return start < end ? start..<end : nil
    }
}

extension ClientModel {
    /// The resources shown, in order.
    public var resourceRows: [TimelineResource] { copy?.snapshot.resources ?? [] }

    /// The selected assigned entry of the resource view.
    public var selectedEntry: TimelineAssignedEntry? {
        let rows = resourceRows
        guard rows.indices.contains(selectedIndex), !resources.collapsed.contains(rows[selectedIndex].id) else {
            return nil
        }
        let entries = resources.entries(of: rows[selectedIndex].id)
        guard !entries.isEmpty else { return nil }
        return entries[min(resources.entryIndex, entries.count - 1)]
    }

    /// The title an entry's bar carries: with the pending marker while a proposal on it waits.
    func barTitle(_ entry: TimelineEntry) -> String {
        entry.title + (pendingEntryIDs.contains(entry.id) ? " " + strings.pendingMarker : "")
    }

    /// The lanes of a resource's row for the current viewport (one lane when collapsed).
    public func lanes(of resource: TimelineResource) -> ResourceLanes {
        guard !resources.collapsed.contains(resource.id) else { return ResourceLanes(items: []) }
        let geometry = ResourceChartGeometry(viewport: viewport)
        let shown = resources.bookings.entries(of: resource.id, overlapping: geometry.visibleMinutes)
        let items = shown.compactMap { assigned -> ResourceLanes.Item? in
            guard let span = geometry.span(of: assigned.entry) else { return nil }
            let title = barTitle(assigned.entry).displayWidth
            let inside = span.count >= title + 2
            return ResourceLanes.Item(
                id: assigned.assignment.id, start: span.lowerBound, end: span.upperBound,
                titleWidth: inside ? title : min(title, max(geometry.width - span.upperBound - 1, 0)))
        }
        return ResourceLanes(items: items)
    }

    /// The resource rows on screen: from `topRow` as long as their lanes fit (at least one).
    public var visibleResourceRows: Range<Int> {
        let rows = resourceRows
        guard topRow < rows.count else { return topRow..<topRow }
        var lines = 0
        var end = topRow
        while end < rows.count {
            lines += lanes(of: rows[end]).laneCount
            if lines > visibleRowCount && end > topRow { break }
            end += 1
        }
        return topRow..<end
    }

    /// Scrolls the resources view so that every lane of the selected resource is on screen.
    /// Walks up from the selected row only as far as the screen reaches: O(rows shown).
    mutating func clampResourceScroll() {
        let rows = resourceRows
        guard rows.indices.contains(selectedIndex), topRow < selectedIndex else { return }
        var lines = lanes(of: rows[selectedIndex]).laneCount
        var first = selectedIndex
        while first > topRow {
            let above = lanes(of: rows[first - 1]).laneCount
            if lines + above > visibleRowCount { break }
            lines += above
            first -= 1
        }
        topRow = first
    }

    /// The query for what is visible (see `ResourceQueryPlanner.query`).
    public func visibleQuery() -> TimelineQuery? {
        ResourceQueryPlanner.query(
            resourceIDs: resourceRows.map(\.id), collapsed: resources.collapsed, visibleRows: visibleResourceRows,
            viewport: viewport)
    }

    /// Watches what is visible while the resource view is shown (and only then), through the
    /// planner: changes coalesced, equal queries not re-sent. Nothing once the role ended (the
    /// server ended the watches).
    mutating func resourceWatch() -> [ClientAction] {
        guard !roleEnded else { return [] }
        let steps = resources.planner.want(mode == .resources ? visibleQuery() : nil)
        return steps.map(ClientAction.init)
    }

    /// Toggles the selected resource between collapsed (one line, not queried) and expanded.
    mutating func toggleResource() {
        let rows = resourceRows
        guard rows.indices.contains(selectedIndex) else { return }
        let id = rows[selectedIndex].id
        if resources.collapsed.remove(id) == nil { resources.collapsed.insert(id) }
    }

    /// A page arrived: applied when it answers the current watch and is valid as a whole.
    mutating func receivePage(watch: String?, page: TimelinePage) {
        guard let query = resources.planner.receive(watch: watch, page: page) else {
            if let error = resources.planner.pageError {
                message = strings.loadFailed(strings.pageProblem(error))
            } else if case .failed(let reason) = resources.planner.state {
                message = strings.loadFailed(reason)
            }
            return
        }
        resources.apply(query: query, page: page, resourceOrder: resourceRows.map(\.id))
    }
}

extension ClientAction {
    init(_ step: ResourceQueryPlanner.Step) {
        switch step {
        case .watch(let query, let id): self = .watch(query, id: id)
        case .unwatch(let id): self = .unwatch(id: id)
        case .wake(let milliseconds, let token): self = .wake(afterMilliseconds: milliseconds, token: token)
        }
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
