/// A Gregorian calendar date without time or zone, written `YYYY-MM-DD`, in years 1…9999.
///
/// A `CivilDate` is neither an instant nor a zoned timestamp. It is stored as a day number, so
/// comparison, hashing and day arithmetic are cheap; year, month and day are derived on demand.
public struct CivilDate: Sendable, Hashable, Comparable {
    /// Days since 0001-01-01 (which is day 0).
    public let dayNumber: Int

    /// The first representable date, 0001-01-01.
    public static let earliest = CivilDate(uncheckedDayNumber: 0)
    /// The last representable date, 9999-12-31.
    public static let latest = CivilDate(uncheckedDayNumber: CivilCalendar.dayNumber(year: 9999, month: 12, day: 31))

    init(uncheckedDayNumber: Int) {
        self.dayNumber = uncheckedDayNumber
    }

    /// Creates a date from its day number (days since 0001-01-01).
    /// - Throws: `CivilDateError.outOfRange` when the result is not within years 1…9999.
    public init(dayNumber: Int) throws(CivilDateError) {
        guard dayNumber >= CivilDate.earliest.dayNumber, dayNumber <= CivilDate.latest.dayNumber else {
            throw .outOfRange
        }
        self.dayNumber = dayNumber
    }

    /// Creates a date from its components, accepting only real Gregorian dates in years 1…9999.
    /// - Throws: `CivilDateError.invalidDate` for impossible dates such as February 30.
    public init(year: Int, month: Int, day: Int) throws(CivilDateError) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month)
        else { throw .invalidDate }
        self.dayNumber = CivilCalendar.dayNumber(year: year, month: month, day: day)
    }

    /// Parses strictly `YYYY-MM-DD`: four-digit year 0001…9999, two-digit month and day, a real date.
    /// - Throws: `CivilDateError.malformed` for any other shape, `.invalidDate` for impossible dates.
    public init(_ text: String) throws(CivilDateError) {
        var text = text
        self = try text.withUTF8 { CivilDate.parse($0) }.get()
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<CivilDate, CivilDateError> {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = CivilCalendar.digits(bytes, 0, 4),
            let month = CivilCalendar.digits(bytes, 5, 2),
            let day = CivilCalendar.digits(bytes, 8, 2)
        else { return .failure(.malformed) }
        do {
            return .success(try CivilDate(year: year, month: month, day: day))
        } catch {
            return .failure(error)
        }
    }

    /// Year, month (1…12) and day (1…31).
    public var components: (year: Int, month: Int, day: Int) {
        CivilCalendar.civil(fromDayNumber: dayNumber)
    }

    /// The year, 1…9999.
    public var year: Int { components.year }
    /// The month, 1…12.
    public var month: Int { components.month }
    /// The day of the month, 1…31.
    public var day: Int { components.day }

    /// The date `days` later (or earlier, when negative).
    /// - Throws: `CivilDateError.outOfRange` when the result leaves years 1…9999.
    public func adding(days: Int) throws(CivilDateError) -> CivilDate {
        try CivilDate(dayNumber: dayNumber + days)
    }

    /// The number of days from `self` to `other` (positive when `other` is later).
    public func days(to other: CivilDate) -> Int {
        other.dayNumber - dayNumber
    }

    /// The ISO weekday: 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int {
        // 0001-01-01 was a Monday in the proleptic Gregorian calendar.
        dayNumber % 7 + 1
    }

    /// The ISO-8601 week number (1…53) and the week-based year it belongs to.
    ///
    /// 2021-01-01 is in week 53 of 2020; 2024-12-30 is in week 1 of 2025.
    public var isoWeek: (weekYear: Int, week: Int) {
        // The week containing this date's Thursday decides the week-year.
        let thursday = dayNumber - (isoWeekday - 1) + 3
        let weekYear = CivilCalendar.civil(fromDayNumber: thursday).year
        let firstOfYear = CivilCalendar.dayNumber(year: weekYear, month: 1, day: 1)
        return (weekYear, (thursday - firstOfYear) / 7 + 1)
    }

    /// The Monday starting this date's ISO week, or nil before the first representable Monday.
    public var startOfISOWeek: CivilDate? {
        try? CivilDate(dayNumber: dayNumber - (isoWeekday - 1))
    }

    /// The first day of this date's month.
    public var startOfMonth: CivilDate {
        CivilDate(uncheckedDayNumber: dayNumber - (day - 1))
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        lhs.dayNumber < rhs.dayNumber
    }
}

extension CivilDate: CustomStringConvertible {
    /// The date as `YYYY-MM-DD`.
    public var description: String {
        let (year, month, day) = components
        // Ten ASCII bytes at once: dates are written for every task of every snapshot.
        return String(unsafeUninitializedCapacity: 10) { buffer in
            func digits(_ value: Int, through last: Int, width: Int) {
                var rest = value
                for position in stride(from: last, to: last - width, by: -1) {
                    buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            digits(year, through: 3, width: 4)
            buffer[4] = UInt8(ascii: "-")
            digits(month, through: 6, width: 2)
            buffer[7] = UInt8(ascii: "-")
            digits(day, through: 9, width: 2)
            return 10
        }
    }
}

/// Why a date or date-time could not be made.
public enum CivilDateError: Error, Sendable, Hashable {
    /// The text does not have the required shape (`YYYY-MM-DD` or `YYYY-MM-DDTHH:mm`).
    case malformed
    /// The components do not name a real date in years 1…9999, or a real time of day.
    case invalidDate
    /// Arithmetic left the representable years 1…9999.
    case outOfRange
}
