/// The columns of a chart: a horizon divided into columns of `zoom.daysPerColumn` days.
///
/// Positions are in fractional column units: x = (days from the horizon start) / days per column.
/// Column `i` spans `[i, i + 1)`, except that the last column is clipped to the exclusive horizon
/// end, so the axis is `width` = days / days per column wide. Bars, progress, sections and
/// dependency endpoints all use this one day ratio.
public struct TimeAxis: Sendable, Hashable {
    /// The dates shown.
    public let horizon: ChartHorizon
    /// The days per column.
    public let zoom: TimelineZoom

    /// Creates the axis of `horizon` at `zoom`.
    public init(horizon: ChartHorizon, zoom: TimelineZoom = .oneDay) {
        self.horizon = horizon
        self.zoom = zoom
    }

    /// The number of columns, the last one possibly clipped.
    public var columnCount: Int { (horizon.days + zoom.daysPerColumn - 1) / zoom.daysPerColumn }

    /// The exact width in column units, `horizon.days / zoom.daysPerColumn` (fractional when the
    /// last column is clipped).
    public var width: Double { Double(horizon.days) / Double(zoom.daysPerColumn) }

    /// The column at `index`, which must be in `0..<columnCount`.
    public func column(at index: Int) -> AxisColumn {
        precondition(index >= 0 && index < columnCount, "column index out of range")
        let perColumn = zoom.daysPerColumn
        let first = horizon.start.dayNumber + index * perColumn
        let last = min(first + perColumn, horizon.end.dayNumber) - 1
        return AxisColumn(
            index: index, firstDate: CivilDate(uncheckedDayNumber: first),
            lastDate: CivilDate(uncheckedDayNumber: last), fullDayCount: perColumn)
    }

    /// The columns at the given indexes, clamped to `0..<columnCount`.
    public func columns(in indexes: Range<Int>) -> [AxisColumn] {
        clampedColumns(indexes).map(column(at:))
    }

    /// Every column, left to right.
    public var columns: [AxisColumn] { columns(in: 0..<columnCount) }

    /// The position of the start of `date`'s day in column units. Not clamped: dates before the
    /// horizon give negative values, dates at or after its end values ≥ `width`.
    public func x(of date: CivilDate) -> Double {
        Double(horizon.start.days(to: date)) / Double(zoom.daysPerColumn)
    }

    /// The position of the middle of `date`'s day in column units (where a milestone diamond sits).
    public func centerX(of date: CivilDate) -> Double {
        (Double(horizon.start.days(to: date)) + 0.5) / Double(zoom.daysPerColumn)
    }

    /// The index of the column holding `date`, or nil when the date is outside the horizon.
    public func columnIndex(of date: CivilDate) -> Int? {
        guard horizon.contains(date) else { return nil }
        return horizon.start.days(to: date) / zoom.daysPerColumn
    }

    /// The day at position `x` in column units, clamped into the horizon.
    public func date(atX x: Double) -> CivilDate {
        let days = (x * Double(zoom.daysPerColumn)).rounded(.down)
        guard days.isFinite, days > 0 else { return horizon.start }
        guard days < Double(horizon.days) else { return horizon.lastDate }
        return CivilDate(uncheckedDayNumber: horizon.start.dayNumber + Int(days))
    }

    /// `indexes` limited to the existing columns.
    func clampedColumns(_ indexes: Range<Int>) -> Range<Int> {
        let lower = min(max(indexes.lowerBound, 0), columnCount)
        let upper = min(max(indexes.upperBound, lower), columnCount)
        return lower..<upper
    }
}
