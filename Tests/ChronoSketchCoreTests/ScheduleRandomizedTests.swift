import Testing

@testable import ChronoSketchCore

/// The settle against a naive fixpoint on random plans (scheduling.md §4): judge every task
/// again and again, day by day, until nothing moves. Afterwards every constraint holds, nothing
/// moved earlier, nothing moved that did not have to (the naive fixpoint is the least one),
/// own tasks are untouched and working durations are kept.
@Suite("Schedule settle randomized")
struct ScheduleRandomizedTests {
    /// Day-by-day arithmetic, sharing nothing with `WorkingTime`.
    struct Walk {
        let calendar: PlanCalendar

        func working(_ day: Int) -> Bool { calendar.isWorkingDay(CivilDate(uncheckedDayNumber: day)) }

        func count(_ a: Int, _ b: Int) -> Int {
            let days = (min(a, b)..<max(a, b)).filter(working).count
            return b < a ? -days : days
        }

        func duration(_ kind: GanttTaskKind) -> Int? {
            switch kind {
            case .milestone: 0
            case .activity(let schedule?, _): max(1, count(schedule.start.dayNumber, schedule.end.dayNumber))
            default: nil
            }
        }

        func place(_ kind: GanttTaskKind, on start: Int, _ duration: Int) -> GanttTaskKind {
            if case .milestone = kind { return .milestone(date: CivilDate(uncheckedDayNumber: start)) }
            var end = start
            var left = duration
            while left > 0 {
                if working(end) { left -= 1 }
                end += 1
            }
            guard case .activity(_, let progress) = kind else { fatalError("not placed") }
            return .activity(
                schedule: try! TaskSchedule(
                    start: CivilDate(uncheckedDayNumber: start), end: CivilDate(uncheckedDayNumber: end)),
                progress: progress)
        }

        func holds(_ dependency: TaskDependency, _ predecessor: GanttTaskKind, _ successor: GanttTaskKind) -> Bool {
            guard let from = ScheduleConstraints.Dates(predecessor), let to = ScheduleConstraints.Dates(successor)
            else {
                return true
            }
            let anchor = dependency.type.fromPredecessorEnd ? from.end : from.start
            return count(anchor, dependency.type.toSuccessorEnd ? to.end : to.start) >= dependency.lag
        }

        /// The first working day after the task's start on which it satisfies `incoming`.
        func earliest(_ kind: GanttTaskKind, _ incoming: [(TaskDependency, GanttTaskKind)]) -> Int {
            let duration = duration(kind)!
            var day = ScheduleConstraints.Dates(kind)!.start
            while true {
                day += 1
                if working(day), incoming.allSatisfy({ holds($0.0, $0.1, place(kind, on: day, duration)) }) {
                    return day
                }
            }
        }
    }

    /// What the naive fixpoint ends with: every task's final kind, and the own tasks left breaking a constraint.
    static func naiveSettle(_ tasks: TaskCollection, own: Set<String>, walk: Walk) -> (
        [String: GanttTaskKind], [String]
    ) {
        var kinds = Dictionary(uniqueKeysWithValues: tasks.tasks.map { ($0.id, $0.kind) })
        func incoming(_ id: String) -> [(TaskDependency, GanttTaskKind)] {
            tasks.dependencies.filter { $0.successorID == id }.map { ($0, kinds[$0.predecessorID]!) }
        }
        var changed = true
        while changed {
            changed = false
            for task in tasks.tasks where !own.contains(task.id) && walk.duration(kinds[task.id]!) != nil {
                let into = incoming(task.id)
                guard !into.allSatisfy({ walk.holds($0.0, $0.1, kinds[task.id]!) }) else { continue }
                let kind = kinds[task.id]!
                kinds[task.id] = walk.place(kind, on: walk.earliest(kind, into), walk.duration(kind)!)
                changed = true
            }
        }
        let conflicts = own.filter { id in incoming(id).contains { !walk.holds($0.0, $0.1, kinds[id]!) } }
        return (kinds, conflicts.sorted())
    }

    /// A random plan of 4…24 tasks (activities, some on weekends, milestones, unscheduled
    /// activities, a summary) and random typed dependencies without cycles.
    static func randomPlan(_ random: inout SplitMix64) -> TaskCollection {
        let base = Make.date("2026-09-01").dayNumber
        var tasks = [Make.summary("group")]
        let count = Int.random(in: 4...24, using: &random)
        for index in 0..<count {
            let id = "t\(index)"
            let parent: String? = Bool.random(using: &random) ? "group" : nil
            let start = base + Int.random(in: 0...60, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6:
                let schedule = try! TaskSchedule(
                    start: CivilDate(uncheckedDayNumber: start), days: Int.random(in: 1...9, using: &random))
                tasks.append(
                    try! GanttTask(
                        id: id, title: id, parentID: parent, kind: .activity(schedule: schedule, progress: 10)))
            case 6..<8:
                tasks.append(
                    try! GanttTask(
                        id: id, title: id, parentID: parent,
                        kind: .milestone(date: CivilDate(uncheckedDayNumber: start))))
            default:
                tasks.append(
                    try! GanttTask(id: id, title: id, parentID: parent, kind: .activity(schedule: nil, progress: 0)))
            }
        }
        var collection = try! TaskCollection(tasks)
        for _ in 0..<Int.random(in: 0...(count * 2), using: &random) {
            _ = try? collection.link(randomDependency(&random, count))
        }
        return collection
    }

