/// Settling a candidate collection of an automatic plan (scheduling.md §4): every constraint
/// between scheduled tasks made to hold by pushing successors later, never earlier, and never
/// moving the op's own tasks.
///
/// It is a decision in a value: it reads the candidate and returns what to push (or why the
/// proposal fails); the caller applies the pushes. The work follows the change only: tasks are
/// judged in topological rank order from the seeds, a task's successors are judged only when
/// it moved (or is an own task, whose dates the op set), and a task whose constraints hold
/// stops the cascade there.
public struct ScheduleSettle {
    /// The candidate collection (the op applied, nothing pushed yet).
    public let tasks: TaskCollection
    /// The plan calendar's arithmetic.
    public let time: WorkingTime

    /// The dependencies of `tasks` by position, ranked (kept by a plan state's collection,
    /// else built).
    let graph: DependencyGraph

    /// Prepares to settle `tasks` on `time`'s calendar.
    public init(_ tasks: TaskCollection, time: WorkingTime) {
        self.tasks = tasks
        self.time = time
        graph = tasks.currentGraph()
    }

    /// Settles after an op: `own` are the tasks it set (never moved: a broken constraint into one
    /// is a conflict), `judged` the tasks whose incoming constraints it changed (a link's or
    /// relink's successor), pushed when they no longer hold.
    public func settle(own: [String], judged: [String] = []) -> SettleOutcome {
        var run = Run(settle: self, own: own)
        for id in own + judged {
            if let position = tasks.positionByID[id] { run.enqueue(position) }
        }
        return run.finish()
    }

    /// Settles the whole plan (switching to automatic, changing the calendar): every task is
    /// judged, in one pass over the ranks; only `own` (an undo's restored tasks) are kept where
    /// they are.
    public func settleAll(own: [String] = []) -> SettleOutcome {
        var run = Run(settle: self, own: own)
        run.everyTaskEntered = true
        return run.finish(inOrder: graph.positionsInRankOrder())
    }

    /// One settling pass, by input position (sets and dictionaries of integers, sized by the
    /// work, not the plan): the tasks waiting to be judged, by rank, and what moved so far.
    private struct Run {
        let settle: ScheduleSettle
        let constraints: ScheduleConstraints
        /// The own tasks.
        var own: Set<Int> = []
        /// Waiting tasks as (rank, input position); a task enters at most once.
        var waiting = MinimumHeap<RankedTask>()
        var entered: Set<Int> = []
        /// Whether every ranked task is judged in one pass anyway (nothing to queue).
        var everyTaskEntered = false
        /// The pushed tasks' new kinds.
        var moved: [Int: GanttTaskKind] = [:]

        init(settle: ScheduleSettle, own ids: [String]) {
            self.settle = settle
            constraints = ScheduleConstraints(time: settle.time)
            for id in ids { if let position = settle.tasks.positionByID[id] { own.insert(position) } }
        }

        /// Queues the task at `position` to be judged, unless it never had a dependency (then
        /// nothing constrains it) or waits already.
        mutating func enqueue(_ position: Int) {
            guard !everyTaskEntered, settle.graph.isRanked(position), entered.insert(position).inserted else { return }
            waiting.insert(RankedTask(rank: settle.graph.rank[position], position: position))
        }

        /// The task's kind as settled so far.
        func currentKind(_ position: Int) -> GanttTaskKind {
            moved[position] ?? settle.tasks.tasks[position].kind
        }

        /// Judges the waiting tasks in rank order, each after every predecessor that could move.
        mutating func finish() -> SettleOutcome {
            while let next = waiting.popMinimum() {
                if let failure = judge(next.position) { return failure }
            }
            return settled()
        }

        /// Judges the tasks at the input positions `order`, in that order.
        mutating func finish(inOrder order: [Int]) -> SettleOutcome {
            for position in order {
                if let failure = judge(position) { return failure }
            }
            return settled()
        }

