import ChronoSketchCore

/// Imports a GanttProject `.gan` document as a plan (interchange.md §2–§7): tasks in depth-first
/// order, meetings as milestones, `depend` links with their types and differences, the week and
/// holidays, resources, allocations and vacations as bookings. The plan is manual.
public enum GanttProjectImport {
    /// A task element met in depth-first order, with its parent's position.
    struct Row {
        let element: XMLElement
        let parent: Int?
        var id: String { element.attributes["id"] ?? "" }
    }

    /// Reads the plan from the document's root element (`project`).
    /// - Throws: `ImportError` for another root, or data that breaks a plan rule.
    public static func plan(from project: XMLElement) throws(ImportError) -> ImportedPlan {
        guard project.name == "project", project.namespace.isEmpty else {
            throw ImportError("the XML is not a GanttProject file: its root is <\(project.name)>, not <project>")
        }
        var log = WarningLog()
        var rows: [Row] = []
        collect(project.child("tasks")?.children("task") ?? [], parent: nil, into: &rows)
        let starts = rows.compactMap { CivilDate.parsed($0.element.attributes["start"]) }
        // Yearly holidays are held as dates over the plan's years (two centuries at most).
        let years = starts.min().map { $0.year...min(starts.max()!.year + 1, $0.year + 200) }
        let calendar = GanttProjectCalendar.read(project, years: years, log: &log)
        let time = WorkingTime(calendar)
        var tasks: [GanttTask] = []
        var seen: Set<String> = []
        for (position, row) in rows.enumerated() {
            guard !GanttTask.isBlank(row.id), seen.insert(row.id).inserted else {
                throw ImportError("a task on line \(row.element.line) has no id, or one used before")
            }
            let hasChildren = position + 1 < rows.count && rows[position + 1].parent == position
            do {
                tasks.append(
                    try GanttTask(
                        id: row.id, title: row.element.attributes["name"] ?? "",
                        parentID: row.parent.map { rows[$0].id },
                        kind: kind(of: row.element, summary: hasChildren, time: time)))
            } catch {
                throw ImportError("task \(row.id) (line \(row.element.line)): \(error)")
            }
        }
        let dependencies = links(rows, tasks: tasks, log: &log)
        let collection: TaskCollection
        do {
            collection = try TaskCollection(tasks, dependencies: dependencies)
        } catch {
            throw ImportError("the file's tasks break a plan rule: \(error)")
        }
        let (timeline, links) = try GanttProjectResources.timeline(of: project, tasks: collection, log: &log)
        let state = PlanState(
            tasks: collection, timeline: timeline, settings: PlanSettings(scheduling: .manual, calendar: calendar),
            entryTasks: links)
        let title = project.attributes["name"] ?? ""
        return ImportedPlan(document: PlanDocument(title: title, state: state), warnings: log.warnings)
    }

    /// Every `task` element, parents before their children.
    private static func collect(_ elements: [XMLElement], parent: Int?, into rows: inout [Row]) {
        for element in elements {
            rows.append(Row(element: element, parent: parent))
            collect(element.children("task"), parent: rows.count - 1, into: &rows)
        }
    }

    /// A summary (derived), a meeting (a milestone on its start), or an activity from `start`
    /// whose exclusive end is the day after its `duration`-th working day.
    private static func kind(of element: XMLElement, summary: Bool, time: WorkingTime) -> GanttTaskKind {
        if summary || element.attributes["project"] == "true" { return .summary }
        let progress = min(100, max(0, Double(element.attributes["complete"] ?? "") ?? 0))
        guard let start = CivilDate.parsed(element.attributes["start"]) else {
            return .activity(schedule: nil, progress: progress)
        }
        if element.attributes["meeting"] == "true" { return .milestone(date: start) }
        let duration = min(100_000, Int(element.attributes["duration"] ?? "") ?? 0)
        var end = (try? start.adding(days: 1)) ?? start
        if duration > 0 {
            let first = time.workingDay(onOrAfter: start.dayNumber)
            if let placed = try? CivilDate(dayNumber: time.end(placingFrom: first, workingDays: duration)) {
                end = placed
            }
        }
        return .activity(schedule: try? TaskSchedule(start: start, end: end), progress: progress)
    }

    /// The `depend` elements (in the predecessor, naming the successor): type 1 SS, 2 FS, 3 FF,
    /// 4 SF; `difference` in days as the lag.
    private static func links(_ rows: [Row], tasks: [GanttTask], log: inout WarningLog) -> [TaskDependency] {
        var position: [String: Int] = [:]
        for (index, task) in tasks.enumerated() { position[task.id] = index }
        var result: [TaskDependency] = []
        var pairs: Set<DependencyPair> = []
        for (index, row) in rows.enumerated() {
            let predecessor = tasks[index]
            for depend in row.element.children("depend") {
                guard let successorIndex = position[depend.attributes["id"] ?? ""] else {
                    log.add("externalDependency", "a link from \(predecessor.id) to a missing task is dropped")
                    continue
                }
                let successor = tasks[successorIndex]
                guard !predecessor.kind.isSummary, !successor.kind.isSummary else {
                    log.add(
                        "summaryDependency",
                        "the link \(predecessor.id) → \(successor.id) touches a summary and is dropped")
                    continue
                }
                guard pairs.insert(DependencyPair(predecessorID: predecessor.id, successorID: successor.id)).inserted
                else {
                    log.add("duplicateDependency", "a second link \(predecessor.id) → \(successor.id) is dropped")
                    continue
                }
                var lag = Int(depend.attributes["difference"] ?? "") ?? 0
                if !TaskDependency.lagRange.contains(lag) {
                    lag = min(max(lag, TaskDependency.lagRange.lowerBound), TaskDependency.lagRange.upperBound)
                    log.add("lagClamped", "a lag after \(predecessor.id) beyond ±1000 days is clamped to \(lag)")
                }
                let type: DependencyType =
                    switch depend.attributes["type"] {
                    case "1": .startToStart
                    case "3": .finishToFinish
                    case "4": .startToFinish
                    default: .finishToStart
                    }
                result.append(
                    TaskDependency(predecessorID: predecessor.id, successorID: successor.id, type: type, lag: lag))
            }
        }
        return result
    }
}

extension CivilDate {
    /// The date `text` names (`2024-05-27`), if any.
    static func parsed(_ text: String?) -> CivilDate? {
        text.flatMap { try? CivilDate($0.trimmingSpaces) }
    }
}
