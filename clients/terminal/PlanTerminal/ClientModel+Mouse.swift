import ChronoSketchCore
import PlanProtocol

/// The mouse in the task views: a click selects the row under it, the wheel scrolls three rows,
/// and a bar pressed on the timeline is dragged (`BarDrag`): one proposal on the release, the bar
/// staying where the server confirmed it until the answer. In the resources and history views the
/// wheel moves the selection a row.
extension ClientModel {
    /// The rows the wheel scrolls per notch.
    static let wheelRows = 3

    /// A mouse event outside forms and help.
    mutating func pressMouse(_ event: MouseEvent) -> KeyRoute {
        switch event.kind {
        case .wheelUp, .wheelDown:
            let direction = event.kind == .wheelUp ? -1 : 1
            guard mode == .list || mode == .timeline else { return .pass(direction < 0 ? .up : .down) }
            topRow += direction * ClientModel.wheelRows
            selectedIndex += direction * ClientModel.wheelRows
            clampSelection()
        case .press:
            drag = nil
            guard let row = taskRow(atY: event.y) else { return .handled([]) }
            message = nil
            selectedIndex = row
            clampSelection()
            beginDrag(row: row, x: event.x)
        case .drag:
            guard var current = drag, let date = chartDate(atX: event.x) else { return .handled([]) }
            current.move(to: date)
            drag = current
            message = current.movedStart.map {
                strings.dragging(current.task.title, days: current.days, to: strings.date($0))
            }
        case .release:
            defer { drag = nil }
            guard var current = drag else { return .handled([]) }
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
        drag = BarDrag(task: task, pressedAt: date, reach: reach)
    }

    /// The release: the drag's proposal, if the bar moved.
    private mutating func proposeDrag(_ finished: BarDrag) -> [ClientAction] {
        guard let operation = finished.proposal else {
            message = nil
            return []
        }
        counter += 1
        let id = "p-\(settings.idPrefix)-\(counter)"
        pending[id] = finished.task.id
        scheduling.send(operation, id: id)
        message = strings.dragProposed(finished.task.title)
        return [.propose(operation, id: id)]
    }
}
