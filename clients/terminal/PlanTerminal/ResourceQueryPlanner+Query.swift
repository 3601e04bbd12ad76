import ChronoSketchCore

extension ResourceQueryPlanner {
    /// The query for what the resources view shows (seed 003): the visible resource rows with
    /// `bufferRows` before and after them, collapsed resources left out; the visible time columns
    /// with `bufferColumns` beyond each edge, clipped to the horizon. The interval never exceeds
    /// `TimelineQuery.maximumDays`: the column buffer shrinks first, then the interval is cut to
    /// that many days from the first visible column. Nil when no resource is left to ask for.
    /// - Parameters:
    ///   - resourceIDs: every resource, in display order.
    ///   - visibleRows: the indexes of the resources on screen.
    public static func query(
        resourceIDs: [String], collapsed: Set<String>, visibleRows: Range<Int>, viewport: ChartViewport
    ) -> TimelineQuery? {
        let lower = max(visibleRows.lowerBound - bufferRows, 0)
        let upper = min(visibleRows.upperBound + bufferRows, resourceIDs.count)
        guard lower < upper else { return nil }
        let ids = resourceIDs[lower..<upper].filter { !collapsed.contains($0) }
        let axis = viewport.axis
        let visible = viewport.visibleColumnRange
        guard !ids.isEmpty, axis.columnCount > 0, !visible.isEmpty else { return nil }
        let limit = TimelineQuery.maximumDays
        for buffer in stride(from: bufferColumns, through: 0, by: -1) {
            let start = axis.column(at: max(visible.lowerBound - buffer, 0)).firstDate
            let end =
                axis.column(at: min(visible.upperBound - 1 + buffer, axis.columnCount - 1)).lastDate
                .dayNumber + 1
            if end - start.dayNumber <= limit { return query(start, days: end - start.dayNumber, ids) }
        }
        return query(axis.column(at: visible.lowerBound).firstDate, days: limit, ids)
    }

    private static func query(_ start: CivilDate, days: Int, _ ids: [String]) -> TimelineQuery? {
        guard let end = try? start.adding(days: days) else { return nil }
        return try? TimelineQuery(
            start: LocalDateTime(startOf: start), end: LocalDateTime(startOf: end), resourceIDs: ids)
    }

    /// The most chart columns the resources view shows at `zoom`: as many as fit in one query
    /// (`TimelineQuery.maximumDays`), so that no visible column is left unloaded, however wide
    /// the terminal.
    public static func maximumVisibleColumns(zoom: TimelineZoom) -> Int {
        max(TimelineQuery.maximumDays / zoom.daysPerColumn, 1)
    }
}
