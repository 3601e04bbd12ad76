import Testing

@testable import ChronoSketchCore

@Suite("Axis month and ISO-week sections")
struct AxisSectionsTests {
    func axis(_ start: String, days: Int, zoom: TimelineZoom = .oneDay) throws -> TimeAxis {
        TimeAxis(horizon: try ChartHorizon(start: CivilDate(start), days: days), zoom: zoom)
    }

    @Test("2021-01-01 is labelled as week 53 of 2020")
    func week53Of2020() throws {
        #expect(try CivilDate("2021-01-01").isoWeek == (2020, 53))
        let axis = try axis("2020-12-28", days: 14)
        let weeks = axis.weekSections(language: .english)
        #expect(weeks.map(\.period) == [.isoWeek(weekYear: 2020, week: 53), .isoWeek(weekYear: 2021, week: 1)])
        #expect(weeks.map(\.label.full) == ["Week 53 2020", "Week 1 2021"])
        #expect(weeks[0].lastDate == (try CivilDate("2021-01-03")))
        #expect(weeks[0].startX == 0 && weeks[0].endX == 7)
        #expect(weeks[1].startX == 7 && weeks[1].endX == 14)
        #expect(axis.weekSections(language: .german).map(\.label.full) == ["KW 53 2020", "KW 1 2021"])
    }

    @Test("a horizon starting on 2021-01-01 begins with a clipped week 53 of 2020")
    func clippedWeek53() throws {
        let axis = try axis("2021-01-01", days: 9)
        let weeks = axis.weekSections(language: .english)
        #expect(weeks.count == 2)
        #expect(weeks[0].period == .isoWeek(weekYear: 2020, week: 53))
        #expect(weeks[0].firstDate == (try CivilDate("2021-01-01")))
        #expect(weeks[0].isClippedAtStart)
        #expect(!weeks[0].isClippedAtEnd)
        #expect(weeks[0].startX == 0 && weeks[0].endX == 3)
        #expect(weeks[1].isClippedAtEnd)
        #expect(weeks[1].lastDate == (try CivilDate("2021-01-09")))
        #expect(weeks[1].startX == 3 && weeks[1].endX == 9)
        let months = axis.monthSections(language: .english)
        #expect(months.map(\.label.full) == ["January 2021"])
    }

