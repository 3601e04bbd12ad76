import Testing

@testable import ChronoSketchCore

@Suite("CivilDate")
struct CivilDateTests {
    @Test(
        "parses and formats real dates",
        arguments: ["0001-01-01", "2026-09-08", "2024-02-29", "9999-12-31", "2000-02-29"])
    func roundTrip(text: String) throws {
        #expect(try CivilDate(text).description == text)
    }

    @Test(
        "rejects malformed text",
        arguments: [
            "", "2026-9-08", "2026-09-8", "26-09-08", "2026/09/08", "2026-09-08 ", " 2026-09-08", "20260908",
            "2026-09-08T00:00", "+2026-09-08", "2026-0a-08", "２０２６-09-08",
        ])
    func malformed(text: String) {
        #expect(throws: CivilDateError.malformed) { try CivilDate(text) }
    }

    @Test(
        "rejects impossible dates and years outside 1…9999",
        arguments: [
            "2026-02-29", "2026-02-30", "2100-02-29", "0000-01-01", "2026-13-01", "2026-00-10", "2026-04-31",
            "2026-01-00", "2026-01-32",
        ])
    func impossible(text: String) {
        #expect(throws: CivilDateError.invalidDate) { try CivilDate(text) }
    }

    @Test("day arithmetic crosses months, leap days and years")
    func arithmetic() throws {
        let date = try CivilDate("2024-02-28")
        #expect(try date.adding(days: 1).description == "2024-02-29")
        #expect(try date.adding(days: 2).description == "2024-03-01")
        #expect(try date.adding(days: 366).description == "2025-02-28")
        #expect(try date.adding(days: -59).description == "2023-12-31")
        #expect(try CivilDate("2026-09-08").days(to: CivilDate("2026-09-10")) == 2)
        #expect(throws: CivilDateError.outOfRange) { try CivilDate.latest.adding(days: 1) }
        #expect(throws: CivilDateError.outOfRange) { try CivilDate.earliest.adding(days: -1) }
    }

    @Test("day numbers agree with components for every day of four centuries")
    func dayNumbersAreConsistent() throws {
        var date = try CivilDate("1900-01-01")
        var expected = (year: 1900, month: 1, day: 1)
        while date.year < 2300 {
            #expect(date.components == expected)
            date = try date.adding(days: 1)
            expected.day += 1
            if expected.day > CivilCalendar.daysInMonth(year: expected.year, month: expected.month) {
                expected.day = 1
                expected.month += 1
                if expected.month > 12 {
                    expected.month = 1
                    expected.year += 1
                }
            }
        }
    }

    @Test("weekday: 0001-01-01 and 2026-09-08 are Mondays/Tuesdays as in the Gregorian calendar")
    func weekday() throws {
        #expect(CivilDate.earliest.isoWeekday == 1)
        #expect(try CivilDate("2026-09-08").isoWeekday == 2)
        #expect(try CivilDate("2021-01-03").isoWeekday == 7)
    }

    @Test("ISO weeks and week-years at year turns")
    func isoWeeks() throws {
        let cases: [(String, Int, Int)] = [
            ("2021-01-01", 2020, 53), ("2021-01-03", 2020, 53), ("2021-01-04", 2021, 1),
            ("2024-12-30", 2025, 1), ("2026-01-01", 2026, 1), ("2026-12-31", 2026, 53),
            ("2027-01-03", 2026, 53), ("2018-12-31", 2019, 1), ("2026-09-08", 2026, 37),
        ]
        for (text, weekYear, week) in cases {
            let iso = try CivilDate(text).isoWeek
            #expect(iso.weekYear == weekYear && iso.week == week, "\(text)")
        }
        #expect(try CivilDate("2021-01-01").startOfISOWeek?.description == "2020-12-28")
        #expect(try CivilDate("2026-09-08").startOfMonth.description == "2026-09-01")
    }
}

@Suite("LocalDateTime")
struct LocalDateTimeTests {
    @Test("parses and formats minutes")
    func roundTrip() throws {
        for text in ["2026-09-09T09:00", "2026-09-09T23:59", "0001-01-01T00:00", "9999-12-31T23:59"] {
            #expect(try LocalDateTime(text).description == text)
        }
        let value = try LocalDateTime("2026-09-09T12:30")
        #expect(value.hour == 12 && value.minute == 30 && value.date.description == "2026-09-09")
    }

    @Test(
        "rejects seconds, offsets, 24:00 and impossible dates",
        arguments: [
            "2026-09-09T24:00", "2026-09-09T09:00:00", "2026-09-09T09:00Z", "2026-09-09T09:00+02:00",
            "2026-09-09 09:00", "2026-02-30T10:00", "2026-09-09T9:00", "2026-09-09T09:60", "2026-09-09",
        ])
    func rejects(text: String) {
        #expect(throws: CivilDateError.self) { try LocalDateTime(text) }
    }

    @Test("a timed end at midnight does not occupy the following day")
    func midnight() throws {
        let end = try LocalDateTime("2026-09-10T00:00")
        #expect(end.date.description == "2026-09-10")
        #expect(try LocalDateTime("2026-09-09T23:59") < end)
        #expect(try LocalDateTime("2026-09-09T09:00").minutes(to: LocalDateTime("2026-09-09T12:30")) == 210)
    }
}

@Suite("TaskSchedule")
struct TaskScheduleTests {
    @Test("exclusive end: September 8 to 10 occupies the 8th and 9th")
    func exclusiveEnd() throws {
        let schedule = try TaskSchedule(start: CivilDate("2026-09-08"), end: CivilDate("2026-09-10"))
        #expect(schedule.days == 2)
        #expect(schedule.lastDate.description == "2026-09-09")
        #expect(schedule.contains(try CivilDate("2026-09-09")))
        #expect(!schedule.contains(try CivilDate("2026-09-10")))
        #expect(try TaskSchedule(start: CivilDate("2026-09-08"), days: 2) == schedule)
    }

    @Test("end must be after start; days must be positive and stay in range")
    func rejects() throws {
        let day = try CivilDate("2026-09-08")
        #expect(throws: TaskScheduleError.endNotAfterStart) { try TaskSchedule(start: day, end: day) }
        #expect(throws: TaskScheduleError.nonpositiveDays) { try TaskSchedule(start: day, days: 0) }
        #expect(throws: TaskScheduleError.outOfRange) { try TaskSchedule(start: CivilDate.latest, days: 1) }
    }
}
