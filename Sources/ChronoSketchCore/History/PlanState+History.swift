extension PlanState {
    /// Applies a baseline op; `undo` cannot be applied (the server builds the inverse op).
    mutating func applyHistoryOperation(
        _ operation: PlanOperation, context: JudgingContext?
    ) throws(PlanOperationError) -> PlanChange {
        switch operation {
        case .baselineSet(let name, let version):
            guard let context else { throw .history(.badMessage, "a baseline is set only by the server's judge") }
            let named = version ?? context.version
            guard named <= context.version else {
                throw .history(.badMessage, "version \(named) is above the current version \(context.version)")
            }
            guard named >= context.logStart else {
                throw .history(.historyUnavailable, "version \(named) is older than the log (\(context.logStart))")
            }
            baselines.removeAll { $0.name == name }
            baselines.append(PlanBaseline(name: name, version: named, at: context.at))
            baselines.sort { $0.name < $1.name }
            return .baselines
        case .baselineRemove(let name):
            guard let index = baselines.firstIndex(where: { $0.name == name }) else {
                throw .history(.staleBaseline, "there is no baseline \"\(name)\"")
            }
            baselines.remove(at: index)
            return .baselines
        case .undo(let version):
            throw .history(.badMessage, "undo of version \(version) is resolved by the server, not applied")
        default:
            preconditionFailure("not a history operation")
        }
    }

    /// The op that reverts `operation` (protocol.md §10), formed from the data BEFORE it is
    /// applied; nil for baseline ops (`notUndoable`).
    public func inverse(of operation: PlanOperation) -> PlanOperation? {
        if let inverse = operation.inverseOfItself { return inverse }
        switch operation {
        case .restoring(let base, let restores):
            return inverse(of: base).map { .restoring($0, restores: restores.map(\.reversed)) }
        case .remove(let previous):
            return .restore(
                task: previous, before: tasks.idAfter(previous.id),
                dependencies: tasks.dependencies(touching: previous.id))
        case .reorder(let previous, _, _):
            return tasks.neighbour(of: previous.id).map {
                .reorder(previous: previous, relativeTo: $0.sibling, position: $0.position)
            }
        case .timelineRemove(let entry):
            return .timelineAdd(entry: entry, assignments: timeline.assignments(ofEntry: entry.id))
        default:
            return nil
        }
    }

    /// An inverse op from the log made ready to judge against this data: a reorder goes next to
    /// its former neighbour as that task is now (only the moved task's own value is judged for
    /// staleness), a restore goes before its former follower only while that exists and brings
    /// back only the dependencies whose other endpoint exists and that are not there again.
    public func undoOperation(from inverse: PlanOperation) -> PlanOperation {
        switch inverse {
        case .restoring(let base, let restores):
            return .restoring(undoOperation(from: base), restores: restores)
        case .reorder(let previous, let sibling, let position):
            return .reorder(
                previous: previous, relativeTo: tasks.task(withID: sibling.id) ?? sibling, position: position)
        case .restore(let task, let before, let dependencies):
            let exists = { (id: String) in id == task.id || tasks.task(withID: id) != nil }
            return .restore(
                task: task, before: before.flatMap { tasks.task(withID: $0) == nil ? nil : $0 },
                dependencies: dependencies.filter {
                    exists($0.predecessorID) && exists($0.successorID) && !tasks.dependencies.contains($0)
                })
        default:
            return inverse
        }
    }
}

extension PlanOperation {
    /// The op that reverts this one when the op alone says it (the values it replaced, the task or
    /// link it added or removed); nil when reverting needs the data it was applied to (a removal's
    /// place and dependencies, a reorder's former neighbour, a removed entry's assignments) or
    /// when it cannot be undone. The log stores only the inverses that need the data.
    public var inverseOfItself: PlanOperation? {
        switch self {
        case .replace(let previous, let proposed): .replace(previous: proposed, proposed: previous)
        case .add(let task), .restore(let task, _, _): .remove(previous: task)
        case .link(let dependency): .unlink(dependency)
        case .unlink(let dependency): .link(dependency)
        case .relink(let previous, let proposed): .relink(previous: proposed, proposed: previous)
        case .settingsReplace(let previous, let proposed): .settingsReplace(previous: proposed, proposed: previous)
        case .restoring(let base, let restores):
            base.inverseOfItself.map { .restoring($0, restores: restores.map(\.reversed)) }
        case .timelineApply(let original, let proposed): .timelineApply(original: proposed, proposed: original)
        case .timelineAdd(let entry, _): .timelineRemove(entry: entry)
        case .remove, .reorder, .timelineRemove, .baselineSet, .baselineRemove, .undo: nil
        }
    }
}
