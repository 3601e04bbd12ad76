import Testing

@testable import PlanServer

/// The hub's wall clock: UTC timestamps from a reading and the continuous clock, no clock read.
@Suite("Hub: wall clock")
struct WallClockTests {
    @Test("milliseconds since the epoch as RFC 3339 UTC, across days, years and before 1970")
    func timestamps() {
        #expect(WallClock.timestamp(unixMilliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(WallClock.timestamp(unixMilliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(WallClock.timestamp(unixMilliseconds: 1_796_120_103_120) == "2026-12-01T10:15:03.120Z")
        #expect(WallClock.timestamp(unixMilliseconds: 1_609_459_199_999) == "2020-12-31T23:59:59.999Z")
        #expect(WallClock.timestamp(unixMilliseconds: 1_609_459_200_000) == "2021-01-01T00:00:00.000Z")
    }

    @Test("an event's time is the reading moved by the continuous clock since its anchor")
    func eventTime() {
        let anchor = ContinuousClock.now
        let clock = WallClock(anchor: anchor, unixSeconds: 1_796_120_103.12)
        #expect(clock.timestamp(at: anchor) == "2026-12-01T10:15:03.120Z")
        #expect(clock.timestamp(at: anchor + .milliseconds(1_500)) == "2026-12-01T10:15:04.620Z")
        #expect(clock.timestamp(at: anchor + .seconds(86_400)) == "2026-12-02T10:15:03.120Z")
    }
}
