import Testing

@testable import ChronoSketchCore

@Suite("Axis navigation and zoom anchoring")
struct AxisNavigationTests {
    /// 2026-09-08 + 90 days; at one day per column 90 columns.
    func viewport(
        days: Int = 90, zoom: TimelineZoom = .oneDay, visible: Int = 20, date: CivilDate? = nil
    ) throws -> ChartViewport {
        let axis = TimeAxis(horizon: try ChartHorizon(start: CivilDate("2026-09-08"), days: days), zoom: zoom)
        return ChartViewport(axis: axis, visibleColumns: visible, date: date)
    }

    @Test("the initial position is the horizon start, or the given date at the left edge")
    func initialPosition() throws {
        let start = try viewport()
        #expect(start.firstColumn == 0)
        #expect(start.maxFirstColumn == 70)
        #expect(start.visibleColumnRange == 0..<20)
        #expect(try viewport(date: CivilDate("2026-10-08")).firstColumn == 30)
        // 23 columns at four days per column: column 7 (Oct 8) is clamped to the last possible first column.
        #expect(try viewport(zoom: .fourDays, date: CivilDate("2026-10-08")).firstColumn == 3)
        #expect(try viewport(zoom: .twoDays, visible: 10, date: CivilDate("2026-10-08")).firstColumn == 15)
    }

    @Test("Previous and Next move half the chart width and disable at the finite edges")
    func previousNext() throws {
        var viewport = try viewport()
        #expect(!viewport.canMovePrevious && viewport.canMoveNext)
        #expect(viewport.pageStep == 10)
        viewport.movePrevious()
        #expect(viewport.firstColumn == 0)
        viewport.moveNext()
        #expect(viewport.firstColumn == 10)
        #expect(viewport.canMovePrevious && viewport.canMoveNext)
        for _ in 0..<5 { viewport.moveNext() }
        #expect(viewport.firstColumn == 60)
        viewport.scroll(toColumn: 65)
        viewport.moveNext()
        #expect(viewport.firstColumn == 70)
        #expect(viewport.canMovePrevious && !viewport.canMoveNext)
        #expect(viewport.visibleColumnRange == 70..<90)
        viewport.moveNext()
        #expect(viewport.firstColumn == 70)
        viewport.movePrevious()
        #expect(viewport.firstColumn == 60)
        viewport.scroll(toColumn: 5)
        viewport.movePrevious()
        #expect(viewport.firstColumn == 0)
        #expect(!viewport.canMovePrevious)
    }

    @Test("half of an odd or tiny chart width rounds down, but moves at least one column")
    func pageStep() throws {
        #expect(try viewport(visible: 7).pageStep == 3)
        #expect(try viewport(visible: 1).pageStep == 1)
        #expect(try viewport(visible: 0).visibleColumns == 1)
    }

    @Test("Today jumps to today's date, clamped into the horizon and the scroll edges")
    func today() throws {
        var viewport = try viewport()
        viewport.showToday(try CivilDate("2026-09-18"))
        #expect(viewport.firstColumn == 10)
        viewport.showToday(try CivilDate("2026-01-01"))
        #expect(viewport.firstColumn == 0)
        viewport.showToday(try CivilDate("2027-05-01"))
        #expect(viewport.firstColumn == 70)
        viewport.showToday(try CivilDate("2026-12-01"))
        #expect(viewport.firstColumn == 70)
        viewport.show(try CivilDate("2026-11-01"))
        #expect(viewport.firstColumn == 54)
        #expect(viewport.axis.horizon.days == 90)
    }

    @Test("zooming at the left edge keeps the horizon start visible")
    func zoomAtLeftEdge() throws {
        var viewport = try viewport()
        viewport.zoomOut()
        #expect(viewport.axis.zoom == .twoDays)
        #expect(viewport.firstColumn == 0)
        viewport.zoom(to: .sixDays)
        #expect(viewport.firstColumn == 0)
        viewport.zoom(to: .oneDay)
        #expect(viewport.firstColumn == 0)
        // A centre-preserving zoom would have scrolled to column 10 here.
        var wide = try self.viewport(days: 400, zoom: .fourDays)
        #expect(wide.firstColumn == 0)
        wide.zoomIn()
        #expect(wide.axis.zoom == .twoDays)
        #expect(wide.firstColumn == 0)
        #expect(wide.visibleColumnRange.contains(0))
    }

    @Test("zooming after scrolling right keeps the date at the centre of the chart area")
    func zoomKeepsCentre() throws {
        var viewport = try viewport()
        viewport.scroll(toColumn: 40)
        let centre = viewport.centerDate
        #expect(centre == (try CivilDate("2026-10-28")))
        viewport.zoom(to: .twoDays)
        #expect(viewport.firstColumn == 15)
        #expect(viewport.centerDate == centre)
        viewport.zoom(to: .oneDay)
        #expect(viewport.firstColumn == 40)
        #expect(viewport.centerDate == centre)
        var four = try self.viewport(days: 400)
        four.scroll(toColumn: 190)
        let before = four.centerDate
        four.zoom(to: .fourDays)
        #expect(four.firstColumn == 40)
        #expect(four.centerDate == before)
    }

    @Test("a zoom anchored at the centre is clamped to the scroll edges")
    func zoomClamps() throws {
        var right = try viewport()
        right.scroll(toColumn: 70)
        right.zoomOut()
        // The centre (day 80) would put column 30 first; 45 columns allow at most 25.
        #expect(right.axis.columnCount == 45)
        #expect(right.firstColumn == 25)
        #expect(!right.canMoveNext)
        var coarse = try viewport()
        coarse.scroll(toColumn: 40)
        coarse.zoom(to: .eightDays)
        #expect(coarse.firstColumn == 0)
    }

    @Test("a horizon narrower than the viewport stays left-aligned")
    func narrowHorizon() throws {
        var viewport = try viewport(days: 10)
        #expect(viewport.maxFirstColumn == 0)
        #expect(viewport.visibleColumnRange == 0..<10)
        #expect(!viewport.canMovePrevious && !viewport.canMoveNext)
        viewport.moveNext()
        #expect(viewport.firstColumn == 0)
        viewport.showToday(try CivilDate("2026-09-17"))
        #expect(viewport.firstColumn == 0)
        viewport.scroll(toColumn: 4)
        #expect(viewport.firstColumn == 0)
        viewport.zoomOut()
        #expect(viewport.firstColumn == 0)
        #expect(viewport.visibleColumnRange == 0..<5)
    }

    @Test("zoom buttons stop at one and eight days per column")
    func zoomLimits() throws {
        var viewport = try viewport()
        #expect(!viewport.canZoomIn && viewport.canZoomOut)
        viewport.zoomIn()
        #expect(viewport.axis.zoom == .oneDay)
        for _ in 0..<6 { viewport.zoomOut() }
        #expect(viewport.axis.zoom == .eightDays)
        #expect(viewport.canZoomIn && !viewport.canZoomOut)
    }

    @Test("resizing keeps the first column within the new scroll edges")
    func resize() throws {
        var viewport = try viewport()
        viewport.scroll(toColumn: 70)
        viewport.resize(visibleColumns: 30)
        #expect(viewport.firstColumn == 60)
        viewport.resize(visibleColumns: 10)
        #expect(viewport.firstColumn == 60)
        #expect(viewport.pageStep == 5)
    }
}
