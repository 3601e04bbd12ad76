/// The derived figures of one version (scheduling.md §6): the plan's finish and, for every
/// scheduled task, its late dates, slack and whether it is critical.
///
/// A push-only plan is its own early schedule, so only the backward pass runs: in reverse
/// topological order, in working-day positions, each task's latest finish is the plan's finish
/// or tighter, from each constraint into a scheduled successor. A pure function of the tasks,
/// the dependencies and the calendar, the same in both modes and on every server process.
///
/// The pass keeps only arrays by input position; a task's late dates are placed when it is
/// asked for, so a version costs O(tasks + dependencies) once and an answer O(ids asked).
public struct ScheduleFigures: Sendable {
    /// The figures of one scheduled task.
    public struct Task: Sendable, Hashable {
        /// The latest start that keeps the finish (the own start when the slack is 0).
        public let lateStart: CivilDate
        /// The latest (exclusive) end that keeps the finish; a milestone's late date.
        public let lateFinish: CivilDate
        /// Working days the task can slip without moving the finish; negative where a manual
        /// plan breaks a constraint.
        public let slack: Int
        /// Whether the slack is 0 or less.
        public var critical: Bool { slack <= 0 }

        /// Creates the figures of one task.
        public init(lateStart: CivilDate, lateFinish: CivilDate, slack: Int) {
            self.lateStart = lateStart
            self.lateFinish = lateFinish
            self.slack = slack
        }
    }

    /// The latest end (a milestone: its date) of all scheduled tasks; nil with none.
    public let finish: CivilDate?
    /// The ids of the scheduled tasks, in input order.
    public let order: [String]

    /// The calendar's arithmetic, to place late dates when asked.
    private let time: WorkingTime
    /// Input positions by id (the collection's own map, shared, not copied).
    private let positionByID: [String: Int]
    /// Per input position: the own start and end day numbers, `Int.min` for unscheduled tasks.
    private let startDay: [Int]
    private let endDay: [Int]
    /// Per input position: whether the task is a milestone.
    private let milestone: [Bool]
    /// Per input position: the slack in working days.
    private let slack: [Int]

    /// Computes the figures of `collection` on `time`'s calendar.
    public init(_ collection: TaskCollection, time: WorkingTime) {
        let tasks = collection.tasks
        var startDay = [Int](repeating: .min, count: tasks.count)
        var endDay = [Int](repeating: .min, count: tasks.count)
        var milestone = [Bool](repeating: false, count: tasks.count)
        var startPosition = [Int](repeating: 0, count: tasks.count)
        var endPosition = [Int](repeating: 0, count: tasks.count)
        var order: [String] = []
        order.reserveCapacity(tasks.count)
        var finishDay: Int?
        for (position, task) in tasks.enumerated() {
            guard let dates = ScheduleConstraints.Dates(task.kind) else { continue }
            (startDay[position], endDay[position]) = (dates.start, dates.end)
            if case .milestone = task.kind { milestone[position] = true }
            startPosition[position] = time.position(ofDay: dates.start)
            endPosition[position] = time.position(ofDay: dates.end)
            finishDay = max(finishDay ?? dates.end, dates.end)
            order.append(task.id)
        }
        let finishPosition = finishDay.map { time.position(ofDay: $0) } ?? 0

        // Latest finishes (positions) of the tasks with dependencies, successors first; the
        // others may end at the finish.
        var lateFinish = [Int](repeating: finishPosition, count: tasks.count)
        let graph = collection.currentGraph()
        for position in graph.positionsInRankOrder().reversed() where startDay[position] != .min {
            let width = endPosition[position] - startPosition[position]
            var latest = finishPosition
            for link in graph.outgoing[position] {
                let (successor, dependency) = (link.other, link.dependency)
                guard startDay[successor] != .min else { continue }
                let theirFinish = lateFinish[successor]
                let theirStart = theirFinish - (endPosition[successor] - startPosition[successor])
                var bound = (dependency.type.toSuccessorEnd ? theirFinish : theirStart) - dependency.lag
                if !dependency.type.fromPredecessorEnd { bound += width }
                latest = min(latest, bound)
            }
            lateFinish[position] = latest
        }
        for position in lateFinish.indices { lateFinish[position] -= endPosition[position] }

        finish = finishDay.map { CivilDate(uncheckedDayNumber: $0) }
        self.order = order
        self.time = time
        self.positionByID = collection.positionByID
        self.startDay = startDay
        self.endDay = endDay
        self.milestone = milestone
        slack = lateFinish
    }

    /// The figures of the scheduled task `id`; nil when no scheduled activity or milestone has it.
    public subscript(id: String) -> Task? {
        guard let position = positionByID[id], position < startDay.count, startDay[position] != .min else {
            return nil
        }
        let (start, end) = (startDay[position], endDay[position])
        let own = Task(
            lateStart: CivilDate(uncheckedDayNumber: start), lateFinish: CivilDate(uncheckedDayNumber: end),
            slack: slack[position])
        guard own.slack != 0 else { return own }
        // Late dates: the task placed (§3.5) on the working day `slack` working days from its
        // start's position, keeping its working duration (kept as is should that leave years 1…9999).
        let startPosition = time.position(ofDay: start)
        let late = time.day(atPosition: startPosition + own.slack)
        if milestone[position] {
            guard let date = try? CivilDate(dayNumber: late) else { return own }
            return Task(lateStart: date, lateFinish: date, slack: own.slack)
        }
        let duration = max(1, time.position(ofDay: end) - startPosition)
        guard let first = try? CivilDate(dayNumber: late),
            let after = try? CivilDate(dayNumber: time.end(placingFrom: late, workingDays: duration))
        else { return own }
        return Task(lateStart: first, lateFinish: after, slack: own.slack)
    }

    /// Every scheduled task's figures by id (O(tasks): for tests and whole-plan listings).
    public var all: [String: Task] {
        Dictionary(uniqueKeysWithValues: order.map { ($0, self[$0]!) })
    }
}
