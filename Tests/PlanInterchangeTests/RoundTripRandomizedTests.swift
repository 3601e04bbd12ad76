import ChronoSketchCore
import PlanTestSupport
import Testing

@testable import PlanInterchange

/// Ours → MS Project XML → ours on random plans of every shape (interchange.md §8: the export
/// re-imports to the same plan): nested groups, milestones, unscheduled activities, fractional
/// progress, typed and lagged dependencies, a random calendar, awkward titles, and bookings, some
/// of them belonging to a task. What comes back is compared fact by fact, in tree order.
@Suite("Interchange: random plans through MS Project XML and back")
struct RoundTripRandomizedTests {
    /// A random plan: random operations applied (rejections skipped), a random calendar, some
    /// bookings linked to tasks, and typed dependencies with lags.
    static func randomPlan(seed: UInt64) -> PlanDocument {
        var operations = RandomPlanOperations(seed: seed)
        for _ in 0..<60 {
            if let operation = operations.operation() { _ = try? operations.state.apply(operation) }
        }
        var state = operations.state
        var random = SplitMix64(seed: seed &+ 17)
        // Typed dependencies with lags, in place of some plain ones.
        for dependency in state.tasks.dependencies where Bool.random(using: &random) {
            let typed = TaskDependency(
                predecessorID: dependency.predecessorID, successorID: dependency.successorID,
                type: DependencyType.allCases.randomElement(using: &random)!,
                lag: Int.random(in: -5...5, using: &random))
            _ = try? state.tasks.relink(previous: dependency, proposed: typed)
        }
        let weekdays = (1...7).filter { _ in Int.random(in: 0..<10, using: &random) < 7 }
        let holidays = (0..<Int.random(in: 0...6, using: &random)).map { _ in
            try! CivilDate("2026-09-01").adding(days: Int.random(in: 0...120, using: &random))
        }
        state.settings = PlanSettings(
            scheduling: .manual,
            calendar: try! PlanCalendar(
                workingDays: weekdays.isEmpty ? [1, 2, 3, 4, 5] : weekdays, holidays: Array(Set(holidays)).sorted()))
        let leaves = state.tasks.tasks.filter { !$0.kind.isSummary }.map(\.id)
        var links: [String: String] = [:]
        for entry in state.timeline.entries where !leaves.isEmpty && Int.random(in: 0..<3, using: &random) > 0 {
            links[entry.id] = leaves.randomElement(using: &random)!
        }
        state.entryTasks = EntryTaskLinks(links)
        return PlanDocument(title: "Random \(seed)", state: state)
    }

    /// The tasks in tree order: title, kind with dates, progress as MS Project holds it (whole),
    /// parent by tree position.
    static func tasks(_ plan: PlanDocument) -> [String] {
        let tasks = plan.state.tasks
        var order: [String] = []
        tasks.forEachDepthFirst(collapsed: []) { position, _ in order.append(tasks.tasks[position].id) }
        let row = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($0.element, $0.offset) })
        return order.map { id in
            let task = tasks[id]!
            let parent = task.parentID.map { String(row[$0]!) } ?? "-"
            switch task.kind {
            case .activity(let schedule, let progress):
                let shown = progress.rounded()
                return
                    "\(task.title)|activity \(schedule.map { "\($0.start)–\($0.end)" } ?? "unscheduled") \(shown)|\(parent)"
            case .milestone(let date): return "\(task.title)|milestone \(date)|\(parent)"
            case .summary: return "\(task.title)|summary|\(parent)"
            }
        }
    }

    /// The calendar as it schedules: a holiday on a weekday that does not work changes nothing, and
    /// MS Project holds no such day (its importer drops a non-working exception on one, as it must
    /// for exceptions that span a weekend).
    static func effective(_ calendar: PlanCalendar) -> PlanCalendar {
        let working = Set(calendar.workingDays)
        return try! PlanCalendar(
            workingDays: calendar.workingDays,
            holidays: calendar.holidays.filter { working.contains($0.isoWeekday) })
    }

    /// The dependencies by tree rows, with type and lag, sorted (MSPDI holds no list order).
    static func dependencies(_ plan: PlanDocument) -> [String] {
        let tasks = plan.state.tasks
        var row: [String: Int] = [:]
        tasks.forEachDepthFirst(collapsed: []) { position, _ in row[tasks.tasks[position].id] = row.count }
        return tasks.dependencies.map {
            "\(row[$0.predecessorID]!)→\(row[$0.successorID]!) \($0.type.rawValue) \($0.lag)"
        }.sorted()
    }

    /// Each booking that belongs to a task: the task's tree row, the interval and each resource,
    /// as a set (the import titles a booking with its task's name and may merge equal intervals).
    static func bookings(_ plan: PlanDocument) -> Set<String> {
        let tasks = plan.state.tasks
        var row: [String: Int] = [:]
        tasks.forEachDepthFirst(collapsed: []) { position, _ in row[tasks.tasks[position].id] = row.count }
        let labels = Dictionary(uniqueKeysWithValues: plan.state.timeline.resources.map { ($0.id, $0.label) })
        var found: Set<String> = []
        for entry in plan.state.timeline.entries {
            guard let task = plan.state.entryTasks[entry: entry.id] else { continue }
            for assignment in plan.state.timeline.assignments(ofEntry: entry.id) {
                found.insert("\(row[task]!) \(entry.start)–\(entry.end) \(labels[assignment.resourceID]!)")
            }
        }
        return found
    }

    @Test("200 random plans come back with the same tasks, links, calendar, resources and bookings")
    func roundTrips() throws {
        var shapes: [String: Int] = [:]
        for seed in UInt64(0)..<200 {
            let plan = Self.randomPlan(seed: seed)
            for task in plan.state.tasks.tasks { shapes[Self.shape(task.kind), default: 0] += 1 }
            for dependency in plan.state.tasks.dependencies
            where dependency.type != .finishToStart && dependency.lag != 0 {
                shapes["typed and lagged dependency", default: 0] += 1
            }
            shapes["booking of a task", default: 0] += Self.bookings(plan).count
            let (text, warnings) = MSProjectExport.document(plan)
            let back = try PlanImport.read(Array(text.utf8)).document
            #expect(Self.tasks(back) == Self.tasks(plan), "seed \(seed)")
            #expect(Self.dependencies(back) == Self.dependencies(plan), "seed \(seed)")
            #expect(back.state.settings.calendar == Self.effective(plan.state.settings.calendar), "seed \(seed)")
            #expect(back.state.timeline.resources.map(\.label) == plan.state.timeline.resources.map(\.label))
            #expect(Self.bookings(back) == Self.bookings(plan), "seed \(seed)")
            // A booking of no task is reported, never written as an assignment.
            let unlinked = plan.state.timeline.entries.contains { plan.state.entryTasks[entry: $0.id] == nil }
            #expect(warnings.contains { $0.code == "entryWithoutTask" } == unlinked, "seed \(seed)")
        }
        // Every shape was there to be carried.
        for shape in [
            "summary", "milestone", "unscheduled", "scheduled", "typed and lagged dependency", "booking of a task",
        ] {
            #expect(shapes[shape, default: 0] >= 20, "only \(shapes[shape, default: 0]) of \(shape)")
        }
    }

    static func shape(_ kind: GanttTaskKind) -> String {
        switch kind {
        case .summary: "summary"
        case .milestone: "milestone"
        case .activity(nil, _): "unscheduled"
        case .activity: "scheduled"
        }
    }
}
