import ChronoSketchCore

/// One calendar exception of an MSPDI file (`Exceptions/Exception`, MS Project 2007 and later)
/// and the days it covers, expanded as MS Project expands it (interchange.md §5): a plain range,
/// every n days, weekly on some weekdays every n weeks, monthly or yearly on a day or on the
/// nth (or last) weekday — within `FromDate`…`ToDate`, at most `Occurrences` of them.
struct MSProjectRecurrence {
    /// `Type`: 0/1 range (daily), 7 every `period` days, 6 weekly, 4 monthly on a day, 5 monthly
    /// on a weekday, 2 yearly on a day, 3 yearly on a weekday.
    let type: Int
    let from: CivilDate
    let to: CivilDate
    let occurrences: Int?
    let period: Int
    /// `DaysOfWeek`: bit 1 Sunday … bit 64 Saturday.
    let daysOfWeek: Int
    /// `MonthDay`: 1…31.
    let monthDay: Int
    /// `MonthItem`: 3 Sunday … 9 Saturday.
    let monthItem: Int
    /// `MonthPosition`: 0 first … 3 fourth, 4 last.
    let monthPosition: Int
    /// `Month`: 0 January … 11 December.
    let month: Int
    /// Whether the days are working days (`DayWorking`).
    let working: Bool

    /// The most days one exception may cover (a range over 200 years is a mistake, not a calendar).
    static let maxDays = 73_000

    /// Reads an `Exception` element; nil when it has no readable `TimePeriod`.
    init?(_ element: XMLElement) {
        guard let period = element.child("TimePeriod"), let from = MSProjectDates.date(period.value("FromDate")),
            let to = MSProjectDates.date(period.value("ToDate"))
        else { return nil }
        self.from = from
        self.to = to
        // Every number is held to what MS Project can write, so that no file overflows a count.
        func bounded(_ name: String, _ range: ClosedRange<Int>, _ fallback: Int) -> Int {
            element.integer(name).map { min(max($0, range.lowerBound), range.upperBound) } ?? fallback
        }
        type = element.integer("Type") ?? 1
        occurrences = element.integer("Occurrences").flatMap { $0 > 0 ? min($0, MSProjectRecurrence.maxDays) : nil }
        self.period = bounded("Period", 1...10_000, 1)
        daysOfWeek = bounded("DaysOfWeek", 0...127, 0)
        monthDay = bounded("MonthDay", 1...31, 1)
        monthItem = bounded("MonthItem", 3...9, 3)
        monthPosition = bounded("MonthPosition", 0...4, 0)
        month = bounded("Month", 0...11, 0)
        working = element.flag("DayWorking")
    }

    /// The days covered, in date order.
    func days() -> [CivilDate] {
        var found: [CivilDate] = []
        let limit = min(occurrences ?? Int.max, MSProjectRecurrence.maxDays)
        func take(_ date: CivilDate?) -> Bool {
            guard let date, date >= from else { return true }
            guard date <= to, found.count < limit else { return false }
            found.append(date)
            return true
        }
        switch type {
        case 7:
            var day = from
            while take(day), let next = try? day.adding(days: period) { day = next }
        case 6:
            expandWeekly(take)
        case 4, 5:
            expandMonthly(every: period, take)
        case 2, 3:
            expandMonthly(every: 12, startMonth: month + 1, take)
        default:
            var day = from
            while take(day), let next = try? day.adding(days: 1) { day = next }
        }
        return found
    }

    /// Weekly: the weeks (Sunday to Saturday) counted from the one holding `from`, every
    /// `period`th of them, on the days of `daysOfWeek`.
    private func expandWeekly(_ take: (CivilDate?) -> Bool) {
        guard daysOfWeek & 0x7F != 0 else { return }
        var weekStart = try? from.adding(days: -MSProjectDates.sundayIndex(from))
        while let start = weekStart {
            for index in 0..<7 where daysOfWeek & (1 << index) != 0 {
                guard take(try? start.adding(days: index)) else { return }
            }
            weekStart = try? start.adding(days: 7 * period)
        }
    }

    /// Monthly (or yearly, every 12 months from `startMonth`): the `monthDay`th day, or for
    /// types 5 and 3 the `monthPosition`th `monthItem` weekday, of every `every`th month.
    private func expandMonthly(every: Int, startMonth: Int? = nil, _ take: (CivilDate?) -> Bool) {
        let (year, month, _) = from.components
        var index = year * 12 + (startMonth ?? month) - 1
        if startMonth != nil, index < year * 12 + month - 1 { index += 12 }
        let relative = type == 5 || type == 3
        while index / 12 <= 9999 {
            let (y, m) = (index / 12, index % 12 + 1)
            let date = relative ? nthWeekday(year: y, month: m) : dayOfMonth(year: y, month: m)
            guard take(date) else { return }
            index += every
        }
    }

    /// The `monthDay`th day of the month (the last day when the month is shorter).
    private func dayOfMonth(year: Int, month: Int) -> CivilDate? {
        try? CivilDate(year: year, month: month, day: min(monthDay, MSProjectDates.daysIn(year: year, month: month)))
    }

    /// The `monthPosition`th (4: last) weekday `monthItem` of the month.
    private func nthWeekday(year: Int, month: Int) -> CivilDate? {
        let target = max(0, min(6, monthItem - 3))
        if monthPosition >= 4 {
            guard
                let last = try? CivilDate(
                    year: year, month: month, day: MSProjectDates.daysIn(year: year, month: month))
            else { return nil }
            return try? last.adding(days: -((MSProjectDates.sundayIndex(last) - target + 7) % 7))
        }
        guard let first = try? CivilDate(year: year, month: month, day: 1) else { return nil }
        let offset = (target - MSProjectDates.sundayIndex(first) + 7) % 7 + 7 * monthPosition
        return try? first.adding(days: offset)
    }
}

/// Reading MSPDI date-times (`2024-01-05T17:00:00`) and weekday numbers.
enum MSProjectDates {
    /// The civil date of a date-time (its first ten characters), if it is one.
    static func date(_ text: String?) -> CivilDate? {
        guard let text = text?.trimmingSpaces, text.utf8.count >= 10 else { return nil }
        return try? CivilDate(String(text.prefix(10)))
    }

    /// The date-time to the minute (seconds truncated), if it is one.
    static func dateTime(_ text: String?) -> LocalDateTime? {
        guard let text = text?.trimmingSpaces, text.utf8.count >= 16 else { return nil }
        return try? LocalDateTime(String(text.prefix(16)))
    }

    /// Sunday 0 … Saturday 6.
    static func sundayIndex(_ date: CivilDate) -> Int { date.isoWeekday % 7 }

    /// The number of days in a month.
    static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
