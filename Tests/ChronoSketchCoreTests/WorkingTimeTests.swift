import Testing

@testable import ChronoSketchCore

/// The working-day arithmetic (scheduling.md §3) against a brute-force walk, day by day, over
/// random calendars and dates; and the calendar's validity rules (§1).
@Suite("Working time")
struct WorkingTimeTests {
    /// A random calendar: a nonempty set of weekdays and up to 40 holidays around `base`, some
    /// of them on non-working weekdays (which must count nothing).
    static func randomCalendar(_ random: inout SplitMix64, base: Int) -> PlanCalendar {
        var days = (1...7).filter { _ in Bool.random(using: &random) }
        if days.isEmpty { days = [Int.random(in: 1...7, using: &random)] }
        let holidays = Set(
            (0..<Int.random(in: 0...40, using: &random)).map { _ in
                CivilDate(uncheckedDayNumber: base + Int.random(in: -200...200, using: &random))
            })
        return try! PlanCalendar(workingDays: days.shuffled(using: &random), holidays: Array(holidays))
    }

    /// Counts working days in `[a, b)` (negated for `b < a`) one day at a time.
    static func walkedWorkingDays(_ calendar: PlanCalendar, from a: Int, to b: Int) -> Int {
        let count = (min(a, b)..<max(a, b)).filter { calendar.isWorkingDay(CivilDate(uncheckedDayNumber: $0)) }.count
        return b < a ? -count : count
    }

    @Test func countsAgreeWithAWalkOverRandomCalendars() {
        var random = SplitMix64(seed: 0x5C4E_D01E)
        let base = Make.date("2026-09-01").dayNumber
        for _ in 0..<300 {
            let calendar = Self.randomCalendar(&random, base: base)
            let time = WorkingTime(calendar)
            for _ in 0..<20 {
                let a = base + Int.random(in: -260...260, using: &random)
                let b = base + Int.random(in: -260...260, using: &random)
                #expect(time.workingDays(from: a, to: b) == Self.walkedWorkingDays(calendar, from: a, to: b))
                let date = CivilDate(uncheckedDayNumber: a)
                #expect(time.isWorking(day: a) == calendar.isWorkingDay(date))
                // The first working day on or after `a`, walked.
                var walked = a
                while !calendar.isWorkingDay(CivilDate(uncheckedDayNumber: walked)) { walked += 1 }
                #expect(time.workingDay(onOrAfter: a) == walked)
                // The inverse: the working day at a's position is that same day.
                #expect(time.day(atPosition: time.position(ofDay: a)) == walked)
                // s ⊕ n: the day after the n-th working day counted from s, walked.
                let count = Int.random(in: 0...15, using: &random)
                var end = walked
                if count > 0 {
                    var left = count
                    while true {
                        if calendar.isWorkingDay(CivilDate(uncheckedDayNumber: end)) { left -= 1 }
                        end += 1
                        if left == 0 { break }
                    }
                }
                #expect(time.end(placingFrom: walked, workingDays: count) == end)
            }
        }
    }

    @Test func positionsAreAdditiveAndFarDatesNeedNoWalk() {
        let calendar = try! PlanCalendar(workingDays: [1, 2, 3, 4, 5], holidays: [Make.date("2026-12-25")])
        let time = WorkingTime(calendar)
        let first = CivilDate.earliest.dayNumber
        let last = CivilDate.latest.dayNumber
        let middle = Make.date("2026-12-24").dayNumber
        #expect(
            time.workingDays(from: first, to: middle) + time.workingDays(from: middle, to: last)
                == time.workingDays(from: first, to: last))
        // 0001-01-01 … 9999-12-31: 521,722 whole weeks and 5 days (Monday … Friday), one holiday.
        #expect(time.workingDays(from: first, to: last + 1) == 521_722 * 5 + 5 - 1)
        #expect(time.day(atPosition: time.position(ofDay: last)) == last)
    }

    @Test func workingDurationKeepsOnlyWorkingDays() {
        let time = WorkingTime(try! PlanCalendar(workingDays: [1, 2, 3, 4, 5], holidays: []))
        // [Sat, Wed) is Monday and Tuesday; [Sat, Mon) counts as 1; a milestone is 0.
        #expect(time.workingDuration(of: Make.activity("a", "2026-09-05", "2026-09-09").kind) == 2)
        #expect(time.workingDuration(of: Make.activity("a", "2026-09-05", "2026-09-07").kind) == 1)
        #expect(time.workingDuration(of: Make.milestone("m", "2026-09-05").kind) == 0)
        #expect(time.workingDuration(of: Make.activity("u").kind) == nil)
        // Thursday ⊕ 2 = Saturday.
        #expect(
            time.end(placingFrom: Make.date("2026-09-10").dayNumber, workingDays: 2)
                == Make.date("2026-09-12").dayNumber)
    }

    @Test func calendarsAreValidatedAndKeptSorted() {
        #expect(throws: PlanCalendarError.noWorkingDay) { try PlanCalendar(workingDays: [], holidays: []) }
        #expect(throws: PlanCalendarError.weekdayOutOfRange(8)) { try PlanCalendar(workingDays: [1, 8], holidays: []) }
        #expect(throws: PlanCalendarError.weekdayOutOfRange(0)) { try PlanCalendar(workingDays: [0], holidays: []) }
        #expect(throws: PlanCalendarError.repeatedWeekday(3)) {
            try PlanCalendar(workingDays: [3, 1, 3], holidays: [])
        }
        let christmas = Make.date("2026-12-25")
        #expect(throws: PlanCalendarError.repeatedHoliday(christmas)) {
            try PlanCalendar(workingDays: [1], holidays: [christmas, Make.date("2026-01-01"), christmas])
        }
        let many = (0...PlanCalendar.maximumHolidays).map { CivilDate(uncheckedDayNumber: christmas.dayNumber + $0) }
        #expect(throws: PlanCalendarError.tooManyHolidays(1001)) { try PlanCalendar(workingDays: [1], holidays: many) }
        let sorted = try! PlanCalendar(workingDays: [5, 1, 3], holidays: [christmas, Make.date("2026-01-01")])
        #expect(sorted.workingDays == [1, 3, 5])
        #expect(sorted.holidays == [Make.date("2026-01-01"), christmas])
        #expect(sorted == (try! PlanCalendar(workingDays: [3, 5, 1], holidays: [Make.date("2026-01-01"), christmas])))
    }
}
