import ChronoSketchCore
import Glibc

/// The local time zone as offsets from UTC: what the history shows its times in. The model has
/// no clock and no time zone of its own; the interactive client gives it the system's, the tests
/// a fixed one.
public struct LocalTime: Sendable {
    /// The offset from UTC, in seconds, at an instant given in seconds since 1970 (UTC).
    public let offset: @Sendable (Int) -> Int

    /// Offsets from a function.
    public init(offset: @escaping @Sendable (Int) -> Int) {
        self.offset = offset
    }

    /// UTC itself.
    public static let utc = LocalTime { _ in 0 }

    /// A fixed offset of `minutes`.
    public static func fixed(minutes: Int) -> LocalTime { LocalTime { _ in minutes * 60 } }

    /// The system's time zone (`TZ`, `/etc/localtime`), daylight saving time included.
    public static let system = LocalTime { seconds in
        var instant = time_t(seconds)
        var parts = tm()
        guard localtime_r(&instant, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }

    /// An RFC 3339 UTC time ("2026-12-01T10:15:00Z") in local time: the local date, "HH:MM" and
    /// the offset in seconds; nil when `at` is not such a time.
    public func local(_ at: String) -> (date: CivilDate, time: String, offset: Int)? {
        let parts = at.split(separator: "T")
        guard parts.count == 2, let date = try? CivilDate(String(parts[0])) else { return nil }
        let clock = parts[1].prefix(8).split(separator: ":").compactMap { Int($0) }
        guard clock.count >= 2 else { return nil }
        let utcMinute = date.dayNumber * 1440 + clock[0] * 60 + clock[1]
        let offset = self.offset((utcMinute - LocalTime.epochDay * 1440) * 60 + (clock.count > 2 ? clock[2] : 0))
        let minute = utcMinute + offset / 60
        let day = minute.floorDivided(by: 1440)
        let inDay = minute - day * 1440
        let hh = inDay / 60
        let mm = inDay % 60
        guard let localDate = try? date.adding(days: day - date.dayNumber) else { return nil }
        return (localDate, (hh < 10 ? "0" : "") + String(hh) + ":" + (mm < 10 ? "0" : "") + String(mm), offset)
    }

    /// The day number of 1970-01-01.
    static let epochDay = (try? CivilDate("1970-01-01"))?.dayNumber ?? 0

    /// An offset as "UTC+01:00" ("UTC" for none).
    public static func describe(offset: Int) -> String {
        guard offset != 0 else { return "UTC" }
        let minutes = abs(offset) / 60
        let hh = minutes / 60
        let mm = minutes % 60
        return "UTC" + (offset < 0 ? "−" : "+") + (hh < 10 ? "0" : "") + String(hh) + ":" + (mm < 10 ? "0" : "")
            + String(mm)
    }
}

extension Int {
    fileprivate func floorDivided(by divisor: Int) -> Int {
        self >= 0 ? self / divisor : -((-self + divisor - 1) / divisor)
    }
}
