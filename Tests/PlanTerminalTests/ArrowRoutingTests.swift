import ChronoSketchCore
import Testing

@testable import PlanTerminal

/// Random valid plans for the property tests (seeded: the same plans on every run).
enum RandomPlans {
    /// `count` tasks: groups (some nested, some empty), activities (scheduled from ten days before
    /// 2026-09-07 to a hundred days after it, or unscheduled) and milestones; dependencies between
    /// random leaves, each from an earlier one to a later one (so there is no cycle).
    static func plan(_ random: inout SplitMix64, count: Int) -> TaskCollection {
        let origin = Sample.date("2026-09-07")
        var tasks: [GanttTask] = []
        var summaries: [String] = []
        var leaves: [String] = []
        for index in 0..<count {
            let id = "t\(index)"
            let parent = Int.random(in: 0..<4, using: &random) == 0 ? nil : summaries.randomElement(using: &random)
            let start = try! origin.adding(days: Int.random(in: -10..<100, using: &random))
            let kind: GanttTaskKind
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1: kind = .summary
            case 2: kind = .milestone(date: start)
            case 3: kind = .activity(schedule: nil, progress: 0)
            default:
                kind = .activity(
                    schedule: try! TaskSchedule(start: start, days: Int.random(in: 1...15, using: &random)),
                    progress: Double(Int.random(in: 0...100, using: &random)))
            }
            tasks.append(try! GanttTask(id: id, title: "Task \(index)", parentID: parent, kind: kind))
            if kind.isSummary { summaries.append(id) } else { leaves.append(id) }
        }
        var dependencies: [TaskDependency] = []
        var seen = Set<TaskDependency>()
        for _ in 0..<(leaves.count < 2 ? 0 : Int.random(in: 0...count, using: &random)) {
            let a = Int.random(in: 0..<leaves.count, using: &random)
            let b = Int.random(in: 0..<leaves.count, using: &random)
            guard a != b else { continue }
            // Half of them plain; the others of any type, with a lag of −3…3 working days.
            let typed = Bool.random(using: &random)
            let dependency = TaskDependency(
                predecessorID: leaves[min(a, b)], successorID: leaves[max(a, b)],
                type: typed ? DependencyType.allCases.randomElement(using: &random)! : .finishToStart,
                lag: typed ? Int.random(in: -3...3, using: &random) : 0)
            guard !seen.contains(where: { $0.pair == dependency.pair }) else { continue }
            seen.insert(dependency)
            dependencies.append(dependency)
        }
        return try! TaskCollection(tasks, dependencies: dependencies)
    }

    /// Some of the plan's summaries.
    static func collapsed(_ random: inout SplitMix64, in collection: TaskCollection) -> Set<String> {
        Set(collection.tasks.filter { $0.kind.isSummary && Int.random(in: 0..<4, using: &random) == 0 }.map(\.id))
    }
}

@Suite("Dependency arrows never cross another row's bar, diamond or label")
struct ArrowRoutingTests {
    /// One random chart: a plan, collapsed groups, a language, a zoom, a horizon, a scroll
    /// position and a window of rows.
    struct Scene {
        let rows: [TaskRow]
        let dependencies: [TaskDependency]
        let renderer: ChartRenderer
        let viewport: ChartViewport
        let firstRow: Int
        let height: Int

        init(_ random: inout SplitMix64) {
            let collection = RandomPlans.plan(&random, count: Int.random(in: 2...40, using: &random))
            rows = collection.rows(collapsed: RandomPlans.collapsed(&random, in: collection))
            dependencies = collection.dependencies
            let language: PlanLanguage = Bool.random(using: &random) ? .german : .english
            renderer = ChartRenderer(language: language, nameWidth: 12)
            let zoom = TimelineZoom.allCases.randomElement(using: &random)!
            let horizon = try! ChartHorizon(
                start: Sample.date("2026-09-07"), days: Int.random(in: 10...120, using: &random))
            var viewport = ChartViewport(
                axis: TimeAxis(horizon: horizon, zoom: zoom), visibleColumns: Int.random(in: 3...40, using: &random))
            viewport.scroll(toColumn: Int.random(in: 0...viewport.maxFirstColumn, using: &random))
            self.viewport = viewport
            firstRow = Int.random(in: 0..<max(rows.count, 1), using: &random)
            height = ChartRenderer.headerHeight + Int.random(in: 1...25, using: &random)
        }

        func canvas(arrows: Bool) -> TextCanvas {
            var canvas = TextCanvas(width: 13 + viewport.visibleColumns * 6, height: height)
            renderer.draw(
                rows: rows, dependencies: arrows ? dependencies : [], viewport: viewport, into: &canvas,
                height: height, firstRow: firstRow)
            return canvas
        }

        var window: Range<Int> { firstRow..<min(firstRow + height - ChartRenderer.headerHeight, rows.count) }
    }

