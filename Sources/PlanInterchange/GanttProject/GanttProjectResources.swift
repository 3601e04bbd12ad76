import ChronoSketchCore

/// `.gan` resources, allocations and vacations as the plan's resources and bookings
/// (interchange.md §6): an allocation books the task's whole days, a vacation is an entry
/// "Vacation" from its first day to the day after its last.
enum GanttProjectResources {
    /// The resources and bookings (an allocation's linked to its task); `tasks` gives each
    /// allocated task's days.
    static func timeline(of project: XMLElement, tasks: TaskCollection, log: inout WarningLog) throws(ImportError)
        -> (TimelineData, EntryTaskLinks)
    {
        do {
            return try read(project, tasks: tasks, log: &log)
        } catch {
            throw ImportError("the file's resources and allocations break a plan rule: \(error)")
        }
    }

    private static func read(_ project: XMLElement, tasks: TaskCollection, log: inout WarningLog) throws(TimelineError)
        -> (TimelineData, EntryTaskLinks)
    {
        var resources: [TimelineResource] = []
        var kept: Set<String> = []
        for element in project.child("resources")?.children("resource") ?? [] {
            guard let id = element.attributes["id"], !GanttTask.isBlank(id), kept.insert(id).inserted else { continue }
            resources.append(try TimelineResource(id: id, label: element.attributes["name"] ?? ""))
        }
        var entries: [TimelineEntry] = []
        var entryIDs: Set<String> = []
        var assignments: [TimelineAssignment] = []
        var links = EntryTaskLinks()
        for allocation in project.child("allocations")?.children("allocation") ?? [] {
            guard let taskID = allocation.attributes["task-id"], let task = tasks[taskID],
                let resourceID = allocation.attributes["resource-id"], kept.contains(resourceID)
            else { continue }
            guard let days = days(of: task, in: tasks) else {
                log.add("emptyAssignment", "an allocation to \(task.id), which has no days, is dropped")
                continue
            }
            if let load = Double(allocation.attributes["load"] ?? ""), abs(load - 100) > 1e-9 {
                log.add("assignmentUnits", "an allocation to \(task.id) at \(load) % is booked whole")
            }
            if entryIDs.insert(task.id).inserted {
                entries.append(
                    try TimelineEntry(
                        id: task.id, title: task.title, start: LocalDateTime(startOf: days.start),
                        end: LocalDateTime(startOf: days.end)))
                links.link(entry: task.id, task: task.id)
            }
            assignments.append(
                try TimelineAssignment(id: "a\(assignments.count + 1)", entryID: task.id, resourceID: resourceID))
        }
        for vacation in project.child("vacations")?.children("vacation") ?? [] {
            guard let resourceID = vacation.attributes["resourceid"], kept.contains(resourceID),
                let start = CivilDate.parsed(vacation.attributes["start"]),
                let last = CivilDate.parsed(vacation.attributes["end"]), last >= start,
                let end = try? last.adding(days: 1)
            else { continue }
            var id = "vacation-\(entries.count + 1)"
            while entryIDs.contains(id) { id += "-v" }
            entryIDs.insert(id)
            entries.append(
                try TimelineEntry(
                    id: id, title: "Vacation", start: LocalDateTime(startOf: start), end: LocalDateTime(startOf: end)))
            assignments.append(
                try TimelineAssignment(id: "a\(assignments.count + 1)", entryID: id, resourceID: resourceID))
        }
        return (try TimelineData(resources: resources, entries: entries, assignments: assignments), links)
    }

    /// A task's days: an activity's schedule, a summary's derived bounds; nil for a milestone or
    /// a task without dates.
    private static func days(of task: GanttTask, in tasks: TaskCollection) -> (start: CivilDate, end: CivilDate)? {
        switch task.kind {
        case .activity(let schedule?, _): return (schedule.start, schedule.end)
        case .summary:
            guard let values = tasks.summaryValues(of: task.id), let start = values.start, let end = values.end else {
                return nil
            }
            return (start, end)
        default: return nil
        }
    }
}
