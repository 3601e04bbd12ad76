import ChronoSketchCore

extension PlanDocument {
    /// The first value of the document that breaks a limit every proposal is held to, as
    /// `path: reason` (`tasks[3].title: is longer than 1000 Unicode scalars`), or nil when none
    /// does. An import must meet them too: a task whose title is over the limit could never be
    /// edited afterwards (every proposal naming it would be refused).
    public func limitProblem(_ limits: ProtocolLimits) -> String? {
        var check = DocumentLimitCheck(limits: limits)
        check.title(title, "title")
        let tasks = state.tasks
        if tasks.count > limits.maxTasksPerPlan {
            return
                "tasks: \(tasks.count) tasks, more than the \(limits.maxTasksPerPlan) a plan may hold (maxTasksPerPlan)"
        }
        for (index, task) in tasks.tasks.enumerated() {
            check.id(task.id, "tasks[\(index)].id")
            check.title(task.title, "tasks[\(index)].title")
        }
        for (index, resource) in state.timeline.resources.enumerated() {
            check.id(resource.id, "resources[\(index)].id")
            check.title(resource.label, "resources[\(index)].label")
        }
        var assignmentsPerEntry: [String: Int] = [:]
        for (index, entry) in state.timeline.entries.enumerated() {
            check.id(entry.id, "entries[\(index)].id")
            check.title(entry.title, "entries[\(index)].title")
        }
        for (index, assignment) in state.timeline.assignments.enumerated() {
            check.id(assignment.id, "assignments[\(index)].id")
            assignmentsPerEntry[assignment.entryID, default: 0] += 1
        }
        if let problem = check.problem { return problem }
        if let (entry, count) = assignmentsPerEntry.first(where: { $0.value > limits.maxAssignmentsPerEntry }) {
            return "assignments: entry \(quoted(entry)) has \(count), more than the \(limits.maxAssignmentsPerEntry) "
                + "an entry may have (maxAssignmentsPerEntry)"
        }
        return nil
    }
}

/// Collects the first id or title over its limit.
private struct DocumentLimitCheck {
    let limits: ProtocolLimits
    var problem: String?

    mutating func id(_ id: String, _ path: String) {
        guard problem == nil, let reason = limits.idProblem(id) else { return }
        problem = "\(path): \(reason)"
    }

    mutating func title(_ title: String, _ path: String) {
        guard problem == nil, let reason = limits.titleProblem(title) else { return }
        problem = "\(path): \(reason)"
    }
}
