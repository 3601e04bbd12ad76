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
            let dependency = TaskDependency(predecessorID: leaves[min(a, b)], successorID: leaves[max(a, b)])
            if seen.insert(dependency).inserted { dependencies.append(dependency) }
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

    @Test("3,000 random charts: every cell an arrow passes on another row shows nothing; marks stay; heads show")
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
                // The head, left of the successor's bar, shows when it is on screen.
                if window.contains(route.arrow.toRow), route.head >= 0, route.head < limit {
                    let y = top + route.arrow.toRow - scene.firstRow
                    #expect(drawn.character(x: chartX + route.head, y: y) == "▶", "round \(round)")
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
}
