/// One column of the time axis: `zoom.daysPerColumn` consecutive civil days, fewer in the last
/// column when the horizon ends inside it.
public struct AxisColumn: Sendable, Hashable {
    /// The position from the left, 0 for the horizon's first column.
    public let index: Int
    /// The first day of the column.
    public let firstDate: CivilDate
    /// The last day of the column (inclusive), never after the horizon's last day.
    public let lastDate: CivilDate
    /// The days of the column a full column would hold (the zoom's days per column).
    public let fullDayCount: Int

    /// The number of days in the column, 1…`fullDayCount`.
    public var dayCount: Int { firstDate.days(to: lastDate) + 1 }

    /// Whether the horizon's end cuts the column short (only ever the last column).
    public var isClipped: Bool { dayCount < fullDayCount }

    /// The column's left edge in column units: `index`.
    public var startX: Double { Double(index) }

    /// The column's right edge in column units: `index + 1`, less for a clipped column.
    public var endX: Double { Double(index) + Double(dayCount) / Double(fullDayCount) }

    /// The day-row label: the day of month ("8"), or for several days the inclusive range of days
    /// of month ("8–11", "30–2" across a month boundary), with the first day alone as fallback.
    public var label: AxisLabel {
        let first = String(firstDate.day)
        guard dayCount > 1 else { return AxisLabel([first]) }
        return AxisLabel([first + "\u{2013}" + String(lastDate.day), first])
    }
}
