import ChronoSketchCore
import Testing

@testable import PlanTerminal

@Suite("plan chart written in bands of rows: the same text as the whole canvas")
struct ChartBandTests {
    /// The chart of `rows` drawn on one canvas of every row: the interactive client's drawing.
    static func wholeCanvas(
        _ renderer: ChartRenderer, rows: [TaskRow], dependencies: [TaskDependency], horizon: ChartHorizon,
        zoom: TimelineZoom, width: Int?, baseline: [String: TaskRow]?
    ) -> String {
        let axis = TimeAxis(horizon: horizon, zoom: zoom)
        let columns = width.map { renderer.visibleColumns(forWidth: $0, zoom: zoom) } ?? axis.columnCount
        let viewport = ChartViewport(axis: axis, visibleColumns: min(columns, axis.columnCount))
        let height = ChartRenderer.headerHeight + rows.count
        var canvas = TextCanvas(
            width: renderer.nameWidth + 1 + viewport.visibleColumns * ChartRenderer.cellsPerColumn(zoom),
            height: height)
        renderer.draw(
            rows: rows, dependencies: dependencies, viewport: viewport, into: &canvas, height: height,
            baseline: baseline)
        return canvas.text
    }

    @Test(
        "1,500 random plans, bands of 1 to 7 rows: every band's text joined equals the whole chart, arrows crossing many band edges"
    )
    func bandsEqualWholeCanvas() {
        var random = SplitMix64(seed: 31)
        var crossing = 0
        var labelled = 0
        for round in 0..<1500 {
            let collection = RandomPlans.plan(&random, count: Int.random(in: 2...60, using: &random))
            let rows = collection.rows(collapsed: RandomPlans.collapsed(&random, in: collection))
            let renderer = ChartRenderer(
                language: Bool.random(using: &random) ? .german : .english,
                nameWidth: Int.random(in: 8...20, using: &random))
            let zoom = TimelineZoom.allCases.randomElement(using: &random)!
            let horizon = try! ChartHorizon(
                start: Sample.date("2026-09-07"), days: Int.random(in: 10...120, using: &random))
            let width: Int? = Bool.random(using: &random) ? nil : Int.random(in: 30...200, using: &random)
            // Sometimes a baseline: another random plan's rows, by the same ids ("t0", "t1", …).
            let baseline: [String: TaskRow]? =
                Int.random(in: 0..<3, using: &random) == 0
                ? Dictionary(
                    RandomPlans.plan(&random, count: 60).rows().map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
                : nil
            let band = Int.random(in: 1...7, using: &random)
            let whole = Self.wholeCanvas(
                renderer, rows: rows, dependencies: collection.dependencies, horizon: horizon, zoom: zoom, width: width,
                baseline: baseline)
            var pieces: [String] = []
            renderer.writeText(
                rows: rows, dependencies: collection.dependencies, horizon: horizon, zoom: zoom, width: width,
                baseline: baseline, bandRows: band
            ) { pieces.append($0) }
            #expect(pieces.joined() == whole, "round \(round), bands of \(band)")
            #expect(pieces.count == max((rows.count + band - 1) / band, 1), "round \(round)")
            let arrows = TimeAxis(horizon: horizon, zoom: zoom).dependencyArrows(
                rows: rows, dependencies: collection.dependencies)
            crossing += arrows.filter { $0.fromRow / band != $0.toRow / band }.count
            labelled += arrows.filter { $0.dependency.type != .finishToStart || $0.dependency.lag != 0 }.count
        }
        #expect(crossing > 5000, "arrows between rows of different bands: \(crossing)")
        #expect(labelled > 1000)
    }

    @Test("the default band: a chart longer than one band is handed over in pieces, the same text as the whole")
    func defaultBand() {
        var random = SplitMix64(seed: 8)
        let collection = RandomPlans.plan(&random, count: 1300)
        let rows = collection.rows()
        let renderer = ChartRenderer(language: .english)
        let horizon = try! ChartHorizon(start: Sample.date("2026-09-07"), days: 60)
        var pieces: [String] = []
        renderer.writeText(rows: rows, dependencies: collection.dependencies, horizon: horizon, zoom: .oneDay) {
            pieces.append($0)
        }
        #expect(pieces.count == 3)
        #expect(pieces[0].split(separator: "\n").count == ChartRenderer.headerHeight + ChartRenderer.textBandRows)
        let whole = Self.wholeCanvas(
            renderer, rows: rows, dependencies: collection.dependencies, horizon: horizon, zoom: .oneDay, width: nil,
            baseline: nil)
        #expect(pieces.joined() == whole)
        #expect(whole.contains("▶") && whole.contains("│"))
    }

    @Test(
        "2,000 random canvases of spaces, wide, combining, flag and prepended-mark clusters: each row's text is its clusters' string with trailing spaces trimmed"
    )
    func canvasText() {
        var random = SplitMix64(seed: 5)
        // Prepended marks (U+0600) take the cluster after them: a lone one takes a space.
        let pool: [Character] = [" ", " ", " ", "a", "│", "█", "計", "🌐", "e\u{301}", "🇩🇪", "\u{600}", "\u{600}1", "◆"]
            .compactMap { (text: String) in text.count == 1 ? Character(text) : nil }
        for round in 0..<2000 {
            var canvas = TextCanvas(
                width: Int.random(in: 1...12, using: &random), height: Int.random(in: 1...4, using: &random))
            var other = TextCanvas(width: Int.random(in: 1...8, using: &random), height: 2)
            for _ in 0..<Int.random(in: 0...30, using: &random) {
                let character = pool.randomElement(using: &random)!
                let (x, y) = (Int.random(in: -1...12, using: &random), Int.random(in: -1...4, using: &random))
                if Bool.random(using: &random) {
                    canvas.set(character, x: x, y: y)
                } else {
                    other.set(character, x: x % 8, y: y % 2)
                }
            }
            canvas.draw(other, x: Int.random(in: -3...6, using: &random), y: Int.random(in: -1...3, using: &random))
            let expected = (0..<canvas.height).map { row in
                var line = String(
                    (0..<canvas.width).map { canvas.character(x: $0, y: row) }.filter { $0 != TextCanvas.continuation })
                while line.last == " " { line.removeLast() }
                return line
            }
            #expect(canvas.lines == expected, "round \(round)")
            #expect(canvas.text == expected.map { $0 + "\n" }.joined(), "round \(round)")
        }
    }
}
