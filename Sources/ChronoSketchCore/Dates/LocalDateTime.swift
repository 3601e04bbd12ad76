/// A floating local date and time to the minute, written `YYYY-MM-DDTHH:mm`.
///
/// No seconds, no offset, no time zone or DST conversion; `24:00` is rejected. Stored as minutes
/// since 0001-01-01T00:00, so comparison and hashing are cheap.
public struct LocalDateTime: Sendable, Hashable, Comparable {
    /// Minutes since 0001-01-01T00:00.
    public let minuteNumber: Int

    /// Creates a date-time from a civil date and a time of day.
    /// - Throws: `CivilDateError.invalidDate` unless `hour` is 0…23 and `minute` 0…59.
    public init(date: CivilDate, hour: Int, minute: Int) throws(CivilDateError) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { throw .invalidDate }
        minuteNumber = date.dayNumber * 1440 + hour * 60 + minute
    }

    /// Parses strictly `YYYY-MM-DDTHH:mm`.
    /// - Throws: `CivilDateError.malformed` for another shape (seconds, offsets, spaces),
    ///   `.invalidDate` for impossible dates or times such as `24:00`.
    public init(_ text: String) throws(CivilDateError) {
        var text = text
        self = try text.withUTF8 { bytes -> Result<LocalDateTime, CivilDateError> in
            guard bytes.count == 16, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
                let hour = CivilCalendar.digits(bytes, 11, 2), let minute = CivilCalendar.digits(bytes, 14, 2)
            else { return .failure(.malformed) }
            return CivilDate.parse(UnsafeBufferPointer(rebasing: bytes[0..<10])).flatMap { date in
                Result { () throws(CivilDateError) in try LocalDateTime(date: date, hour: hour, minute: minute) }
            }
        }.get()
    }

    /// The civil date of this date-time.
    public var date: CivilDate { CivilDate(uncheckedDayNumber: minuteNumber / 1440) }
    /// The hour, 0…23.
    public var hour: Int { minuteNumber % 1440 / 60 }
    /// The minute, 0…59.
    public var minute: Int { minuteNumber % 60 }

    /// Midnight at the start of `date`.
    public init(startOf date: CivilDate) {
        minuteNumber = date.dayNumber * 1440
    }

    /// The number of minutes from `self` to `other`.
    public func minutes(to other: LocalDateTime) -> Int {
        other.minuteNumber - minuteNumber
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        lhs.minuteNumber < rhs.minuteNumber
    }
}

extension LocalDateTime: CustomStringConvertible {
    /// The date-time as `YYYY-MM-DDTHH:mm`.
    public var description: String {
        date.description + "T" + CivilCalendar.pad(hour, 2) + ":" + CivilCalendar.pad(minute, 2)
    }
}
