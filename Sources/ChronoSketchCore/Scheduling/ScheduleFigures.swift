/// The derived figures of one version (scheduling.md §6): the plan's finish and, for every
/// scheduled task, its late dates, slack and whether it is critical.
///
/// A push-only plan is its own early schedule, so only the backward pass runs: in reverse
/// topological order, in working-day positions, each task's latest finish is the plan's finish
/// or tighter, from each constraint into a scheduled successor. A pure function of the tasks,
/// the dependencies and the calendar, the same in both modes and on every server process.
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
    /// The figures of each scheduled activity and milestone, by id.
    public let tasks: [String: Task]
    /// The ids of the scheduled tasks, in input order.
    public let order: [String]

    /// Computes the figures of `collection` on `time`'s calendar: arrays by input position,
    /// positions of every date computed once.
    public init(_ collection: TaskCollection, time: WorkingTime) {
        let tasks = collection.tasks
        var dates = [ScheduleConstraints.Dates?](repeating: nil, count: tasks.count)
        var startPosition = [Int](repeating: 0, count: tasks.count)
        var endPosition = [Int](repeating: 0, count: tasks.count)
        var finishDay: Int?
        for (position, task) in tasks.enumerated() {
            guard let taskDates = ScheduleConstraints.Dates(task.kind) else { continue }
            dates[position] = taskDates
            startPosition[position] = time.position(ofDay: taskDates.start)
            endPosition[position] = time.position(ofDay: taskDates.end)
            finishDay = max(finishDay ?? taskDates.end, taskDates.end)
        }
        guard let finishDay else {
            (finish, self.tasks, order) = (nil, [:], [])
            return
        }
        finish = CivilDate(uncheckedDayNumber: finishDay)
        let finishPosition = time.position(ofDay: finishDay)

        // Latest finishes (positions) of the tasks with dependencies, successors first; the
        // others may end at the finish.
        var lateFinish = [Int](repeating: finishPosition, count: tasks.count)
        let ranked = collection.currentRanks().rankByID.map {
            (rank: $0.value, position: collection.positionByID[$0.key]!)
        }
        .sorted { $0.rank > $1.rank }
        for (_, position) in ranked where dates[position] != nil {
            let width = endPosition[position] - startPosition[position]
            var latest = finishPosition
            for dependency in collection.outgoing(tasks[position].id) {
                let successor = collection.positionByID[dependency.successorID]!
                guard dates[successor] != nil else { continue }
                let theirFinish = lateFinish[successor]
                let theirStart = theirFinish - (endPosition[successor] - startPosition[successor])
                var bound = (dependency.type.toSuccessorEnd ? theirFinish : theirStart) - dependency.lag
                if !dependency.type.fromPredecessorEnd { bound += width }
                latest = min(latest, bound)
            }
            lateFinish[position] = latest
        }

        var figures = [String: Task](minimumCapacity: tasks.count)
        var order: [String] = []
        for (position, task) in tasks.enumerated() {
            guard let own = dates[position] else { continue }
            order.append(task.id)
            let slack = lateFinish[position] - endPosition[position]
            figures[task.id] = ScheduleFigures.figures(
                of: task.kind, dates: own, startPosition: startPosition[position], slack: slack, time: time)
        }
        self.tasks = figures
        self.order = order
    }

    /// Late dates: the own dates at slack 0, else the task placed (§3.5) on the working day
    /// `slack` working days from its start's position (kept as is should that leave years 1…9999).
    private static func figures(
        of kind: GanttTaskKind, dates: ScheduleConstraints.Dates, startPosition: Int, slack: Int, time: WorkingTime
    ) -> Task {
        let own = Task(
            lateStart: CivilDate(uncheckedDayNumber: dates.start), lateFinish: CivilDate(uncheckedDayNumber: dates.end),
            slack: slack)
        guard slack != 0, let duration = time.workingDuration(of: kind) else { return own }
        let start = time.day(atPosition: startPosition + slack)
        switch time.placing(kind, on: start, workingDays: duration) {
        case .activity(let schedule?, _)?:
            return Task(lateStart: schedule.start, lateFinish: schedule.end, slack: slack)
        case .milestone(let date)?:
            return Task(lateStart: date, lateFinish: date, slack: slack)
        default:
            return own
        }
    }
}
