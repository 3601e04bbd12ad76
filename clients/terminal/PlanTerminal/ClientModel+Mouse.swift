import ChronoSketchCore
import PlanProtocol

/// The mouse in the task views: a click selects the row under it, the wheel scrolls three rows,
/// and a bar pressed on the timeline is dragged (`BarDrag`): one proposal on the release, the bar
/// staying where the server confirmed it until the answer, a ghost showing where it goes. In the
/// resources and history views the wheel moves the selection a row (the resources view's clicks
/// and booking drags: `ClientModel+ResourcesMouse`).
extension ClientModel {
    /// The rows the wheel scrolls per notch.
    static let wheelRows = 3

    /// A mouse event outside forms and help.
    mutating func pressMouse(_ event: MouseEvent) -> KeyRoute {
        if mode == .resources && event.kind != .wheelUp && event.kind != .wheelDown {
            return .handled(pressMouseInResources(event))
        }
        switch event.kind {
        case .wheelUp, .wheelDown:
            let direction = event.kind == .wheelUp ? -1 : 1
            guard mode == .list || mode == .timeline else { return .pass(direction < 0 ? .up : .down) }
            topRow += direction * ClientModel.wheelRows
            selectedIndex += direction * ClientModel.wheelRows
            clampSelection()
        case .press:
            // A ghost waiting for its answer stays until a new drag begins.
            if drag?.proposalID == nil { drag = nil }
            guard let row = taskRow(atY: event.y) else { return .handled([]) }
            message = nil
            selectedIndex = row
            clampSelection()
            beginDrag(row: row, x: event.x)
        case .drag:
            guard var current = drag, current.proposalID == nil, let date = chartDate(atX: event.x) else {
                return .handled([])
            }
            current.move(to: date)
            drag = current
            message = dates(of: current).map { strings.dragging(current.task.title, days: current.days, to: $0) }
        case .release:
            guard var current = drag, current.proposalID == nil else { return .handled([]) }
            if let date = chartDate(atX: event.x) { current.move(to: date) }
            return .handled(proposeDrag(current))
        }
        return .handled([])
    }

    /// The row index under the screen line `y` in the list or the timeline, nil elsewhere.
    func taskRow(atY y: Int) -> Int? {
        guard mode == .list || mode == .timeline else { return nil }
        // Heading, view bar, then the list's one heading line or the chart's three.
        let first = 2 + (mode == .list ? 1 : ChartRenderer.headerHeight)
        let row = topRow + y - first
        guard y >= first, y < first + visibleRowCount, row < outline.count else { return nil }
        return row
    }

    /// The date under the screen column `x` on the timeline (clamped into the chart), nil in the
    /// name column and outside the timeline.
    func chartDate(atX x: Int) -> CivilDate? {
        guard mode == .timeline else { return nil }
        let cells = ChartRenderer.cellsPerColumn(viewport.axis.zoom)
        let cell = min(max(x - nameWidth - 1, 0), viewport.visibleColumns * cells - 1)
        return viewport.axis.date(atX: Double(viewport.firstColumn) + (Double(cell) + 0.5) / Double(cells))
    }

    /// A press on a bar or diamond of the live plan, by a role that may move it, begins a drag.
    private mutating func beginDrag(row: Int, x: Int) {
        guard mode == .timeline, x > nameWidth, history.past == nil, roleRefusal(.dates) == nil,
            let shown = shownCollection, let date = chartDate(atX: x)
        else { return }
        let task = shown.tasks[outline.position(at: row)]
        // A cell of a coarse zoom holds several days: a press anywhere in the bar's cells counts.
        let reach =
            (viewport.axis.zoom.daysPerColumn + ChartRenderer.cellsPerColumn(viewport.axis.zoom) - 1)
            / ChartRenderer.cellsPerColumn(viewport.axis.zoom)
        guard let begun = BarDrag(task: task, pressedAt: date, reach: reach) else { return }
        // Its last change still waits: a drag now would be judged stale.
        guard !pendingTaskIDs.contains(task.id) else {
            message = strings.dragWaiting(task.title)
            return
        }
        drag = begun
    }

    /// The dates a drag proposes, as the footer says them ("2026-09-11 – 2026-09-13").
    func dates(of drag: BarDrag) -> String? {
        guard let days = drag.movedDays else { return nil }
        return days.first == days.last
            ? strings.date(days.first) : strings.date(days.first) + " – " + strings.date(days.last)
    }

    /// An answer to a dragged bar's or booking's proposal takes its ghost away (the ack's version
    /// moves the bar; a rejection's reason is said as any other's).
    mutating func endDragGhost(answering message: ServerMessage) {
        let id: String
        switch message {
        case .ack(let answered, _, _, _, _): id = answered
        case .rejected(let answered, _, _, _, _, _, _): id = answered
        default: return
        }
        if drag?.proposalID == id { drag = nil }
        if resources.drag?.proposalID == id { resources.drag = nil }
    }

    /// The release: the drag's proposal, if the bar moved.
    private mutating func proposeDrag(_ finished: BarDrag) -> [ClientAction] {
        guard let operation = finished.proposal else {
            drag = nil
            message = nil
            return []
        }
        let id = sendTaskProposal(operation, taskID: finished.task.id)
        var sent = finished
        sent.proposalID = id
        drag = sent
        message = strings.dragProposed(finished.task.title, to: dates(of: finished) ?? "")
        return [.propose(operation, id: id)]
    }
}
