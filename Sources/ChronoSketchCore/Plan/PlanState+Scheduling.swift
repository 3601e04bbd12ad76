extension PlanState {
    /// Applies a task, dependency or settings op (with a built undo's restores) and, in an
    /// automatic plan, its cascade: settled here, or applied as data when `cascade` is given.
    /// A rejection leaves the state exactly as it was.
    mutating func applyScheduled(_ operation: PlanOperation, cascade: [GanttTask]?) throws(PlanOperationError)
        -> TaskCollectionChange
    {
        var restores: [TaskRestore] = []
        if case .restoring(_, let listed) = operation { restores = listed }
        let base = operation.base
        // Restored tasks must be current before anything changes (scheduling.md §5).
        for restore in restores {
            guard tasks[restore.previous.id] == restore.previous else {
                throw .task(.staleTask(id: restore.previous.id))
            }
            guard restore.proposed.id == restore.previous.id else {
                throw .task(.identityChanged(previous: restore.previous.id, proposed: restore.proposed.id))
            }
        }
        // A built undo keeps a copy to fall back on (its base op may be a removal, whose inverse
        // would not put the dependencies back in their places); other ops are reverted by their
        // own inverse, which is exact.
        let saved = restores.isEmpty ? nil : tasks
        let savedSettings = settings
        var change = try applyUnsettled(base)
        func rollBack() {
            settings = savedSettings
            if let saved {
                tasks = saved
            } else if let revert = base.inverseOfItself {
                _ = try? applyUnsettled(revert)
            }
        }
        do {
            var later: [TaskCollectionChange] = []
            for restore in restores {
                later.append(try tasks.replace(previous: restore.previous, proposed: restore.proposed))
            }
            change.merge(later)
            if let cascade {
                try applyPushes(cascade, to: &change)
            } else if settings.isAutomatic {
                try settle(after: base, restored: restores.map(\.proposed.id), into: &change)
            }
        } catch let error as TaskGanttError {
            rollBack()
            throw .task(error)
        } catch let error as PlanOperationError {
            rollBack()
            throw error
        } catch {
            rollBack()
            throw .scheduling(.invalidSchedule, "\(error)")
        }
        return change
    }

    /// `settings.replace`: `previous` must equal the current settings (`staleSettings`); equal
    /// settings change nothing.
    mutating func replaceSettings(previous: PlanSettings, proposed: PlanSettings) throws(PlanOperationError)
        -> TaskCollectionChange
    {
        guard previous == settings else {
            throw .scheduling(.staleSettings, "the plan's scheduling settings changed since the proposal was formed")
        }
        var change = TaskCollectionChange()
        guard proposed != settings else { return change }
        settings = proposed
        change.settingsChanged = true
        return change
    }

    /// Settles the candidate after `base` (scheduling.md §4): its own tasks and the restored
    /// ones are kept, the successors of a new or changed dependency judged, the whole plan when
    /// the settings changed; the pushes are applied and recorded in `change`.
    private mutating func settle(after base: PlanOperation, restored: [String], into change: inout TaskCollectionChange)
        throws
    {
        let settle = ScheduleSettle(tasks, time: WorkingTime(settings.calendar))
        let outcome: SettleOutcome
        switch base {
        case .settingsReplace:
            guard change.settingsChanged || !restored.isEmpty else { return }
            outcome = settle.settleAll(own: restored)
        case .replace(_, let task), .add(let task):
            outcome = settle.settle(own: [task.id] + restored)
        case .restore(let task, _, let dependencies):
            outcome = settle.settle(own: [task.id] + restored, judged: dependencies.map(\.successorID))
        case .link(let dependency), .relink(_, let dependency):
            outcome = settle.settle(own: restored, judged: [dependency.successorID])
        default:
            guard !restored.isEmpty else { return }
            outcome = settle.settle(own: restored)
        }
        switch outcome {
        case .settled(let pushed, let positions):
            try applyPushes(pushed, at: positions, to: &change)
        case .conflict(let conflict):
            throw PlanOperationError.scheduleConflict(conflict)
        case .outOfRange(let id):
            throw TaskGanttError.invalidSchedule(id: id, reason: "the schedule would leave years 1…9999")
        }
    }

    /// Moves each pushed task to its final value, recording where it was: a long cascade at
    /// once (its summaries folded once each), a short one task by task.
    private mutating func applyPushes(
        _ pushed: [GanttTask], at knownPositions: [Int] = [], to change: inout TaskCollectionChange
    ) throws(TaskGanttError) {
        if pushed.count >= 16, let positions = tasks.positions(of: pushed, known: knownPositions) {
            let before = positions.map { tasks.tasks[$0] }
            if let moved = tasks.moveDates(of: pushed, at: positions) {
                change.pushedFrom += before
                change.merge([moved])
                return
            }
        }
        var later: [TaskCollectionChange] = []
        later.reserveCapacity(pushed.count)
        var moved: [GanttTask] = []
        do throws(TaskGanttError) {
            for task in pushed {
                guard let from = tasks[task.id] else { throw TaskGanttError.staleTask(id: task.id) }
                later.append(try tasks.replace(previous: from, proposed: task))
                moved.append(from)
            }
        } catch {
            // A cascade that does not fit (a logged one naming a task this copy lacks) is taken
            // back whole: the caller takes back the op.
            for (from, task) in zip(moved, pushed).reversed() { _ = try? tasks.replace(previous: task, proposed: from) }
            throw error
        }
        change.pushedFrom += moved
        change.merge(later)
    }
}

extension PlanOperation {
    /// The inverse of a version (scheduling.md §5): `inverse`, formed before the op was applied,
    /// plus each task the op's cascade pushed, put back from its final value to the one before.
    public static func inverse(_ inverse: PlanOperation?, restoringPushesOf change: PlanChange) -> PlanOperation? {
        guard let inverse, case .tasks(let tasks) = change, !tasks.pushedFrom.isEmpty else { return inverse }
        let finals = Dictionary(tasks.upserted.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        let pushes = tasks.pushedFrom.map { TaskRestore(previous: finals[$0.id]!, proposed: $0) }
        if case .restoring(let base, let restores) = inverse { return .restoring(base, restores: restores + pushes) }
        return .restoring(inverse, restores: pushes)
    }
}