    static func randomDependency(_ random: inout SplitMix64, _ count: Int) -> TaskDependency {
        TaskDependency(
            predecessorID: "t\(Int.random(in: 0..<count, using: &random))",
            successorID: "t\(Int.random(in: 0..<count, using: &random))",
            type: DependencyType.allCases.randomElement(using: &random)!, lag: Int.random(in: -4...4, using: &random))
    }

    /// Applies a settle's pushes to `tasks`, checking each against the naive result.
    static func apply(_ outcome: SettleOutcome, to tasks: inout TaskCollection) -> [GanttTask]? {
        guard case .settled(let pushed, _) = outcome else { return nil }
        for task in pushed { try! tasks.replace(previous: tasks[task.id]!, proposed: task) }
        return pushed
    }

    /// Checks a settle of `candidate` (own tasks `own`) against the naive fixpoint.
    static func check(_ candidate: TaskCollection, own: [String], judged: [String], walk: Walk) {
        let outcome = ScheduleSettle(candidate, time: WorkingTime(walk.calendar)).settle(own: own, judged: judged)
        let (naive, conflicts) = naiveSettle(candidate, own: Set(own), walk: walk)
        if case .conflict(let conflict) = outcome {
            #expect(conflicts.contains(conflict.taskID))
            let into = candidate.dependencies.filter { $0.successorID == conflict.taskID }.map {
                ($0, naive[$0.predecessorID]!)
            }
            #expect(conflict.earliest.dayNumber == walk.earliest(candidate[conflict.taskID]!.kind, into))
            return
        }
        #expect(conflicts.isEmpty, "the naive fixpoint finds \(conflicts) in conflict")
        var settled = candidate
        guard let pushed = apply(outcome, to: &settled) else {
            Issue.record("unexpected \(outcome)")
            return
        }
        // The least fixpoint: the same values, and only the tasks that had to move.
        for task in settled.tasks { #expect(task.kind == naive[task.id], "\(task.id)") }
        #expect(pushed.map(\.id) == candidate.tasks.map(\.id).filter { candidate[$0]!.kind != naive[$0] })
        for task in pushed {
            let before = candidate[task.id]!
            #expect(!own.contains(task.id))
            #expect(ScheduleConstraints.Dates(task.kind)!.start > ScheduleConstraints.Dates(before.kind)!.start)
            #expect(walk.duration(task.kind) == walk.duration(before.kind))
        }
        for dependency in settled.dependencies {
            #expect(
                walk.holds(dependency, settled[dependency.predecessorID]!.kind, settled[dependency.successorID]!.kind))
        }
    }

    @Test func settlesLikeTheNaiveFixpoint() throws {
        var random = SplitMix64(seed: 0x0005_E771_E000)
        var conflicts = 0
        var pushes = 0
        for round in 0..<400 {
            let calendar = WorkingTimeTests.randomCalendar(&random, base: Make.date("2026-09-01").dayNumber)
            let walk = Walk(calendar: calendar)
            let time = WorkingTime(calendar)
            // A plan that keeps the invariant: the whole-plan settle of a random one, checked too.
            var plan = Self.randomPlan(&random)
            let all = ScheduleSettle(plan, time: time).settleAll()
            let (naive, _) = Self.naiveSettle(plan, own: [], walk: walk)
            _ = Self.apply(all, to: &plan)
            for task in plan.tasks { #expect(task.kind == naive[task.id], "round \(round): \(task.id)") }

            let count = plan.tasks.count - 1
            var candidate = plan
            switch round % 3 {
            case 0:  // A replace of one or two tasks: own.
                var own: [String] = []
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    let id = "t\(Int.random(in: 0..<count, using: &random))"
                    let task = candidate[id]!
                    guard let dates = ScheduleConstraints.Dates(task.kind), !own.contains(id) else { continue }
                    let shift = Int.random(in: -10...10, using: &random)
                    let kind: GanttTaskKind =
                        if case .milestone = task.kind {
                            .milestone(date: CivilDate(uncheckedDayNumber: dates.start + shift))
                        } else {
                            .activity(
                                schedule: try TaskSchedule(
                                    start: CivilDate(uncheckedDayNumber: dates.start + shift),
                                    days: Int.random(in: 1...9, using: &random)),
                                progress: 10)
                        }
                    try candidate.replace(previous: task, proposed: task.with(kind: kind))
                    own.append(id)
                }
                Self.check(candidate, own: own, judged: [], walk: walk)
            case 1:  // A link: its successor judged.
                let dependency = Self.randomDependency(&random, count)
                guard (try? candidate.link(dependency)) != nil else { continue }
                Self.check(candidate, own: [], judged: [dependency.successorID], walk: walk)
            default:  // A relink to another type and lag.
                guard let previous = candidate.dependencies.randomElement(using: &random) else { continue }
                let proposed = previous.with(
                    type: DependencyType.allCases.randomElement(using: &random)!,
                    lag: Int.random(in: -4...6, using: &random))
                try candidate.relink(previous: previous, proposed: proposed)
                Self.check(candidate, own: [], judged: [proposed.successorID], walk: walk)
            }
            let outcome = ScheduleSettle(candidate, time: time).settle(
                own: round % 3 == 0 ? candidate.tasks.map(\.id).filter { candidate[$0] != plan[$0] } : [],
                judged: candidate.dependencies.map(\.successorID))
            if case .conflict = outcome { conflicts += 1 }
            if case .settled(let pushed, _) = outcome, !pushed.isEmpty { pushes += 1 }
        }
        // The generator must exercise both outcomes.
        #expect(conflicts > 20)
        #expect(pushes > 20)
    }
}
