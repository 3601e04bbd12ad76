extension TimeAxis {
    /// What to draw for a row (semantics.md, "Time axis"): activities cover their exact exclusive
    /// interval; summaries their derived bounds; milestones a diamond in their date's column;
    /// unscheduled activities and summaries without bounds an "Unscheduled" label; tasks entirely
    /// outside the horizon nothing. Progress is clipped using the task's own interval.
    public func mark(for row: TaskRow, language: PlanLanguage) -> ChartMark {
        guard let start = row.start, let end = row.end else {
            return .unscheduled(label: language.unscheduledLabel)
        }
        if case .milestone(let date) = row.task.kind {
            let x = centerX(of: date)
            guard let column = columnIndex(of: date) else { return .outsideHorizon(startX: x, endX: x) }
            return .milestone(ChartMilestone(date: date, columnIndex: column, x: x))
        }
        let startX = x(of: start)
        let endX = x(of: end)
        // A zero-length summary (bounds from milestones on one day) is visible when that day is.
        let isVisible = start == end ? horizon.contains(start) : (start < horizon.end && end > horizon.start)
        guard isVisible else { return .outsideHorizon(startX: startX, endX: endX) }
        let visibleStartX = max(startX, 0)
        let visibleEndX = min(endX, width)
        let progress = min(max(row.progress ?? 0, 0), 100)
        let filledEndX = startX + progress / 100 * (endX - startX)
        return .bar(
            ChartBar(
                isSummary: row.task.kind.isSummary, startX: startX, endX: endX,
                visibleStartX: visibleStartX, visibleEndX: visibleEndX, progress: progress,
                filledEndX: filledEndX, visibleFilledEndX: min(max(filledEndX, visibleStartX), visibleEndX)))
    }

    /// The marks of `rows`, in the same order.
    public func marks(for rows: [TaskRow], language: PlanLanguage) -> [ChartMark] {
        rows.map { mark(for: $0, language: language) }
    }
}
