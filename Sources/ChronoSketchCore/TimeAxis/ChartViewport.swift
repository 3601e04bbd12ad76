/// The horizontally scrolled window of a chart: which whole columns of its axis are visible.
///
/// Scrolling is finite: the first visible column stays within `0...maxFirstColumn`, so the
/// viewport never shows space after the horizon unless the whole horizon is narrower than the
/// viewport, which then stays left-aligned at column 0. Dates are never added to the horizon.
public struct ChartViewport: Sendable, Hashable {
    /// The axis shown (its zoom changes with `zoom(to:)`).
    public private(set) var axis: TimeAxis
    /// How many columns fit in the chart area beside the pinned task names, at least 1.
    public private(set) var visibleColumns: Int
    /// The index of the leftmost visible column, in `0...maxFirstColumn`.
    public private(set) var firstColumn: Int

    /// Creates a viewport of `visibleColumns` columns (at least 1) showing `date` at its left edge
    /// (clamped as in `show(_:)`), or the horizon start when `date` is nil.
    public init(axis: TimeAxis, visibleColumns: Int, date: CivilDate? = nil) {
        self.axis = axis
        self.visibleColumns = max(visibleColumns, 1)
        self.firstColumn = 0
        if let date { show(date) }
    }

    /// The largest first column: the horizon's last column at the right edge, or 0 when the
    /// horizon is narrower than the viewport.
    public var maxFirstColumn: Int { max(axis.columnCount - visibleColumns, 0) }

    /// The visible columns that exist (fewer than `visibleColumns` for a narrow horizon).
    public var visibleColumnRange: Range<Int> {
        firstColumn..<min(firstColumn + visibleColumns, axis.columnCount)
    }

    /// How far Previous and Next move: half the chart width, at least one column.
    public var pageStep: Int { max(visibleColumns / 2, 1) }

    /// Whether Previous can move (false at the left edge: the button is disabled).
    public var canMovePrevious: Bool { firstColumn > 0 }

    /// Whether Next can move (false at the right edge: the button is disabled).
    public var canMoveNext: Bool { firstColumn < maxFirstColumn }

    /// The day at the center of the visible chart area (clamped into the horizon).
    public var centerDate: CivilDate {
        axis.date(atX: Double(firstColumn) + Double(visibleColumns) / 2)
    }

    /// Moves left by half the chart width, stopping at the left edge.
    public mutating func movePrevious() {
        scroll(toColumn: firstColumn - pageStep)
    }

    /// Moves right by half the chart width, stopping at the right edge.
    public mutating func moveNext() {
        scroll(toColumn: firstColumn + pageStep)
    }

    /// Makes `column` the first visible column, clamped to the scroll edges.
    public mutating func scroll(toColumn column: Int) {
        firstColumn = min(max(column, 0), maxFirstColumn)
    }

    /// Scrolls so that `date`'s column is the first visible one: a date outside the horizon is
    /// first clamped into it, and the result is clamped to the scroll edges.
    public mutating func show(_ date: CivilDate) {
        let date = axis.horizon.clamped(date)
        scroll(toColumn: axis.columnIndex(of: date) ?? 0)
    }

    /// The Today button: shows `today` (the caller's civil date; there is no clock here) as
    /// `show(_:)` does, clamped into the horizon.
    public mutating func showToday(_ today: CivilDate) {
        show(today)
    }

    /// Changes the zoom. At the left edge the horizon start stays visible (the viewport stays at
    /// column 0); otherwise the time at the center of the chart area stays at the center. The
    /// result is clamped to the scroll edges.
    public mutating func zoom(to zoom: TimelineZoom) {
        guard zoom != axis.zoom else { return }
        let wasAtStart = firstColumn == 0
        let centerDays = (Double(firstColumn) + Double(visibleColumns) / 2) * Double(axis.zoom.daysPerColumn)
        axis = TimeAxis(horizon: axis.horizon, zoom: zoom)
        guard !wasAtStart else {
            firstColumn = 0
            return
        }
        let first = centerDays / Double(zoom.daysPerColumn) - Double(visibleColumns) / 2
        scroll(toColumn: Int(first.rounded()))
    }

    /// Whether a finer zoom exists.
    public var canZoomIn: Bool { axis.zoom.finer != nil }

    /// Whether a coarser zoom exists.
    public var canZoomOut: Bool { axis.zoom.coarser != nil }

    /// Zooms to the next finer zoom (the "+" button), anchored as in `zoom(to:)`; no-op at `.oneDay`.
    public mutating func zoomIn() {
        if let finer = axis.zoom.finer { zoom(to: finer) }
    }

    /// Zooms to the next coarser zoom (the "−" button), anchored as in `zoom(to:)`; no-op at
    /// `.eightDays`.
    public mutating func zoomOut() {
        if let coarser = axis.zoom.coarser { zoom(to: coarser) }
    }

    /// Changes the chart width (e.g. after a terminal resize), keeping the first column where
    /// possible and clamping it to the new scroll edges.
    public mutating func resize(visibleColumns: Int) {
        self.visibleColumns = max(visibleColumns, 1)
        scroll(toColumn: firstColumn)
    }
}
