import ChronoSketchCore
import SystemSupport

/// Wall-clock time for the hub's pure state machines: a reading of the system clock taken at an
/// instant of the continuous clock, so that any later event time converts to a UTC timestamp
/// without the machines reading a clock. The runtime posts a fresh reading every second
/// (`HubEvent.wallClock`), so a slewed or stepped system clock is followed within a second.
struct WallClock: Sendable, Equatable {
    /// The continuous-clock instant of the reading.
    var anchor: ContinuousClock.Instant
    /// Seconds since the Unix epoch at `anchor`.
    var unixSeconds: Double

    /// A reading of the system clock now (an effect: the runtime takes it, the hub is given it).
    static func now() -> WallClock {
        WallClock(anchor: .now, unixSeconds: ProcessIO.unixSeconds())
    }

    /// The UTC time of `instant` as RFC 3339 with milliseconds (`2026-12-01T10:15:03.120Z`).
    func timestamp(at instant: ContinuousClock.Instant) -> String {
        WallClock.timestamp(unixMilliseconds: Int(((unixSeconds + (instant - anchor).inSeconds) * 1000).rounded(.down)))
    }

    /// `milliseconds` since the epoch as RFC 3339 UTC with milliseconds.
    static func timestamp(unixMilliseconds milliseconds: Int) -> String {
        let (days, dayMilliseconds) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (wholeDays, inDay) =
            dayMilliseconds < 0 ? (days - 1, dayMilliseconds + 86_400_000) : (days, dayMilliseconds)
        let date = (try? CivilDate(dayNumber: epochDayNumber + wholeDays)) ?? .earliest
        func pad(_ value: Int, _ width: Int = 2) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let seconds = inDay / 1000
        return "\(date)T\(pad(seconds / 3600)):\(pad(seconds / 60 % 60)):\(pad(seconds % 60)).\(pad(inDay % 1000, 3))Z"
    }

    private static let epochDayNumber = try! CivilDate(year: 1970, month: 1, day: 1).dayNumber
}
