import ChronoSketchCore
import PlanTestSupport
import Testing

@testable import PlanTerminal

@Suite("Resources view: seed 003's query rules")
struct ResourceQueryPlannerTests {
    static let ids = (1...20).map { "r\($0)" }

    func viewport(zoom: TimelineZoom = .oneDay, days: Int = 90, columns: Int = 20, first: Int = 0) throws
        -> ChartViewport
    {
        let horizon = try ChartHorizon(start: Sample.date("2026-09-07"), days: days)
        var viewport = ChartViewport(axis: TimeAxis(horizon: horizon, zoom: zoom), visibleColumns: columns)
        viewport.scroll(toColumn: first)
        return viewport
    }

    func query(_ start: String, _ end: String, _ ids: [String] = ["r1"]) throws -> TimelineQuery {
        try TimelineQuery(start: LocalDateTime(start), end: LocalDateTime(end), resourceIDs: ids)
    }

    @Test("three resource rows of buffer before and after the visible ones; collapsed resources left out")
    func rows() throws {
        let view = try viewport()
        let middle = try #require(
            ResourceQueryPlanner.query(resourceIDs: Self.ids, collapsed: [], visibleRows: 5..<10, viewport: view))
        #expect(middle.resourceIDs == Array(Self.ids[2..<13]))
        let top = try #require(
            ResourceQueryPlanner.query(resourceIDs: Self.ids, collapsed: ["r2"], visibleRows: 0..<4, viewport: view))
        #expect(top.resourceIDs == ["r1", "r3", "r4", "r5", "r6", "r7"])
        #expect(
            ResourceQueryPlanner.query(resourceIDs: ["r1"], collapsed: ["r1"], visibleRows: 0..<1, viewport: view)
                == nil)
        #expect(ResourceQueryPlanner.query(resourceIDs: [], collapsed: [], visibleRows: 0..<0, viewport: view) == nil)
    }

    @Test("two columns beyond each edge, clipped to the horizon")
    func columns() throws {
        // Columns 10..<30 visible at one day a column: 2026-09-15 ..< 2026-10-09.
        let inside = try #require(
            ResourceQueryPlanner.query(
                resourceIDs: ["r1"], collapsed: [], visibleRows: 0..<1, viewport: try viewport(first: 10)))
        #expect(inside == (try query("2026-09-15T00:00", "2026-10-09T00:00")))
        let atStart = try #require(
            ResourceQueryPlanner.query(resourceIDs: ["r1"], collapsed: [], visibleRows: 0..<1, viewport: try viewport())
        )
        #expect(atStart == (try query("2026-09-07T00:00", "2026-09-29T00:00")))
        let atEnd = try #require(
            ResourceQueryPlanner.query(
                resourceIDs: ["r1"], collapsed: [], visibleRows: 0..<1, viewport: try viewport(first: 70)))
        #expect(atEnd.end == LocalDateTime(startOf: Sample.date("2026-12-06")))
        #expect(atEnd.start == LocalDateTime(startOf: Sample.date("2026-11-14")))
    }

    @Test("no query exceeds 400 days, whatever the zoom, the horizon and the number of columns")
    func limit() throws {
        for zoom in TimelineZoom.allCases {
            for days in [1, 30, 398, 400, 401, 1000, 36_500] {
                for columns in [1, 10, 48, 50, 51, 120, 400] {
                    let view = try viewport(zoom: zoom, days: days, columns: columns, first: 3)
                    let query = try #require(
                        ResourceQueryPlanner.query(
                            resourceIDs: ["r1"], collapsed: [], visibleRows: 0..<1, viewport: view))
                    #expect(query.start.minutes(to: query.end) <= 400 * 1440)
                    let first = view.axis.column(at: view.visibleColumnRange.lowerBound).firstDate
                    #expect(query.start <= LocalDateTime(startOf: first))
                }
            }
            // The view never shows more columns than one query loads.
            let most = ResourceQueryPlanner.maximumVisibleColumns(zoom: zoom)
            #expect(most * zoom.daysPerColumn <= 400)
            let view = try viewport(zoom: zoom, days: 36_500, columns: most)
            let query = try #require(
                ResourceQueryPlanner.query(resourceIDs: ["r1"], collapsed: [], visibleRows: 0..<1, viewport: view))
            let last = view.axis.column(at: view.visibleColumnRange.upperBound - 1).lastDate
            #expect(query.end >= LocalDateTime(startOf: try last.adding(days: 1)))
        }
    }

    @Test("changes are coalesced: only the last query is sent, after 80 ms; an equal one is not sent again")
    func coalescing() throws {
        var planner = ResourceQueryPlanner(idPrefix: "x")
        let first = try query("2026-09-07T00:00", "2026-09-20T00:00")
        let second = try query("2026-09-08T00:00", "2026-09-21T00:00")
        #expect(planner.want(first) == [.wake(afterMilliseconds: 80, token: 1)])
        #expect(planner.want(first) == [])
        #expect(planner.want(second) == [.wake(afterMilliseconds: 80, token: 2)])
        #expect(planner.wake(token: 1) == [])  // superseded
        #expect(planner.wake(token: 2) == [.watch(second, id: "w-x-1")])
        #expect(planner.state == .loading)
        #expect(planner.want(second) == [])
        #expect(planner.wake(token: 2) == [])
        // Away and back to the watched query before the delay passed: nothing is sent.
        #expect(planner.want(first) == [.wake(afterMilliseconds: 80, token: 3)])
        #expect(planner.want(second) == [])
        #expect(planner.wake(token: 3) == [])
        // A new query replaces the watch; hiding the view ends it.
        _ = planner.want(first)
        #expect(planner.wake(token: 4) == [.unwatch(id: "w-x-1"), .watch(first, id: "w-x-2")])
        #expect(planner.want(nil) == [.unwatch(id: "w-x-2")])
        #expect(planner.watched == nil)
        #expect(planner.state == .idle)
    }

    @Test("pages are validated as a whole before they are applied; failures wait for Retry")
    func validation() throws {
        var planner = ResourceQueryPlanner(idPrefix: "x")
        let asked = try query("2026-09-07T00:00", "2026-09-20T00:00", ["r1", "r2"])
        _ = planner.want(asked)
        _ = planner.wake(token: 1)
        let entry = try TimelineEntry(
            id: "e", title: "E", start: LocalDateTime("2026-09-08T09:00"), end: LocalDateTime("2026-09-08T10:00"))
        let good = TimelinePage(
            entries: [entry], assignments: [try TimelineAssignment(id: "a", entryID: "e", resourceID: "r1")])
        #expect(planner.receive(watch: "w-x-0", page: good) == nil)  // an older watch's page
        #expect(planner.state == .loading)
        #expect(planner.receive(watch: "w-x-1", page: good) == asked)
        #expect(planner.state == .idle)
        // A later page naming a resource not asked for is refused whole.
        let bad = TimelinePage(
            entries: [entry],
            assignments: [
                try TimelineAssignment(id: "a", entryID: "e", resourceID: "r1"),
                try TimelineAssignment(id: "b", entryID: "e", resourceID: "r9"),
            ])
        #expect(planner.receive(watch: "w-x-1", page: bad) == nil)
        guard case .failed(let reason) = planner.state else {
            Issue.record("not failed: \(planner.state)")
            return
        }
        #expect(reason.contains("r9"))
        #expect(planner.pageError == .unrequestedResource(assignmentID: "b", resourceID: "r9"))
        // No automatic retry; an equal query stays unsent; Retry sends it again.
        #expect(planner.want(asked) == [])
        #expect(planner.retry() == [.unwatch(id: "w-x-1"), .watch(asked, id: "w-x-2")])
        #expect(planner.state == .loading)
        #expect(planner.pageError == nil)
        planner.refused("badQuery: too long")
        #expect(planner.state == .failed(reason: "badQuery: too long"))
        planner.refused("ignored once failed")
        #expect(planner.state == .failed(reason: "badQuery: too long"))
    }

    @Test("why a page was refused reads in German too, naming the ids")
    func pageProblems() {
        let german = TerminalStrings(.german)
        let cases: [(TimelinePageError, String)] = [
            (.duplicateID(kind: .entry, id: "e"), "die Seite enthält den Eintrag „e“ zweimal"),
            (.entryOutsideQuery(entryID: "e"), "Eintrag „e“ liegt nicht im abgefragten Zeitraum"),
            (
                .unknownEntry(assignmentID: "a", entryID: "e"),
                "Zuordnung „a“ nennt Eintrag „e“, den die Seite nicht enthält"
            ),
            (
                .unrequestedResource(assignmentID: "a", resourceID: "r9"),
                "Zuordnung „a“ nennt Ressource „r9“, die nicht abgefragt wurde"
            ),
        ]
        for (error, text) in cases {
            #expect(german.pageProblem(error) == text)
            #expect(TerminalStrings(.english).pageProblem(error) == error.description)
        }
    }
}
