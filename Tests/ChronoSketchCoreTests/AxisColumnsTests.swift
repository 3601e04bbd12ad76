import Testing

@testable import ChronoSketchCore

@Suite("Axis columns, zoom and horizon")
struct AxisColumnsTests {
    func axis(_ start: String, days: Int, zoom: TimelineZoom = .oneDay) throws -> TimeAxis {
        TimeAxis(horizon: try ChartHorizon(start: CivilDate(start), days: days), zoom: zoom)
    }

    @Test("zoom levels hold 1, 2, 4, 6 or 8 days and step finer and coarser")
    func zoomLevels() {
        #expect(TimelineZoom.allCases.map(\.daysPerColumn) == [1, 2, 4, 6, 8])
        #expect(TimelineZoom.oneDay.finer == nil)
        #expect(TimelineZoom.oneDay.coarser == .twoDays)
        #expect(TimelineZoom.fourDays.finer == .twoDays)
        #expect(TimelineZoom.fourDays.coarser == .sixDays)
        #expect(TimelineZoom.sixDays.coarser == .eightDays)
        #expect(TimelineZoom.eightDays.coarser == nil)
        #expect(TimelineZoom.eightDays.finer == .sixDays)
        #expect(TimelineZoom.twoDays < .sixDays)
    }

    @Test("a horizon has a positive number of days and an exclusive end")
    func horizon() throws {
        let horizon = try ChartHorizon(start: CivilDate("2026-09-08"), days: 90)
        #expect(horizon.end == (try CivilDate("2026-12-07")))
        #expect(horizon.lastDate == (try CivilDate("2026-12-06")))
        #expect(horizon.contains(try CivilDate("2026-12-06")))
        #expect(!horizon.contains(try CivilDate("2026-12-07")))
        #expect(!horizon.contains(try CivilDate("2026-09-07")))
        #expect(horizon.clamped(try CivilDate("2026-01-01")) == horizon.start)
        #expect(horizon.clamped(try CivilDate("2027-01-01")) == horizon.lastDate)
        #expect(horizon.schedule.days == 90)
        #expect(ChartHorizon(horizon.schedule) == horizon)
    }

    @Test("a horizon rejects zero or negative days and an end past 9999-12-31")
    func horizonErrors() throws {
        let start = try CivilDate("2026-09-08")
        #expect(throws: TaskScheduleError.nonpositiveDays) { try ChartHorizon(start: start, days: 0) }
        #expect(throws: TaskScheduleError.nonpositiveDays) { try ChartHorizon(start: start, days: -3) }
        #expect(throws: TaskScheduleError.outOfRange) { try ChartHorizon(start: CivilDate.latest, days: 1) }
        let last = try ChartHorizon(start: CivilDate("9999-12-30"), days: 1)
        #expect(last.end == CivilDate.latest)
        #expect(try axis("9999-12-01", days: 30, zoom: .eightDays).monthSections(language: .english).count == 1)
    }

    @Test("at one day per column every column is one day labelled with its day of month")
    func oneDayColumns() throws {
        let axis = try axis("2026-09-08", days: 90)
        #expect(axis.columnCount == 90)
        #expect(axis.width == 90)
        let first = axis.column(at: 0)
        #expect(first.firstDate == (try CivilDate("2026-09-08")))
        #expect(first.lastDate == first.firstDate)
        #expect(first.dayCount == 1)
        #expect(first.label.full == "8")
        #expect(first.label.variants == ["8"])
        let october = axis.column(at: 23)
        #expect(october.firstDate == (try CivilDate("2026-10-01")))
        #expect(october.label.full == "1")
        #expect(axis.columns.count == 90)
        #expect(axis.columns.last?.lastDate == axis.horizon.lastDate)
    }