        /// Judges one task: kept, pushed (its successors queued) or the proposal's failure.
        private mutating func judge(_ position: Int) -> SettleOutcome? {
            let kind = currentKind(position)
            guard let dates = ScheduleConstraints.Dates(kind), let duration = settle.time.workingDuration(of: kind)
            else { return nil }
            let judgement = constraints.judge(dates, duration: duration, edges: settle.graph.incoming[position]) {
                ($0.dependency, ScheduleConstraints.Dates(currentKind($0.other)))
            }
            if !judgement.holds {
                let start = settle.time.day(atPosition: judgement.earliest)
                let id = settle.tasks.tasks[position].id
                if own.contains(position) {
                    guard let earliest = try? CivilDate(dayNumber: start) else { return .outOfRange(taskID: id) }
                    return .conflict(ScheduleConflict(taskID: id, earliest: earliest, dependency: judgement.broken!))
                }
                guard let placed = settle.time.placing(kind, on: start, workingDays: duration) else {
                    return .outOfRange(taskID: id)
                }
                moved[position] = placed
            } else if !own.contains(position) {
                return nil
            }
            if !everyTaskEntered {
                for link in settle.graph.outgoing[position] { enqueue(link.other) }
            }
            return nil
        }

        /// The pushes, in input order.
        func settled() -> SettleOutcome {
            let positions = moved.keys.sorted()
            return .settled(
                pushed: positions.map { settle.tasks.tasks[$0].with(kind: moved[$0]!) }, positions: positions)
        }
    }

    /// A task waiting to be judged: by topological rank, ties in input order.
    private struct RankedTask: Comparable {
        let rank: Int
        let position: Int

        static func < (lhs: RankedTask, rhs: RankedTask) -> Bool {
            (lhs.rank, lhs.position) < (rhs.rank, rhs.position)
        }
    }
}

/// What settling decided.
public enum SettleOutcome: Sendable, Hashable {
    /// Every constraint holds with these tasks pushed (final values, in input order; empty when
    /// nothing had to move); `positions` are their input positions in the settled collection
    /// (empty: not known), so that applying them looks up no id.
    case settled(pushed: [GanttTask], positions: [Int] = [])
    /// An own task breaks a constraint: the proposal is `rejected` `scheduleConflict`.
    case conflict(ScheduleConflict)
    /// A push (or a conflict's earliest date) would leave years 1…9999: `invalidSchedule`.
    case outOfRange(taskID: String)
}

/// An own task that cannot stay where the op put it (scheduling.md §4.3).
public struct ScheduleConflict: Sendable, Hashable {
    /// The task.
    public let taskID: String
    /// Its earliest start: the first working day on which every incoming constraint holds.
    public let earliest: CivilDate
    /// The first of its incoming dependencies that does not hold.
    public let dependency: TaskDependency

    /// Creates a conflict.
    public init(taskID: String, earliest: CivilDate, dependency: TaskDependency) {
        self.taskID = taskID
        self.earliest = earliest
        self.dependency = dependency
    }

    /// The task and its earliest start, as a `rejected` message carries them.
    public var detail: ConflictDetail { ConflictDetail(task: taskID, earliest: earliest) }

    /// `task "build" cannot start before 2026-09-11 (finish-to-start from "design")`.
    public var message: String {
        "task \"\(taskID)\" cannot start before \(earliest) (\(dependency.type.rawValue) from \"\(dependency.predecessorID)\")"
    }
}

/// What a `scheduleConflict` rejection names besides its message (scheduling.md §4.3): the
/// task and the earliest start every incoming dependency allows it.
public struct ConflictDetail: Sendable, Hashable {
    /// The own task that breaks a dependency.
    public let task: String
    /// Its earliest start, a working day.
    public let earliest: CivilDate

    /// Creates a conflict detail.
    public init(task: String, earliest: CivilDate) {
        self.task = task
        self.earliest = earliest
    }
}
