/// A civil-day interval with an exclusive end strictly after its start.
///
/// From September 8 to September 10 occupies September 8 and 9.
public struct TaskSchedule: Sendable, Hashable {
    /// The first occupied day.
    public let start: CivilDate
    /// The day after the last occupied day.
    public let end: CivilDate

    /// Creates an interval `[start, end)`.
    /// - Throws: `TaskScheduleError.endNotAfterStart` unless `end > start`.
    public init(start: CivilDate, end: CivilDate) throws(TaskScheduleError) {
        guard end > start else { throw .endNotAfterStart }
        self.start = start
        self.end = end
    }

    /// Creates an interval of `days` whole days beginning at `start`.
    /// - Throws: `.nonpositiveDays` unless `days > 0`; `.outOfRange` when the end leaves years 1…9999.
    public init(start: CivilDate, days: Int) throws(TaskScheduleError) {
        guard days > 0 else { throw .nonpositiveDays }
        guard let end = try? start.adding(days: days) else { throw .outOfRange }
        self.start = start
        self.end = end
    }

    /// The number of days covered, at least 1.
    public var days: Int { start.days(to: end) }

    /// The inclusive last occupied day, `end − 1`.
    public var lastDate: CivilDate { CivilDate(uncheckedDayNumber: end.dayNumber - 1) }

    /// Whether `date` lies in `[start, end)`.
    public func contains(_ date: CivilDate) -> Bool { start <= date && date < end }
}

/// Why a `TaskSchedule` could not be made.
public enum TaskScheduleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The end is not after the start.
    case endNotAfterStart
    /// A duration of zero or fewer days.
    case nonpositiveDays
    /// The end would fall after 9999-12-31.
    case outOfRange

    /// A short English explanation.
    public var description: String {
        switch self {
        case .endNotAfterStart: "the end must be after the start"
        case .nonpositiveDays: "the duration must be at least one day"
        case .outOfRange: "the end must not be after 9999-12-31"
        }
    }
}