    @Test("a month starting inside a zoomed column starts at a fractional x and is clipped to the horizon")
    func monthInsideZoomedColumn() throws {
        // Column 0 holds Aug 30, Aug 31, Sep 1, Sep 2: September starts on its third day.
        let axis = try axis("2026-08-30", days: 40, zoom: .fourDays)
        let months = axis.monthSections(language: .english)
        #expect(
            months.map(\.period) == [
                .month(year: 2026, month: 8), .month(year: 2026, month: 9), .month(year: 2026, month: 10),
            ])
        #expect(months.map(\.label.full) == ["August 2026", "September 2026", "October 2026"])
        #expect(months.map(\.startX) == [0, 0.5, 8])
        #expect(months.map(\.endX) == [0.5, 8, 10])
        #expect(months[0].isClippedAtStart && !months[0].isClippedAtEnd)
        #expect(!months[1].isClippedAtStart && !months[1].isClippedAtEnd)
        #expect(months[2].isClippedAtEnd)
        #expect(months[2].lastDate == (try CivilDate("2026-10-08")))
        #expect(months[1].width == 7.5)
    }

    @Test("an ISO week starting inside a zoomed column starts at a fractional x")
    func weekInsideZoomedColumn() throws {
        // 2026-08-30 is a Sunday: the week of Monday Aug 31 starts on the column's second day.
        #expect(try CivilDate("2026-08-30").isoWeekday == 7)
        let axis = try axis("2026-08-30", days: 40, zoom: .fourDays)
        let weeks = axis.weekSections(language: .english)
        #expect(weeks[0].period == .isoWeek(weekYear: 2026, week: 35))
        #expect(weeks[0].startX == 0 && weeks[0].endX == 0.25)
        #expect(weeks[0].isClippedAtStart)
        #expect(weeks[1].period == .isoWeek(weekYear: 2026, week: 36))
        #expect(weeks[1].startX == 0.25 && weeks[1].endX == 2)
        #expect(weeks[2].startX == 2 && weeks[2].endX == 3.75)
        #expect(weeks.last?.endX == 10)
        #expect(weeks.last?.isClippedAtEnd == true)
    }

    @Test("sections at six days per column keep exact day boundaries")
    func sixDaySections() throws {
        let axis = try axis("2026-09-08", days: 90, zoom: .sixDays)
        let months = axis.monthSections(language: .english)
        // October starts 23 days after September 8.
        #expect(abs(months[1].startX - 23.0 / 6.0) < 1e-12)
        #expect(axis.column(at: 3).firstDate == (try CivilDate("2026-09-26")))
        #expect(months[1].startX > 3 && months[1].startX < 4)
    }

    @Test("sections cover the horizon without gaps")
    func contiguous() throws {
        let axis = try axis("2026-09-08", days: 200, zoom: .eightDays)
        for sections in [axis.monthSections(language: .english), axis.weekSections(language: .german)] {
            #expect(sections.first?.startX == 0)
            #expect(sections.last?.endX == axis.width)
            #expect(sections.first?.firstDate == axis.horizon.start)
            #expect(sections.last?.lastDate == axis.horizon.lastDate)
            for (left, right) in zip(sections, sections.dropFirst()) {
                #expect(left.endX == right.startX)
                #expect(try left.lastDate.adding(days: 1) == right.firstDate)
            }
        }
        #expect(axis.weekSections(language: .english).dropFirst().allSatisfy { $0.firstDate.isoWeekday == 1 })
        #expect(axis.monthSections(language: .english).dropFirst().allSatisfy { $0.firstDate.day == 1 })
    }

    @Test("German labels use KW and German month names such as März")
    func germanLabels() throws {
        let axis = try axis("2026-02-20", days: 20)
        let months = axis.monthSections(language: .german)
        #expect(months.map(\.label.full) == ["Februar 2026", "März 2026"])
        #expect(months[1].label.variants == ["März 2026", "Mär 2026", "Mär"])
        let weeks = axis.weekSections(language: .german)
        #expect(weeks[0].label.variants == ["KW 8 2026", "KW8 2026", "KW8", "8"])
        #expect(PlanLanguage.german.monthName(5) == "Mai")
        #expect(PlanLanguage.german.monthName(12) == "Dezember")
        #expect(PlanLanguage.german.shortMonthName(10) == "Okt")
        #expect(PlanLanguage.english.monthName(1) == "January")
        #expect(PlanLanguage.german.weekWord == "KW")
        #expect(PlanLanguage.english.weekWord == "Week")
        #expect(PlanLanguage.german.unscheduledLabel == "Nicht geplant")
        #expect(PlanLanguage.english.unscheduledLabel == "Unscheduled")
    }

    @Test("narrow sections fall back to shorter labels")
    func fallbacks() throws {
        let axis = try axis("2026-09-08", days: 10)
        let month = try #require(axis.monthSections(language: .english).first)
        #expect(month.label.variants == ["September 2026", "Sep 2026", "Sep"])
        #expect(month.label.fitting(9) == "Sep 2026")
        #expect(month.label.fitting(4) == "Sep")
        #expect(month.label.fitting(2) == nil)
        let week = try #require(axis.weekSections(language: .english).first)
        #expect(week.label.variants == ["Week 37 2026", "W37 2026", "W37", "37"])
        #expect(week.label.fitting(11) == "W37 2026")
        #expect(week.label.fitting(2) == "37")
    }

    @Test("sections overlapping a column range still span their whole part of the horizon")
    func overlapping() throws {
        let axis = try axis("2026-09-08", days: 90)
        let october = axis.monthSections(language: .english, overlapping: 30..<40)
        #expect(october.map(\.period) == [.month(year: 2026, month: 10)])
        #expect(october[0].firstDate == (try CivilDate("2026-10-01")))
        #expect(october[0].startX == 23 && october[0].endX == 54)
        #expect(axis.monthSections(language: .english, overlapping: 20..<25).count == 2)
        #expect(axis.monthSections(language: .english, overlapping: 95..<99).isEmpty)
        // Column 5 is Sunday Sep 13, the end of the (clipped) first week; column 6 is Monday Sep 14.
        let first = axis.weekSections(language: .english, overlapping: 5..<6)
        #expect(first.count == 1)
        #expect(first[0].firstDate == axis.horizon.start)
        #expect(first[0].isClippedAtStart)
        let second = axis.weekSections(language: .english, overlapping: 6..<7)
        #expect(second.map(\.firstDate) == [try CivilDate("2026-09-14")])
        #expect(axis.weekSections(language: .english, overlapping: 5..<7).count == 2)
    }
}
