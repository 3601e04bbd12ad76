import ChronoSketchCore
import PlanProtocol

/// The ghost of a drag: while a bar or a booking is dragged, and after the release until the
/// server answers, its outline is drawn dim and dashed (`╌`, as the web client's dashed ghost;
/// `░` is already a bar's undone part) at the dates the pointer gives, in its own row, on the
/// cells the confirmed bar does not cover; the confirmed bar stays where it was confirmed.
extension ClientModel {
    /// The ghost's character.
    static let ghostCharacter: Character = "╌"

    /// The dragged bar's ghost on the timeline, when its row is among `window` (drawn from
    /// screen line `y`, the chart's header lines first).
    func drawDragGhost(window: [TaskRow], into canvas: inout TextCanvas, y: Int) {
        guard let drag, let moved = drag.moved, history.past == nil,
            let offset = window.firstIndex(where: { $0.id == drag.task.id })
        else { return }
        let geometry = ChartGeometry(viewport: viewport)
        guard let ghost = dayCells(of: moved, geometry: geometry) else { return }
        let confirmed = dayCells(of: drag.task, geometry: geometry) ?? 0..<0
        let line = y + ChartRenderer.headerHeight + offset
        for cell in ghost.clamped(to: 0..<geometry.limit) where !confirmed.contains(cell) {
            canvas.set(ClientModel.ghostCharacter, x: nameWidth + 1 + cell, y: line, style: .dim)
        }
    }

    /// The chart cells of a task's days (unclipped), nil for one without dates.
    func dayCells(of task: GanttTask, geometry: ChartGeometry) -> Range<Int>? {
        let axis = viewport.axis
        switch task.kind {
        case .activity(let schedule?, _):
            let from = geometry.cellX(axis.x(of: schedule.start))
            let to = geometry.cellX(axis.x(of: schedule.end))
            let start = Int((from + 1e-9).rounded(.down))
            return start..<max(Int((to - 1e-9).rounded(.up)), start + 1)
        case .milestone(let date):
            let cell = Int(geometry.cellX(axis.x(of: date)).rounded(.down))
            return cell..<(cell + 1)
        default:
            return nil
        }
    }

    /// The dragged booking's ghost on its lane of `resource`'s row (drawn from chart line `y`).
    func drawBookingGhost(_ lanes: ResourceLanes, of resource: TimelineResource, into chart: inout TextCanvas, y: Int) {
        guard let drag = resources.drag, drag.target.assignment.resourceID == resource.id,
            let moved = drag.moved
        else { return }
        let geometry = ResourceChartGeometry(viewport: viewport)
        guard let ghost = geometry.span(of: moved.entry) else { return }
        let placement = lanes.placements.first { $0.item.id == drag.target.assignment.id }
        let confirmed = placement.map { $0.item.start..<$0.item.end } ?? 0..<0
        let line = y + (placement?.lane ?? 0)
        for cell in ghost where !confirmed.contains(cell) {
            chart.set(ClientModel.ghostCharacter, x: cell, y: line, style: .dim)
        }
    }
}