    @Test(
        "3,000 random charts, dependencies of every type: every cell an arrow passes on another row shows nothing; marks stay; heads show"
    )
    func property() {
        var random = SplitMix64(seed: 17)
        var routed = 0
        for round in 0..<3000 {
            let scene = Scene(&random)
            let bare = scene.canvas(arrows: false)
            let drawn = scene.canvas(arrows: true)
            let limit = ChartGeometry(viewport: scene.viewport).limit
            let window = scene.window
            let chartX = 13
            let top = ChartRenderer.headerHeight
            // Marks (bars, diamonds, labels) are never drawn over.
            for y in top..<scene.height {
                for x in chartX..<bare.width where bare.character(x: x, y: y) != " " {
                    #expect(drawn.character(x: x, y: y) == bare.character(x: x, y: y), "round \(round)")
                }
            }
            let arrows = scene.viewport.axis.dependencyArrows(rows: scene.rows, dependencies: scene.dependencies)
            let routes = scene.renderer.routes(
                window: Array(scene.rows[window]), firstRow: scene.firstRow, arrows: arrows,
                viewport: scene.viewport, height: scene.height)
            for route in routes {
                routed += 1
                let own = [route.arrow.fromRow, route.arrow.toRow]
                for (row, cell) in route.cells
                where window.contains(row) && !own.contains(row) && cell >= 0 && cell < limit {
                    let y = top + row - scene.firstRow
                    #expect(
                        bare.character(x: chartX + cell, y: y) == " ",
                        "round \(round): \(route.arrow.dependency) crosses row \(row) at cell \(cell)")
                }
                // The head, left of the successor's start (right of its end), shows when it is on
                // screen (unless a bar ending at the chart's left edge, drawn one cell wide, hides it).
                if window.contains(route.arrow.toRow), route.head >= 0, route.head < limit {
                    let y = top + route.arrow.toRow - scene.firstRow
                    if bare.character(x: chartX + route.head, y: y) == " " {
                        #expect(
                            drawn.character(x: chartX + route.head, y: y) == (route.arrow.toEnd ? "◀" : "▶"),
                            "round \(round)")
                    }
                }
            }
        }
        #expect(routed > 3000)
    }

    @Test("the German demo chart: the arrow from Spec to Build no longer runs under “Nicht geplant” or Implementation")
    func germanDemo() throws {
        let renderer = ChartRenderer(language: .german, nameWidth: 20)
        let rows = Sample.collection.rows()
        let viewport = ChartViewport(
            axis: TimeAxis(horizon: try ChartHorizon(start: Sample.date("2026-09-07"), days: 30)),
            visibleColumns: 30)
        let arrows = viewport.axis.dependencyArrows(rows: rows, dependencies: Sample.dependencies)
        let routes = renderer.routes(window: rows, firstRow: 0, arrows: arrows, viewport: viewport, height: 9)
        let spec = try #require(routes.first { $0.arrow.dependency.predecessorID == "spec" })
        let marks = rows.map { viewport.axis.mark(for: $0, language: .german) }
        let geometry = ChartGeometry(viewport: viewport)
        for (row, cell) in spec.cells where row == 2 || row == 3 {  // Review, Implementation
            #expect(!geometry.occupied(by: marks[row]).contains(cell), "row \(row), cell \(cell)")
        }
    }

    @Test(
        "typed and lagged arrows are labelled beside their successor, in either language; ends are met from the right")
    func typedArrowLabels() throws {
        let collection = try TaskCollection(
            [
                try GanttTask(
                    id: "a", title: "A",
                    kind: .activity(schedule: try TaskSchedule(start: Sample.date("2026-09-08"), days: 3), progress: 0)),
                try GanttTask(
                    id: "b", title: "B",
                    kind: .activity(schedule: try TaskSchedule(start: Sample.date("2026-09-12"), days: 3), progress: 0)),
                try GanttTask(
                    id: "c", title: "C",
                    kind: .activity(schedule: try TaskSchedule(start: Sample.date("2026-09-09"), days: 5), progress: 0)),
            ],
            dependencies: [
                TaskDependency(predecessorID: "a", successorID: "b", type: .startToStart, lag: 2),
                TaskDependency(predecessorID: "a", successorID: "c", type: .finishToFinish, lag: 0),
            ])
        let horizon = try ChartHorizon(start: Sample.date("2026-09-07"), days: 16)
        for (language, labels) in [(PlanLanguage.english, ["SS +2", "FF"]), (.german, ["AA +2", "EE"])] {
            let text = ChartRenderer(language: language, nameWidth: 8).text(
                rows: collection.rows(), dependencies: collection.dependencies, horizon: horizon, zoom: .oneDay)
            let lines = text.split(separator: "\n").map(String.init)
            let (b, c) = (lines[4], lines[5])
            #expect(b.contains(labels[0]), "\(text)")
            #expect(c.contains(labels[1]) && c.contains("◀"), "\(text)")
            // The head meets C's end from the right: right after its last bar cell.
            #expect(c.contains("░◀"), "\(text)")
        }
    }
}
