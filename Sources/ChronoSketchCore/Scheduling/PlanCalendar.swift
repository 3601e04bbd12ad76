/// A plan's working calendar: the ISO weekdays that are worked and the holidays that are not.
///
/// Every instance is valid (scheduling.md §1): at least one working day, each 1…7 and none twice;
/// at most `maximumHolidays` holidays, none twice. Both arrays are kept sorted ascending, so two
/// calendars equal as sets are equal as values.
public struct PlanCalendar: Sendable, Hashable {
    /// The most holidays a calendar may list.
    public static let maximumHolidays = 1000

    /// ISO weekdays worked (1 = Monday … 7 = Sunday), ascending.
    public let workingDays: [Int]
    /// Days not worked whatever their weekday, ascending.
    public let holidays: [CivilDate]

    /// Every day working, no holidays: the default of every plan.
    public static let allDaysWorking = PlanCalendar(unchecked: Array(1...7), holidays: [])

    /// Creates a calendar, sorting both lists.
    /// - Throws: `PlanCalendarError` naming the first rule the lists break.
    public init(workingDays: [Int], holidays: [CivilDate]) throws(PlanCalendarError) {
        let days = workingDays.sorted()
        guard !days.isEmpty else { throw .noWorkingDay }
        for (index, day) in days.enumerated() {
            guard (1...7).contains(day) else { throw .weekdayOutOfRange(day) }
            if index > 0, days[index - 1] == day { throw .repeatedWeekday(day) }
        }
        guard holidays.count <= PlanCalendar.maximumHolidays else { throw .tooManyHolidays(holidays.count) }
        let sortedHolidays = holidays.sorted()
        for index in sortedHolidays.indices.dropFirst() where sortedHolidays[index - 1] == sortedHolidays[index] {
            throw .repeatedHoliday(sortedHolidays[index])
        }
        self.init(unchecked: days, holidays: sortedHolidays)
    }

    init(unchecked workingDays: [Int], holidays: [CivilDate]) {
        self.workingDays = workingDays
        self.holidays = holidays
    }

    /// Whether `date` is worked: its weekday is a working day and it is not a holiday.
    public func isWorkingDay(_ date: CivilDate) -> Bool {
        workingDays.contains(date.isoWeekday) && holidays.sortedIndex(of: date) == nil
    }
}

/// Why a calendar is invalid (`invalidCalendar` on the wire).
public enum PlanCalendarError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `workingDays` is empty.
    case noWorkingDay
    /// A working day outside 1…7.
    case weekdayOutOfRange(Int)
    /// A working day listed twice.
    case repeatedWeekday(Int)
    /// More than `PlanCalendar.maximumHolidays` holidays.
    case tooManyHolidays(Int)
    /// A holiday listed twice.
    case repeatedHoliday(CivilDate)

    /// A short English explanation.
    public var description: String {
        switch self {
        case .noWorkingDay: "a calendar needs at least one working day"
        case .weekdayOutOfRange(let day): "working day \(day) is not an ISO weekday (1 = Monday … 7 = Sunday)"
        case .repeatedWeekday(let day): "working day \(day) is listed twice"
        case .tooManyHolidays(let count):
            "\(count) holidays: a calendar may list at most \(PlanCalendar.maximumHolidays)"
        case .repeatedHoliday(let date): "holiday \(date) is listed twice"
        }
    }
}
