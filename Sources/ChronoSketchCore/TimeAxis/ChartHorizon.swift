/// The finite civil-date range a chart shows: a start date and a positive number of days, with
/// an exclusive end.
///
/// Navigation stays within it; no dates are ever added to it.
public struct ChartHorizon: Sendable, Hashable {
    /// The first day shown.
    public let start: CivilDate
    /// The number of days shown, at least 1.
    public let days: Int

    /// Creates the horizon `[start, start + days)`.
    /// - Throws: `TaskScheduleError.nonpositiveDays` unless `days > 0`; `.outOfRange` when the
    ///   exclusive end would fall after 9999-12-31.
    public init(start: CivilDate, days: Int) throws(TaskScheduleError) {
        let schedule = try TaskSchedule(start: start, days: days)
        self.start = schedule.start
        self.days = schedule.days
    }

    /// The horizon covering a schedule's interval (the older `range: TaskSchedule` path).
    public init(_ schedule: TaskSchedule) {
        start = schedule.start
        days = schedule.days
    }

    /// The exclusive end: the day after the last day shown.
    public var end: CivilDate { CivilDate(uncheckedDayNumber: start.dayNumber + days) }

    /// The last day shown (inclusive).
    public var lastDate: CivilDate { CivilDate(uncheckedDayNumber: start.dayNumber + days - 1) }

    /// The horizon as an exclusive interval.
    public var schedule: TaskSchedule { try! TaskSchedule(start: start, end: end) }

    /// Whether `date` lies in `[start, end)`.
    public func contains(_ date: CivilDate) -> Bool { start <= date && date < end }

    /// `date` moved into the horizon: dates before it become `start`, dates after it `lastDate`.
    public func clamped(_ date: CivilDate) -> CivilDate {
        min(max(date, start), lastDate)
    }
}
