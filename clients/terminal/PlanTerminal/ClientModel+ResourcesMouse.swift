import ChronoSketchCore
import PlanProtocol

/// The mouse in the resources view: a click selects the resource row under it and the booking
/// whose bar is under it, and a booking pressed and dragged moves in time (`BookingDrag`): one
/// `timeline.apply` on the release, the bar staying where the server confirmed it until the answer
/// while a ghost shows where it goes.
extension ClientModel {
    /// A press, motion or release in the resources view.
    mutating func pressMouseInResources(_ event: MouseEvent) -> [ClientAction] {
        let cell = event.x - nameWidth - 1
        switch event.kind {
        case .press:
            if resources.drag?.proposalID == nil { resources.drag = nil }
            guard let hit = resourceHit(x: event.x, y: event.y) else { return [] }
            message = nil
            selectedIndex = hit.row
            resources.entryIndex = 0
            let entries = resources.entries(of: resourceRows[hit.row].id)
            if let id = hit.assignmentID, let index = entries.firstIndex(where: { $0.assignment.id == id }) {
                resources.entryIndex = index
                beginBookingDrag(entries[index], cell: cell)
            }
            clampResourceScroll()
            return resourceWatch()
        case .drag:
            guard var current = resources.drag, current.proposalID == nil else { return [] }
            current.move(toCell: clampedCell(cell))
            resources.drag = current
            message = current.moved.map { strings.draggingBooking($0.entry.title, to: interval(of: $0.entry)) }
        case .release:
            guard var current = resources.drag, current.proposalID == nil else { return [] }
            current.move(toCell: clampedCell(cell))
            return proposeBookingDrag(current)
        case .wheelUp, .wheelDown:
            break
        }
        return []
    }

    /// The resource row and booking under the screen cell (`x`, `y`), nil off the rows.
    func resourceHit(x: Int, y: Int) -> (row: Int, assignmentID: String?)? {
        guard mode == .resources else { return nil }
        let rows = resourceRows
        let shown = visibleResourceRows.map { (row: $0, lanes: lanes(of: rows[$0])) }
        // Heading, view bar, then the chart's header lines.
        let line = y - 2 - ChartRenderer.headerHeight
        let cell = x - nameWidth - 1
        return ResourcePointer.hit(rows: shown, line: line, cell: x > nameWidth ? cell : -1)
    }

    /// How an entry's interval is said while it is dragged: "2026-09-08 17:00 – 2026-09-09 20:00".
    func interval(of entry: TimelineEntry) -> String {
        strings.dateTime(entry.start) + " – " + strings.dateTime(entry.end)
    }

    private func clampedCell(_ cell: Int) -> Int {
        min(max(cell, 0), max(ResourceChartGeometry(viewport: viewport).width - 1, 0))
    }

    /// A press on a booking of the live plan, by a role that may move it, begins a drag.
    private mutating func beginBookingDrag(_ target: TimelineAssignedEntry, cell: Int) {
        guard history.past == nil, roleRefusal(.moveEntry) == nil, cell >= 0 else { return }
        guard !pendingEntryIDs.contains(target.entry.id) else {
            message = strings.dragWaiting(target.entry.title)
            return
        }
        let geometry = ResourceChartGeometry(viewport: viewport)
        resources.drag = BookingDrag(target: target, pressCell: cell, minutesPerCell: geometry.minutesPerCell)
    }

    /// The release: the drag's proposal, if the booking moved; the ghost waits for the answer.
    private mutating func proposeBookingDrag(_ finished: BookingDrag) -> [ClientAction] {
        guard let operation = finished.proposal, let moved = finished.moved else {
            resources.drag = nil
            message = nil
            return []
        }
        let id = nextID("p")
        awaitEntryProposal(id, entryID: finished.target.entry.id)
        var sent = finished
        sent.proposalID = id
        resources.drag = sent
        message = strings.dragProposed(moved.entry.title, to: interval(of: moved.entry))
        return [.propose(operation, id: id)]
    }
}
