/// A calendar period of a header row.
public enum AxisPeriod: Sendable, Hashable {
    /// A calendar month, `month` in 1…12.
    case month(year: Int, month: Int)
    /// An ISO-8601 week (1…53) of its week-based year, which can differ from the calendar year of
    /// its days: 2021-01-01 is in week 53 of 2020.
    case isoWeek(weekYear: Int, week: Int)
}

/// One section of the month or ISO-week header row: a period with its exact civil boundaries,
/// clipped to the horizon, placed in fractional column units.
///
/// A period that begins inside a zoomed column begins at a fractional x: with four days per
/// column, a month starting on the third day of column 5 starts at x = 5.5.
public struct AxisSection: Sendable, Hashable {
    /// The month or ISO week.
    public let period: AxisPeriod
    /// The first day of the period within the horizon.
    public let firstDate: CivilDate
    /// The last day of the period within the horizon (inclusive).
    public let lastDate: CivilDate
    /// Whether the period began before the horizon's start.
    public let isClippedAtStart: Bool
    /// Whether the period continues after the horizon's end.
    public let isClippedAtEnd: Bool
    /// The left edge in column units, `x(of: firstDate)`.
    public let startX: Double
    /// The right edge in column units, `x` of the day after `lastDate`.
    public let endX: Double
    /// The label with its fallbacks: "September 2026", "Sep 2026", "Sep" for a month;
    /// "Week 53 2020", "W53 2020", "W53", "53" (German "KW 53 2020", "KW53 2020", "KW53", "53")
    /// for a week.
    public let label: AxisLabel

    /// The width in column units.
    public var width: Double { endX - startX }
}
