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

    /// Prepares to settle `tasks` on `time`'s calendar.
    public init(_ tasks: TaskCollection, time: WorkingTime) {
        self.tasks = tasks
        self.time = time
    }

    /// Settles after an op: `own` are the tasks it set (never moved: a broken constraint into one
    /// is a conflict), `judged` the tasks whose incoming constraints it changed (a link's or
    /// relink's successor), pushed when they no longer hold.
    public func settle(own: [String], judged: [String] = []) -> SettleOutcome {
        var run = Run(settle: self, own: Set(own))
        for id in own + judged { run.enqueue(id) }
        return run.finish()
    }

    /// Settles the whole plan (switching to automatic, changing the calendar): every task is
    /// judged; only `own` (an undo's restored tasks) are kept where they are.
    public func settleAll(own: [String] = []) -> SettleOutcome {
        var run = Run(settle: self, own: Set(own))
        for id in tasks.ranks.rankByID.keys { run.enqueue(id) }
        return run.finish()
    }

    /// One settling pass: the tasks waiting to be judged, by rank, and what moved so far.
    private struct Run {
        let settle: ScheduleSettle
        let own: Set<String>
        let constraints: ScheduleConstraints
        /// Waiting tasks as (rank, input position); a task enters at most once.
        var waiting = MinimumHeap<RankedTask>()
        var entered: Set<String> = []
        /// The pushed tasks' new kinds.
        var moved: [String: GanttTaskKind] = [:]

        init(settle: ScheduleSettle, own: Set<String>) {
            self.settle = settle
            self.own = own
            constraints = ScheduleConstraints(time: settle.time)
        }

        /// Queues `id` to be judged, unless it has no dependency (then nothing constrains it) or waits already.
        mutating func enqueue(_ id: String) {
            guard let rank = settle.tasks.ranks[id], let position = settle.tasks.position(of: id),
                entered.insert(id).inserted
            else { return }
            waiting.insert(RankedTask(rank: rank, position: position))
        }

        /// The task's kind as settled so far.
        func currentKind(of id: String) -> GanttTaskKind {
            moved[id] ?? settle.tasks[id]!.kind
        }

        mutating func finish() -> SettleOutcome {
            while let next = waiting.popMinimum() {
                let id = settle.tasks.tasks[next.position].id
                let kind = currentKind(of: id)
                guard let dates = ScheduleConstraints.Dates(kind), let duration = settle.time.workingDuration(of: kind)
                else { continue }
                let incoming = settle.tasks.predecessorIDs(of: id).compactMap { predecessor in
                    ScheduleConstraints.Dates(currentKind(of: predecessor)).map {
                        (settle.tasks.dependency(from: predecessor, to: id)!, $0)
                    }
                }
                let judgement = constraints.judge(dates, duration: duration, incoming: incoming)
                if !judgement.holds {
                    let start = settle.time.day(atPosition: judgement.earliest)
                    if own.contains(id) {
                        guard let earliest = try? CivilDate(dayNumber: start) else { return .outOfRange(taskID: id) }
                        return .conflict(
                            ScheduleConflict(taskID: id, earliest: earliest, dependency: judgement.broken!))
                    }
                    guard let placed = settle.time.placing(kind, on: start, workingDays: duration) else {
                        return .outOfRange(taskID: id)
                    }
                    moved[id] = placed
                } else if !own.contains(id) {
                    continue
                }
                for successor in settle.tasks.successorIDs(of: id) { enqueue(successor) }
            }
            let pushed = moved.keys.map { settle.tasks.position(of: $0)! }.sorted().map { position in
                settle.tasks.tasks[position].with(kind: moved[settle.tasks.tasks[position].id]!)
            }
            return .settled(pushed: pushed)
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
    /// nothing had to move).
    case settled(pushed: [GanttTask])
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

    /// `task "build" cannot start before 2026-09-11 (finish-to-start from "design")`.
    public var message: String {
        "task \"\(taskID)\" cannot start before \(earliest) (\(dependency.type.rawValue) from \"\(dependency.predecessorID)\")"
    }
}