    @Test("zoomed columns label their inclusive day range and the last one is clipped to the horizon")
    func zoomedColumnsClipLast() throws {
        let axis = try axis("2026-09-08", days: 10, zoom: .fourDays)
        #expect(axis.columnCount == 3)
        #expect(axis.width == 2.5)
        let columns = axis.columns
        #expect(columns.map(\.label.full) == ["8–11", "12–15", "16–17"])
        #expect(columns.map(\.dayCount) == [4, 4, 2])
        #expect(columns.map(\.isClipped) == [false, false, true])
        #expect(columns[2].lastDate == (try CivilDate("2026-09-17")))
        #expect(columns[2].lastDate == axis.horizon.lastDate)
        #expect(columns[2].startX == 2)
        #expect(columns[2].endX == 2.5)
        #expect(columns[1].endX == 2)
        #expect(columns[0].label.variants == ["8–11", "8"])
    }

    @Test("a column crossing a month boundary labels days of both months")
    func rangeAcrossMonths() throws {
        let clipped = try axis("2026-11-30", days: 3, zoom: .fourDays)
        #expect(clipped.columnCount == 1)
        #expect(clipped.column(at: 0).label.full == "30–2")
        #expect(clipped.column(at: 0).isClipped)
        let sixDays = try axis("2026-09-27", days: 12, zoom: .sixDays)
        #expect(sixDays.columns.map(\.label.full) == ["27–2", "3–8"])
        #expect(!sixDays.column(at: 1).isClipped)
    }

    @Test("a one-day clipped last column shows a single day")
    func singleDayLastColumn() throws {
        let axis = try axis("2026-09-08", days: 91, zoom: .sixDays)
        #expect(axis.columnCount == 16)
        let last = axis.column(at: 15)
        #expect(last.dayCount == 1)
        #expect(last.label.variants == ["7"])
        #expect(last.firstDate == (try CivilDate("2026-12-07")))
        let exact = try self.axis("2026-09-08", days: 90, zoom: .sixDays)
        #expect(exact.columnCount == 15)
        #expect(!exact.column(at: 14).isClipped)
    }

    @Test("labels pick the longest variant that fits")
    func labelFitting() {
        let label = AxisLabel(["8–11", "8"])
        #expect(label.fitting(10) == "8–11")
        #expect(label.fitting(4) == "8–11")
        #expect(label.fitting(3) == "8")
        #expect(label.fitting(0) == nil)
        #expect(label.shortest == "8")
    }

    @Test("x maps dates to fractional columns, unclamped, with the same day ratio everywhere")
    func xOfDate() throws {
        let axis = try axis("2026-09-08", days: 90, zoom: .fourDays)
        #expect(axis.x(of: try CivilDate("2026-09-08")) == 0)
        #expect(axis.x(of: try CivilDate("2026-09-14")) == 1.5)
        #expect(axis.x(of: try CivilDate("2026-09-07")) == -0.25)
        #expect(axis.x(of: axis.horizon.end) == axis.width)
        #expect(axis.centerX(of: try CivilDate("2026-09-08")) == 0.125)
        #expect(axis.columnIndex(of: try CivilDate("2026-09-14")) == 1)
        #expect(axis.columnIndex(of: try CivilDate("2026-09-07")) == nil)
        #expect(axis.columnIndex(of: axis.horizon.end) == nil)
        #expect(axis.columnIndex(of: axis.horizon.lastDate) == 22)
        #expect(axis.date(atX: 1.5) == (try CivilDate("2026-09-14")))
        #expect(axis.date(atX: 1.6) == (try CivilDate("2026-09-14")))
        #expect(axis.date(atX: -4) == axis.horizon.start)
        #expect(axis.date(atX: 500) == axis.horizon.lastDate)
    }

    @Test("a column range is clamped to the existing columns")
    func columnRange() throws {
        let axis = try axis("2026-09-08", days: 10, zoom: .twoDays)
        #expect(axis.columns(in: 3..<9).map(\.index) == [3, 4])
        #expect(axis.columns(in: -2..<1).map(\.index) == [0])
        #expect(axis.columns(in: 7..<9).isEmpty)
    }
}
