import ChronoSketchCore
import PlanProtocol
import PlanTestSupport
import Testing

@testable import PlanTerminal

@Suite("Terminal: rows and arrows kept per view, built for what is shown")
struct TaskOutlineTests {
    @Test("collapsing and expanding in place gives what rows(collapsed:) gives, on random plans")
    func outlineFollowsCollapsing() {
        var random = SplitMix64(seed: 5)
        for round in 0..<200 {
            let collection = RandomPlans.plan(&random, count: Int.random(in: 1...60, using: &random))
            var outline = TaskOutline(collection, collapsed: RandomPlans.collapsed(&random, in: collection))
            let summaries = collection.tasks.filter(\.kind.isSummary).map(\.id)
            for step in 0..<20 {
                #expect(
                    outline.allRows(in: collection) == collection.rows(collapsed: outline.collapsed), "\(round)/\(step)"
                )
                for index in 0..<outline.count {
                    #expect(outline.index(ofPosition: outline.position(at: index)) == index)
                }
                let shown = Set((0..<outline.count).map(outline.position(at:)))
                for position in collection.tasks.indices where !shown.contains(position) {
                    #expect(outline.index(ofPosition: position) == nil)
                }
                guard let id = summaries.randomElement(using: &random) else { break }
                outline.setCollapsed(id, !outline.collapsed.contains(id), in: collection)
            }
        }
    }

    @Test("the arrows of a window are those of every row that touch it, with the same endpoints")
    func windowArrows() {
        var random = SplitMix64(seed: 6)
        let axis = TimeAxis(horizon: try! ChartHorizon(start: Sample.date("2026-09-07"), days: 90))
        for round in 0..<300 {
            let collection = RandomPlans.plan(&random, count: Int.random(in: 2...60, using: &random))
            let collapsed = RandomPlans.collapsed(&random, in: collection)
            var views = TaskViews()
            for id in collapsed { views.setCollapsed(id, true, in: .timeline, of: TaskCollection()) }
            views.rebuild(collection)
            let outline = views.outline(.timeline)
            #expect(outline.collapsed == collapsed)
            let rows = collection.rows(collapsed: collapsed)
            let lower = Int.random(in: 0..<max(rows.count, 1), using: &random)
            let window = lower..<min(lower + Int.random(in: 1...15, using: &random), rows.count)
            let expected = axis.dependencyArrows(rows: rows, dependencies: collection.dependencies).filter {
                min($0.fromRow, $0.toRow) < window.upperBound && max($0.fromRow, $0.toRow) >= window.lowerBound
            }
            #expect(views.arrows(of: outline, touching: window, in: collection, axis: axis) == expected, "\(round)")
        }
    }

    @Test(
        "after random confirmed changes (applied in place, or as whole copies) the model's copy and collection are the server's, and each view shows what its own collapsed groups leave"
    )
    func modelFollowsCopy() throws {
        var random = SplitMix64(seed: 9)
        var state = PlanState(tasks: RandomPlans.plan(&random, count: 30))
        var copy = ClientPlanCopy(
            PlanSnapshot(plan: "demo", version: 0, document: PlanDocument(title: "P", state: state)))
        var model = ClientModel(settings: ClientModelTests.settings)
        _ = model.handle(.resize(width: 100, height: 20))
        _ = model.handle(.copy(copy))
        var version = 0
        for step in 0..<300 {
            let tasks = state.tasks.tasks
            let task = tasks[Int.random(in: 0..<tasks.count, using: &random)]
            let groups = tasks.filter(\.kind.isSummary).map(\.id)
            if Int.random(in: 0..<3, using: &random) == 0 {
                // A key: collapse or expand a group in the view shown, or switch views.
                if Bool.random(using: &random) {
                    _ = model.handle(.key(.tab))
                    if model.mode == .resources { _ = model.handle(.key(.tab)) }
                    if model.mode == .history { _ = model.handle(.key(.tab)) }
                } else {
                    _ = model.handle(.key(.down))
                    _ = model.handle(.key(.character(" ")))
                }
            } else {
                let operation: PlanOperation
                switch Int.random(in: 0..<5, using: &random) {
                case 0:
                    operation = .add(
                        try GanttTask(
                            id: "n\(step)", title: "N", parentID: groups.randomElement(using: &random),
                            kind: Bool.random(using: &random) ? .summary : .activity(schedule: nil, progress: 5)))
                case 1:
                    operation = .replace(
                        previous: task, proposed: task.with(parentID: groups.randomElement(using: &random)))
                case 2: operation = .remove(previous: task)
                case 3 where !task.kind.isSummary:
                    let others = tasks.filter { !$0.kind.isSummary && $0.id != task.id }
                    guard let other = others.randomElement(using: &random) else { continue }
                    let dependency = TaskDependency(predecessorID: task.id, successorID: other.id)
                    operation = state.tasks.contains(dependency) ? .unlink(dependency) : .link(dependency)
                default: operation = .replace(previous: task, proposed: task.with(title: "T\(step)"))
                }
                guard let change = try? state.apply(operation), !change.isNoop else { continue }
                version += 1
                let changes = PlanChanges(after: state, change: change)
                try copy.apply(version: version, changes: changes)
                // As the adapter delivers them: a confirmed (applied to the model's own copy),
                // sometimes a whole copy instead (a resume).
                if Int.random(in: 0..<4, using: &random) == 0 {
                    _ = model.handle(.copy(copy))
                } else {
                    let confirmed = ServerMessage.confirmed(
                        plan: "demo", version: version, mutationID: "m\(step)", user: "u", changes: changes)
                    _ = model.handle(.server(confirmed))
                }
            }
            let fresh = try TaskCollection(copy.tasks, dependencies: copy.dependencies)
            #expect(model.copy == copy, "step \(step)")
            #expect(model.collection == fresh, "step \(step)")
            #expect(model.collection?.summaries == fresh.summaries, "step \(step)")
            for view in [ViewMode.list, .timeline] {
                let outline = model.taskViews.outline(view)
                #expect(outline.allRows(in: fresh) == fresh.rows(collapsed: outline.collapsed), "step \(step)")
            }
            #expect(model.selectedIndex < max(model.outline.count, 1))
        }
        #expect(version > 100)
    }
}
