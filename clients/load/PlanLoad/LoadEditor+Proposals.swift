import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import Synchronization
import SystemSupport

/// Forming proposals: a realistic mix of edits on tasks this editor owns, timeline moves and
/// stale proposals on purpose.
extension LoadEditor {

    func owns(_ id: String) -> Bool {
        var hash = fnvOffsetBasis
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(hash % UInt64(max(1, peers))) == rank
    }

    /// A random task of the copy that this editor owns, is free and satisfies `accept`.
    func pick(
        _ copy: ClientPlanCopy, _ state: State, using generator: inout SplitMix64,
        where accept: (GanttTask) -> Bool
    ) -> GanttTask? {
        let tasks = copy.tasks
        guard !tasks.isEmpty else { return nil }
        for _ in 0..<24 {
            let task = tasks[Int.random(in: 0..<tasks.count, using: &generator)]
            if owns(task.id), !state.busy.contains(task.id), accept(task) { return task }
        }
        return nil
    }

    func randomSummary(
        _ copy: ClientPlanCopy, using generator: inout SplitMix64
    ) -> GanttTask? {
        let tasks = copy.tasks
        guard !tasks.isEmpty else { return nil }
        for _ in 0..<16 {
            let task = tasks[Int.random(in: 0..<tasks.count, using: &generator)]
            if task.kind.isSummary { return task }
        }
        return nil
    }

    func replace(_ previous: GanttTask, _ proposed: GanttTask, kind: String, sent: UInt64) -> (
        PlanOperation, Pending
    ) {
        (
            .replace(previous: previous, proposed: proposed),
            Pending(sent: sent, kind: kind, stale: false, busy: [previous.id], original: previous)
        )
    }

    func addProposal(
        _ copy: ClientPlanCopy, _ state: inout State, sent: UInt64, using generator: inout SplitMix64
    ) -> (PlanOperation, Pending)? {
        // An id this editor owns, so that no other editor touches the task.
        let base = "\(connection.nextProposalID())-t"
        var suffix = 0
        while !owns("\(base)\(suffix)"), suffix < 1000 { suffix += 1 }
        let id = "\(base)\(suffix)"
        let start = try? CivilDate("2026-09-01").adding(days: Int.random(in: 0..<60, using: &generator))
        let schedule = start.flatMap { try? TaskSchedule(start: $0, days: Int.random(in: 1...10, using: &generator)) }
        let parent = Bool.random(using: &generator) ? randomSummary(copy, using: &generator)?.id : nil
        guard
            let task = try? GanttTask(
                id: id, title: "load sent=\(sent)", parentID: parent, kind: .activity(schedule: schedule, progress: 0))
        else { return nil }
        return (.add(task), Pending(sent: sent, kind: "add", stale: false, busy: [], added: id))
    }

    /// Tasks an editor adds before it removes instead of adding.
    static let ownTaskLimit = 30

    /// Removes a task this editor added (keeps the plan's size steady).
    func removeProposal(
        _ copy: ClientPlanCopy, _ state: inout State, sent: UInt64, using generator: inout SplitMix64
    ) -> (PlanOperation, Pending)? {
        guard !state.added.isEmpty else { return nil }
        let id = state.added[Int.random(in: 0..<state.added.count, using: &generator)]
        guard !state.busy.contains(id), let task = copy[id] else { return nil }
        return (.remove(previous: task), Pending(sent: sent, kind: "remove", stale: false, busy: [id], removed: id))
    }

