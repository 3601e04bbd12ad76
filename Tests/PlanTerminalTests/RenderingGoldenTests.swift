import ChronoSketchCore
import PlanProtocol
import Testing

@testable import PlanTerminal

@Suite("List and chart rendering (golden text)")
struct RenderingGoldenTests {
    let horizon = try! ChartHorizon(start: Sample.date("2026-09-07"), days: 30)

    @Test("plan show names each task's predecessors, in both languages")
    func show() {
        expectGolden(CommandSession.showText(Sample.copy(), language: .english), "show-en")
        expectGolden(CommandSession.showText(Sample.copy(), language: .german), "show-de")
        let text = CommandSession.showText(Sample.copy(), language: .english)
        #expect(text.split(separator: "\n").first { $0.contains("Build") }?.hasSuffix("  Spec") == true)
        #expect(text.split(separator: "\n").first { $0.contains("Release") }?.hasSuffix("  Build") == true)
        // With the server's figures: a slack column before the predecessors, critical tasks marked.
        let figures = ScheduleFigures(Sample.collection, time: WorkingTime(.allDaysWorking))
        let answer = ScheduleAnswer(plan: "demo", version: 3, figures: figures, ids: nil)
        let withSlack = CommandSession.showText(Sample.copy(), language: .german, schedule: answer)
        let lines = withSlack.split(separator: "\n").map(String.init)
        #expect(lines[1].hasSuffix("Puffer          Vorgänger"), "\(lines[1])")
        let release = figures["release"]!
        #expect(release.critical)
        #expect(lines.first { $0.contains("Release") }?.hasSuffix("\(release.slack) kritisch      Build") == true)
        #expect(lines.first { $0.contains("Review") }?.hasSuffix("0 %") == true, "unscheduled: no slack")
    }

    @Test("list in English and German, expanded and collapsed")
    func list() {
        let rows = Sample.collection.rows()
        expectGolden(ListRenderer(language: .english).text(rows: rows), "list-en")
        expectGolden(ListRenderer(language: .german).text(rows: rows), "list-de")
        let collapsed = Sample.collection.rows(collapsed: ["design"])
        expectGolden(ListRenderer(language: .english).text(rows: collapsed), "list-en-collapsed")
    }

    @Test("chart at every zoom, English and German")
    func chartZooms() {
        let rows = Sample.collection.rows()
        for zoom in TimelineZoom.allCases {
            expectGolden(
                ChartRenderer(language: .english, nameWidth: 20).text(
                    rows: rows, dependencies: Sample.dependencies, horizon: horizon, zoom: zoom),
                "chart-en-zoom\(zoom.daysPerColumn)")
        }
        for zoom in TimelineZoom.allCases {
            expectGolden(
                ChartRenderer(language: .german, nameWidth: 20).text(
                    rows: rows, dependencies: Sample.dependencies, horizon: horizon, zoom: zoom),
                "chart-de-zoom\(zoom.daysPerColumn)")
        }
    }

    @Test("collapsing a group hides its rows and their arrows")
    func chartCollapsed() {
        expectGolden(
            ChartRenderer(language: .english, nameWidth: 20).text(
                rows: Sample.collection.rows(collapsed: ["impl"]), dependencies: Sample.dependencies,
                horizon: horizon, zoom: .oneDay),
            "chart-en-collapsed")
        // German, with the group of the first arrow's predecessor collapsed: that arrow goes too.
        expectGolden(
            ChartRenderer(language: .german, nameWidth: 20).text(
                rows: Sample.collection.rows(collapsed: ["design"]), dependencies: Sample.dependencies,
                horizon: horizon, zoom: .oneDay),
            "chart-de-collapsed")
        expectGolden(
            ListRenderer(language: .german).text(rows: Sample.collection.rows(collapsed: ["design", "impl"])),
            "list-de-collapsed")
    }

    @Test("ISO week-year at the turn of 2020/2021, both languages")
    func weekYearTurn() {
        let turn = try! ChartHorizon(start: Sample.date("2020-12-21"), days: 28)
        for (language, name) in [(PlanLanguage.english, "en"), (.german, "de")] {
            expectGolden(
                ChartRenderer(language: language, nameWidth: 16).text(
                    rows: Sample.turnCollection.rows(), dependencies: Sample.turnCollection.dependencies,
                    horizon: turn, zoom: .oneDay),
                "chart-\(name)-week-year")
        }
        expectGolden(
            ChartRenderer(language: .german, nameWidth: 16).text(
                rows: Sample.turnCollection.rows(), dependencies: Sample.turnCollection.dependencies,
                horizon: turn, zoom: .fourDays),
            "chart-de-week-year-zoom4")
    }

    @Test("ISO week-year at the turn of 2025/2026: 2025-12-29 is in week 1 of 2026, both languages")
    func weekYearTurnForward() {
        let turn = try! ChartHorizon(start: Sample.date("2025-12-22"), days: 21)
        for (language, name) in [(PlanLanguage.english, "en"), (.german, "de")] {
            expectGolden(
                ChartRenderer(language: language, nameWidth: 16).text(
                    rows: Sample.forwardTurnCollection.rows(),
                    dependencies: Sample.forwardTurnCollection.dependencies, horizon: turn, zoom: .oneDay),
                "chart-\(name)-week-year-2026")
        }
        expectGolden(
            ChartRenderer(language: .english, nameWidth: 16).text(
                rows: Sample.forwardTurnCollection.rows(), dependencies: Sample.forwardTurnCollection.dependencies,
                horizon: turn, zoom: .sixDays),
            "chart-en-week-year-2026-zoom6")
    }

    @Test("bars are clipped at the horizon; tasks outside it keep their names")
    func clipping() {
        // Starts inside the build, ends before the release; the last 4-day column is clipped.
        let clipped = try! ChartHorizon(start: Sample.date("2026-09-14"), days: 10)
        expectGolden(
            ChartRenderer(language: .english, nameWidth: 20).text(
                rows: Sample.collection.rows(), dependencies: Sample.dependencies, horizon: clipped, zoom: .fourDays),
            "chart-en-clipped")
        expectGolden(
            ChartRenderer(language: .english, nameWidth: 20).text(
                rows: Sample.collection.rows(), dependencies: Sample.dependencies, horizon: clipped, zoom: .oneDay),
            "chart-en-clipped-zoom1")
    }

    @Test("a width limit shows the first columns only")
    func width() {
        expectGolden(
            ChartRenderer(language: .english, nameWidth: 20).text(
                rows: Sample.collection.rows(), dependencies: Sample.dependencies, horizon: horizon, zoom: .oneDay,
                width: 60),
            "chart-en-width60")
    }

    @Test("an arrow to a successor starting on or before its predecessor's end turns on a free row")
    func overlappingArrows() {
        expectGolden(
            ChartRenderer(language: .english, nameWidth: 12).text(
                rows: Sample.overlapCollection.rows(), dependencies: Sample.overlapCollection.dependencies,
                horizon: try! ChartHorizon(start: Sample.date("2026-09-07"), days: 21), zoom: .oneDay),
            "chart-en-overlap")
    }
}
