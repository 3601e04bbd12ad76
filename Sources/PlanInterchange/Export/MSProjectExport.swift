import ChronoSketchCore

/// The plan as MS Project XML (interchange.md §8): one that MS Project opens without rescheduling
/// (a manual plan's tasks are manually scheduled; an automatic plan's start no earlier than their
/// start, which is what a push-only plan is), that re-imports to the same plan position by
/// position, and whose calendar is the plan's.
public enum MSProjectExport {
    /// The document and what it could not hold.
    public static func document(_ plan: PlanDocument) -> (text: String, warnings: [ImportWarning]) {
        var output = ExportOutput()
        let warnings = write(plan, to: &output)
        return (output.finish(), warnings)
    }

    /// Writes the document to `output` (the caller finishes it); returns what it could not hold.
    public static func write(_ plan: PlanDocument, to output: inout ExportOutput) -> [ImportWarning] {
        var log = WarningLog()
        let state = plan.state
        let tasks = state.tasks
        let time = WorkingTime(state.settings.calendar)
        var order: [(id: String, depth: Int)] = []
        tasks.forEachDepthFirst(collapsed: []) { position, depth in order.append((tasks.tasks[position].id, depth)) }
        let uids = numbers(for: order.map(\.id))
        var xml = XMLWriter(output)
        xml.open("Project", attributes: [("xmlns", MSProjectImport.namespace)])
        xml.leaf("SaveVersion", "14")
        xml.leaf("Title", plan.title)
        xml.leaf("ScheduleFromStart", "1")
        xml.leaf("CalendarUID", "1")
        xml.leaf("DefaultStartTime", "08:00:00")
        xml.leaf("DefaultFinishTime", "17:00:00")
        xml.leaf("MinutesPerDay", "480")
        xml.leaf("MinutesPerWeek", String(480 * state.settings.calendar.workingDays.count))
        xml.leaf("NewTasksAreManual", state.settings.isAutomatic ? "0" : "1")
        writeCalendar(state.settings.calendar, into: &xml)
        xml.open("Tasks")
        writeProjectSummary(plan.title, into: &xml)
        for (row, (id, depth)) in order.enumerated() {
            let task = tasks[id]!
            writeTask(
                task, uid: uids[id]!, row: row + 1, depth: depth, tasks: tasks, automatic: state.settings.isAutomatic,
                time: time,
                links: tasks.predecessorIDs(of: id).compactMap { predecessor in
                    tasks.dependency(from: predecessor, to: id).map { ($0, uids[predecessor]!) }
                }, into: &xml, log: &log)
        }
        xml.close("Tasks")
        writeResources(state, taskUIDs: uids, into: &xml, log: &log)
        xml.close("Project")
        output = xml.output
        return log.warnings
    }

    /// UIDs for ids: the ids themselves when all are distinct positive integers (a plan imported
    /// from MS Project keeps its UIDs through a round trip), else 1, 2, … in order.
    static func numbers(for ids: [String]) -> [String: String] {
        let numeric = ids.compactMap { Int($0) }.filter { $0 > 0 && $0 < Int(Int32.max) }
        if numeric.count == ids.count, Set(numeric).count == ids.count, ids.allSatisfy({ String(Int($0)!) == $0 }) {
            return Dictionary(uniqueKeysWithValues: ids.map { ($0, $0) })
        }
        return Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($0.element, String($0.offset + 1)) })
    }

    private static func writeProjectSummary(_ title: String, into xml: inout XMLWriter) {
        xml.open("Task")
        xml.leaf("UID", "0")
        xml.leaf("ID", "0")
        xml.leaf("Name", title)
        xml.leaf("OutlineLevel", "0")
        xml.leaf("Summary", "1")
        xml.close("Task")
    }

    /// One task row (§8): dates as MS Project shows them, the duration in working hours of the
    /// plan calendar, its links in.
    private static func writeTask(
        _ task: GanttTask, uid: String, row: Int, depth: Int, tasks: TaskCollection, automatic: Bool, time: WorkingTime,
        links: [(TaskDependency, String)], into xml: inout XMLWriter, log: inout WarningLog
    ) {
        let shown = ShownRow(task, in: tasks)
        xml.open("Task")
        xml.leaf("UID", uid)
        xml.leaf("ID", String(row))
        xml.leaf("Name", task.title)
        xml.leaf("Manual", automatic && task.kind.isPlacedByCalendar ? "0" : "1")
        xml.leaf("OutlineLevel", String(depth + 1))
        xml.leaf("Summary", task.kind.isSummary ? "1" : "0")
        if case .milestone(let date) = task.kind {
            xml.leaf("Milestone", "1")
            xml.leaf("Start", "\(date)T08:00:00")
            xml.leaf("Finish", "\(date)T08:00:00")
            xml.leaf("Duration", "PT0H0M0S")
        } else if let start = shown.start, let end = shown.end, let last = try? end.adding(days: -1) {
            xml.leaf("Milestone", "0")
            xml.leaf("Start", "\(start)T08:00:00")
            xml.leaf("Finish", "\(max(start, last))T17:00:00")
            xml.leaf("Duration", "PT\(8 * max(1, time.workingDays(from: start, to: end)))H0M0S")
        } else {
            xml.leaf("Milestone", "0")
        }
        if let progress = shown.progress {
            let whole = Int(progress.rounded())
            if Double(whole) != progress {
                log.add("progressRounded", "the progress \(progress) of \(task.id) is written as \(whole) %")
            }
            xml.leaf("PercentComplete", String(whole))
        }
        if automatic, task.kind.isPlacedByCalendar, let start = shown.start {
            xml.leaf("ConstraintType", "4")
            xml.leaf("ConstraintDate", "\(start)T08:00:00")
        }
        for (dependency, predecessorUID) in links {
            xml.open("PredecessorLink")
            xml.leaf("PredecessorUID", predecessorUID)
            xml.leaf("Type", typeCode(dependency.type))
            xml.leaf("CrossProject", "0")
            xml.leaf("LinkLag", String(dependency.lag * 4800))
            xml.leaf("LagFormat", "7")
            xml.close("PredecessorLink")
        }
        xml.close("Task")
    }

    /// MSPDI `Type`: 0 FF, 1 FS, 2 SF, 3 SS.
    static func typeCode(_ type: DependencyType) -> String {
        switch type {
        case .finishToFinish: "0"
        case .finishToStart: "1"
        case .startToFinish: "2"
        case .startToStart: "3"
        }
    }
}

extension GanttTaskKind {
    /// A milestone or a scheduled activity (what a calendar places).
    var isPlacedByCalendar: Bool {
        switch self {
        case .milestone, .activity(_?, _): true
        default: false
        }
    }
}