    func realisticProposal(
        _ copy: ClientPlanCopy, _ state: inout State, sent: UInt64, using generator: inout SplitMix64
    ) -> (PlanOperation, Pending)? {
        let roll = Int.random(in: 0..<100, using: &generator)
        switch roll {
        case 0..<16:
            // Past a few dozen tasks of its own, an editor removes instead: the plan keeps its size.
            if state.added.count >= LoadEditor.ownTaskLimit {
                return removeProposal(copy, &state, sent: sent, using: &generator)
            }
            return addProposal(copy, &state, sent: sent, using: &generator)
        case 16..<26:
            guard let task = pick(copy, state, using: &generator, where: { _ in true }) else { return nil }
            var proposed = task
            proposed.title = "edit sent=\(sent)"
            return replace(task, proposed, kind: "title", sent: sent)
        case 26..<44:
            guard
                let task = pick(copy, state, using: &generator, where: { $0.progress != nil }),
                case .activity(let schedule, _) = task.kind
            else { return nil }
            var proposed = task
            proposed.kind = .activity(schedule: schedule, progress: Double(Int.random(in: 0...100, using: &generator)))
            return replace(task, proposed, kind: "progress", sent: sent)
        case 44..<58:
            return datesProposal(copy, state, sent: sent, using: &generator)
        case 58..<66:
            guard let task = pick(copy, state, using: &generator, where: { _ in true }),
                let sibling = pick(
                    copy, state, using: &generator, where: { $0.parentID == task.parentID && $0.id != task.id })
            else { return nil }
            let position: TaskOrderPosition = Bool.random(using: &generator) ? .before : .after
            return (
                .reorder(previous: task, relativeTo: sibling, position: position),
                Pending(sent: sent, kind: "reorder", stale: false, busy: [task.id, sibling.id])
            )
        case 66..<72:
            guard let task = pick(copy, state, using: &generator, where: { !$0.kind.isSummary }) else { return nil }
            let parent = randomSummary(copy, using: &generator)?.id
            guard parent != task.parentID else { return nil }
            var proposed = task
            proposed.parentID = parent
            return replace(task, proposed, kind: "group", sent: sent)
        case 72..<82:
            guard state.added.count > 2 else { return nil }
            return removeProposal(copy, &state, sent: sent, using: &generator)
        case 82..<88:
            return linkProposal(copy, state, sent: sent, using: &generator)
        case 88..<93:
            return unlinkProposal(copy, state, sent: sent, using: &generator)
        default:
            return timelineMove(&state, sent: sent, using: &generator)
        }
    }

    func timelineMove(
        _ state: inout State, sent: UInt64, using generator: inout SplitMix64
    ) -> (PlanOperation, Pending)? {
        guard let page = state.page else { return nil }
        let entries = page.entries.filter { owns($0.id) && !state.busy.contains($0.id) }
        guard let entry = entries.randomElement(using: &generator),
            let assignment = page.assignments.first(where: { $0.entryID == entry.id })
        else { return nil }
        let shift = Bool.random(using: &generator) ? 60 : -60
        guard let start = moved(entry.start, by: shift), let end = moved(entry.end, by: shift),
            let proposed = try? entry.with(start: start, end: end)
        else { return nil }
        let original = TimelineAssignedEntry(entry: entry, assignment: assignment)
        return (
            .timelineApply(
                original: original, proposed: TimelineAssignedEntry(entry: proposed, assignment: assignment)),
            Pending(sent: sent, kind: "timeline", stale: false, busy: [entry.id], entry: entry.id)
        )
    }

    func moved(_ time: LocalDateTime, by minutes: Int) -> LocalDateTime? {
        let number = time.minuteNumber + minutes
        guard let date = try? CivilDate(dayNumber: number / 1440) else { return nil }
        return try? LocalDateTime(date: date, hour: number % 1440 / 60, minute: number % 60)
    }

    /// A replace whose `previous` is an older value of the task (one this editor replaced
    /// before), or, without one, a value the task does not have: it must be rejected `staleTask`.
    func staleProposal(
        _ copy: ClientPlanCopy, _ state: inout State, sent: UInt64, using generator: inout SplitMix64
    ) -> (PlanOperation, Pending)? {
        guard let task = pick(copy, state, using: &generator, where: { $0.progress != nil }),
            case .activity(let schedule, let progress) = task.kind
        else { return nil }
        var previous = state.originals[task.id] ?? task
        if previous == task {
            previous.kind = .activity(schedule: schedule, progress: progress >= 50 ? progress - 1 : progress + 1)
        }
        var proposed = previous
        proposed.title = "stale sent=\(sent)"
        return (
            .replace(previous: previous, proposed: proposed),
            Pending(sent: sent, kind: "stale", stale: true, busy: [task.id])
        )
    }

