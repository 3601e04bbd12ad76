import ChronoSketchCore

extension PlanOperation {
    /// The first id or title in the op that is longer than `limits` allow, as a `badMessage`
    /// failure naming its field (such as `op.proposed.title`); nil when every one fits.
    ///
    /// Only the upper bounds are checked here: empty or blank ids are judged by the domain rules,
    /// which give them more precise codes (`blankID`, `invalidHierarchy`, `invalidDependency`, …).
    public func limitFailure(_ limits: ProtocolLimits, path: String = "op") -> DecodingFailure? {
        var check = LimitCheck(limits: limits)
        switch self {
        case .replace(let previous, let proposed):
            check.task(previous, "\(path).previous")
            check.task(proposed, "\(path).proposed")
        case .add(let task):
            check.task(task, "\(path).task")
        case .reorder(let previous, let target, _):
            check.task(previous, "\(path).previous")
            check.task(target, "\(path).relativeTo")
        case .remove(let previous):
            check.task(previous, "\(path).previous")
        case .link(let dependency), .unlink(let dependency):
            check.id(dependency.predecessorID, "\(path).dependency.predecessorID")
            check.id(dependency.successorID, "\(path).dependency.successorID")
        case .relink(let previous, let proposed):
            for (dependency, name) in [(previous, "previous"), (proposed, "proposed")] {
                check.id(dependency.predecessorID, "\(path).\(name).predecessorID")
                check.id(dependency.successorID, "\(path).\(name).successorID")
            }
        case .timelineApply(let original, let proposed):
            for (half, name) in [(original, "original"), (proposed, "proposed")] {
                check.entry(half.entry, "\(path).\(name).entry")
                check.assignment(half.assignment, "\(path).\(name).assignment")
            }
        case .timelineAdd(let entry, let assignments):
            check.entry(entry, "\(path).entry")
            for (index, assignment) in assignments.enumerated() {
                check.assignment(assignment, "\(path).assignments[\(index)]")
            }
        case .timelineRemove(let entry):
            check.entry(entry, "\(path).entry")
        case .restore:
            // Built by the server for an undo; a client adds with `add` (appended) and `link`.
            return DecodingFailure(path: "\(path).before", reason: "an add with a place is built only by undo")
        case .restoring:
            // Built by the server for an undo of a cascade (scheduling.md §5); never sent.
            return DecodingFailure(path: "\(path).restores", reason: "restores are built only by undo")
        case .settingsReplace, .baselineSet, .baselineRemove, .undo:
            break
        }
        return check.failure
    }

    /// Why the op is too large to judge under `limits` (the proposal is then `rejected`
    /// `tooLarge`), or nil when it is not: a `timeline.add` with more than
    /// `maxAssignmentsPerEntry` assignments.
    ///
    /// Every other op names a fixed number of values; what they cost is bounded by the plan's
    /// own limits (an entry never gets more assignments than one `timeline.add` may bring).
    public func sizeProblem(_ limits: ProtocolLimits) -> String? {
        guard case .timelineAdd(let entry, let assignments) = self,
            assignments.count > limits.maxAssignmentsPerEntry
        else { return nil }
        return
            "entry \"\(entry.id)\" has \(assignments.count) assignments, more than the \(limits.maxAssignmentsPerEntry) "
            + "an entry may have (maxAssignmentsPerEntry)"
    }
}

/// Collects the first limit violation.
private struct LimitCheck {
    let limits: ProtocolLimits
    var failure: DecodingFailure?

    init(limits: ProtocolLimits) {
        self.limits = limits
    }

    mutating func id(_ id: String, _ path: String) {
        guard failure == nil, !id.unicodeScalars.hasAtMost(limits.maxIDLength) else { return }
        failure = DecodingFailure(path: path, reason: "is longer than \(limits.maxIDLength) Unicode scalars")
    }

    mutating func title(_ title: String, _ path: String) {
        guard failure == nil, let problem = limits.titleProblem(title) else { return }
        failure = DecodingFailure(path: path, reason: problem)
    }

    mutating func task(_ task: GanttTask, _ path: String) {
        id(task.id, "\(path).id")
        title(task.title, "\(path).title")
        if let parentID = task.parentID { id(parentID, "\(path).parentID") }
    }

    mutating func entry(_ entry: TimelineEntry, _ path: String) {
        id(entry.id, "\(path).id")
        title(entry.title, "\(path).title")
    }

    mutating func assignment(_ assignment: TimelineAssignment, _ path: String) {
        id(assignment.id, "\(path).id")
        id(assignment.entryID, "\(path).entryID")
        id(assignment.resourceID, "\(path).resourceID")
    }
}