    /// In an automatic plan, a task moved to start a week before its finish-to-start
    /// predecessor starts: it must be rejected `scheduleConflict`. Both tasks are this editor's
    /// (no other editor moves them; the cascades of others only move them later) and held busy.
    func conflictProposal(
        _ copy: ClientPlanCopy, _ state: State, sent: UInt64, using generator: inout SplitMix64
    ) -> (PlanOperation, Pending)? {
        guard copy.snapshot.settings.isAutomatic else { return nil }
        let byID = Dictionary(copy.tasks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let candidates = copy.dependencies.filter { dependency in
            dependency.type == .finishToStart && dependency.lag >= 0 && owns(dependency.predecessorID)
                && owns(dependency.successorID) && !state.busy.contains(dependency.predecessorID)
                && !state.busy.contains(dependency.successorID)
                && byID[dependency.predecessorID]?.schedule != nil && byID[dependency.successorID]?.schedule != nil
        }
        guard let dependency = candidates.randomElement(using: &generator),
            let predecessor = byID[dependency.predecessorID], let task = byID[dependency.successorID],
            case .activity(let schedule?, let progress) = task.kind,
            let start = try? predecessor.schedule!.start.adding(days: -7),
            let moved = try? TaskSchedule(start: start, days: schedule.days)
        else { return nil }
        var pending = Pending(sent: sent, kind: "conflict", stale: false, busy: [task.id, predecessor.id])
        pending.conflict = true
        return (
            .replace(previous: task, proposed: task.with(kind: .activity(schedule: moved, progress: progress))), pending
        )
    }

    /// Moves a task's dates (or a milestone's day) by a few days.
    func datesProposal(
        _ copy: ClientPlanCopy, _ state: State, sent: UInt64, using generator: inout SplitMix64
    ) -> (PlanOperation, Pending)? {
        guard let task = pick(copy, state, using: &generator, where: { !$0.kind.isSummary }) else { return nil }
        var proposed = task
        let shift = Int.random(in: 1...5, using: &generator) * (Bool.random(using: &generator) ? 1 : -1)
        switch task.kind {
        case .activity(let schedule, let progress):
            let start =
                schedule.flatMap { try? $0.start.adding(days: shift) } ?? (try? CivilDate("2026-09-15"))
            guard let start, let moved = try? TaskSchedule(start: start, days: schedule?.days ?? 5) else {
                return nil
            }
            proposed.kind = .activity(schedule: moved, progress: progress)
        case .milestone(let date):
            guard let moved = try? date.adding(days: shift) else { return nil }
            proposed.kind = .milestone(date: moved)
        case .summary:
            return nil
        }
        return replace(task, proposed, kind: "dates", sent: sent)
    }

    /// Links a task without predecessors (that can never close a cycle) to another, some links
    /// typed and lagged.
    func linkProposal(
        _ copy: ClientPlanCopy, _ state: State, sent: UInt64, using generator: inout SplitMix64
    ) -> (PlanOperation, Pending)? {
        // Link from a task without predecessors: that can never close a cycle.
        let dependencies = copy.dependencies
        let successors = Set(dependencies.map(\.successorID))
        guard
            let from = pick(
                copy, state, using: &generator, where: { !$0.kind.isSummary && !successors.contains($0.id) }),
            let to = pick(copy, state, using: &generator, where: { !$0.kind.isSummary && $0.id != from.id })
        else { return nil }
        // One link in three typed, with a lag of 0…2 working days (in an automatic plan the
        // successor is pushed as its type and lag ask).
        let typed = Int.random(in: 0..<3, using: &generator) == 0
        let dependency = TaskDependency(
            predecessorID: from.id, successorID: to.id,
            type: typed ? DependencyType.allCases.randomElement(using: &generator)! : .finishToStart,
            lag: typed ? Int.random(in: 0...2, using: &generator) : 0)
        guard !dependencies.contains(where: { $0.pair == dependency.pair }) else { return nil }
        return (.link(dependency), Pending(sent: sent, kind: "link", stale: false, busy: [from.id, to.id]))
    }

    /// Removes a dependency between two tasks this editor owns.
    func unlinkProposal(
        _ copy: ClientPlanCopy, _ state: State, sent: UInt64, using generator: inout SplitMix64
    ) -> (PlanOperation, Pending)? {
        let mine = copy.dependencies.filter {
            owns($0.predecessorID) && owns($0.successorID) && !state.busy.contains($0.predecessorID)
                && !state.busy.contains($0.successorID)
        }
        guard let dependency = mine.randomElement(using: &generator) else { return nil }
        return (
            .unlink(dependency),
            Pending(
                sent: sent, kind: "unlink", stale: false, busy: [dependency.predecessorID, dependency.successorID])
        )
    }
}
