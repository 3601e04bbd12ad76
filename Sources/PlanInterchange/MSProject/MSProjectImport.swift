import ChronoSketchCore

/// Imports an MS Project XML (MSPDI) document as a plan (interchange.md §2–§7): tasks, typed and
/// lagged dependencies, the project calendar, resources, and assignments as bookings. The plan
/// is manual (the file's dates are kept as they are); every loss is reported.
public enum MSProjectImport {
    /// The MSPDI namespace.
    public static let namespace = "http://schemas.microsoft.com/project"

    /// Every element the importer reads: the reader keeps these only, so that what MS Project
    /// writes besides (baselines, timephased data, extended attributes, working times) costs no
    /// memory. A test checks that every name the importer's sources use is here.
    static let elementsRead: Set<String> = [
        "Assignment",
        "Assignments",
        "BaseCalendarUID",
        "Calendar",
        "CalendarUID",
        "Calendars",
        "CrossProject",
        "DayType",
        "DayWorking",
        "DaysOfWeek",
        "Duration",
        "Exception",
        "Exceptions",
        "Finish",
        "FromDate",
        "ID",
        "IsNull",
        "LagFormat",
        "LinkLag",
        "Milestone",
        "MinutesPerDay",
        "Month",
        "MonthDay",
        "MonthItem",
        "MonthPosition",
        "Name",
        "Occurrences",
        "OutlineLevel",
        "PercentComplete",
        "Period",
        "PredecessorLink",
        "PredecessorUID",
        "Project",
        "Resource",
        "ResourceUID",
        "Resources",
        "Standard",
        "Start",
        "Summary",
        "Task",
        "TaskUID",
        "Tasks",
        "TimePeriod",
        "Title",
        "ToDate",
        "Type",
        "UID",
        "Units",
        "WeekDay",
        "WeekDays",
        "WorkWeek",
        "WorkWeeks",
    ]

    /// What the reader keeps of an MSPDI document: the elements read, with the rows of the
    /// large tables handed over one by one (`MSProjectRecords`).
    static let selection = XMLSelection(kept: elementsRead, records: MSProjectRecords.names)

    /// Reads the plan from a whole document's root element (`Project`).
    /// - Throws: `ImportError` for a root that is not an MSPDI `Project`, or data that breaks a
    ///   plan rule.
    public static func plan(from project: XMLElement) throws(ImportError) -> ImportedPlan {
        try plan(from: project, records: MSProjectRecords(of: project))
    }

    /// Reads the plan from the root element (`Project`, its tables left out) and the tables' rows.
    static func plan(from project: XMLElement, records: MSProjectRecords) throws(ImportError) -> ImportedPlan {
        guard project.name == "Project", project.namespace == namespace || project.namespace.isEmpty else {
            throw ImportError("the XML is not MS Project XML: its root is <\(project.name)>, not <Project>")
        }
        var log = WarningLog()
        let rows = try MSProjectTasks(records.tasks, log: &log)
        let calendar = MSProjectCalendar.projectCalendar(of: project).planCalendar(
            near: span(of: rows.tasks), log: &log)
        let dependencies = MSProjectLinks.dependencies(
            of: rows, minutesPerDay: project.integer("MinutesPerDay") ?? 480, time: WorkingTime(calendar), log: &log)
        let tasks: TaskCollection
        do {
            tasks = try TaskCollection(rows.tasks, dependencies: dependencies)
        } catch {
            throw ImportError("the file's tasks break a plan rule: \(error)")
        }
        let (timeline, links) = try MSProjectResources.timeline(of: records, tasks: rows, log: &log)
        let state = PlanState(
            tasks: tasks, timeline: timeline, settings: PlanSettings(scheduling: .manual, calendar: calendar),
            entryTasks: links)
        return ImportedPlan(
            document: PlanDocument(title: title(of: project, rows: rows), state: state), warnings: log.warnings)
    }

    /// `Title`, else `Name` without a file extension, else the project summary task's name; ""
    /// when all are blank (the caller then uses the plan id).
    static func title(of project: XMLElement, rows: MSProjectTasks) -> String {
        if let title = project.value("Title"), !title.trimmingSpaces.isEmpty { return title }
        if var name = project.value("Name"), !name.trimmingSpaces.isEmpty {
            for suffix in [".xml", ".mpp", ".mpx"] where name.lowercased().hasSuffix(suffix) {
                name.removeLast(suffix.count)
            }
            if !name.trimmingSpaces.isEmpty { return name }
        }
        return rows.projectSummaryName ?? ""
    }

    /// The first start and last end of the dated tasks, if any.
    static func span(of tasks: [GanttTask]) -> ClosedRange<CivilDate>? {
        var dates: [CivilDate] = []
        for task in tasks {
            switch task.kind {
            case .activity(let schedule?, _): dates += [schedule.start, schedule.end]
            case .milestone(let date): dates.append(date)
            default: break
            }
        }
        guard let first = dates.min(), let last = dates.max() else { return nil }
        return first...last
    }
}

/// MSPDI resources and assignments as the plan's resources and bookings (interchange.md §6).
enum MSProjectResources {
    /// The resources (not UID 0, not blank rows) and one booking per task and interval, each
    /// linked to its task.
    static func timeline(of records: MSProjectRecords, tasks: MSProjectTasks, log: inout WarningLog)
        throws(ImportError) -> (TimelineData, EntryTaskLinks)
    {
        do {
            return try read(records, tasks: tasks, log: &log)
        } catch {
            throw ImportError("the file's resources and assignments break a plan rule: \(error)")
        }
    }

    private static func read(_ records: MSProjectRecords, tasks: MSProjectTasks, log: inout WarningLog)
        throws(TimelineError) -> (TimelineData, EntryTaskLinks)
    {
        var resources: [TimelineResource] = []
        var kept: Set<Int> = []
        for resource in records.resources {
            guard let uid = resource.uid, uid != 0, !resource.isNull, kept.insert(uid).inserted else { continue }
            resources.append(try TimelineResource(id: String(uid), label: resource.name ?? ""))
        }
        var entries: [TimelineEntry] = []
        var assignments: [TimelineAssignment] = []
        var entryByInterval: [String: String] = [:]
        var entryIDs: Set<String> = []
        var links = EntryTaskLinks()
        for assignment in records.assignments {
            guard let resourceUID = assignment.resourceUID, kept.contains(resourceUID),
                let taskUID = assignment.taskUID, let position = tasks.positionByUID[taskUID]
            else { continue }
            let task = tasks.tasks[position]
            let row = tasks.rows[position].record
            guard let start = MSProjectDates.dateTime(assignment.start ?? row.start),
                let end = MSProjectDates.dateTime(assignment.finish ?? row.finish), end > start
            else {
                log.add("emptyAssignment", "an assignment of \(task.id) without an interval is dropped")
                continue
            }
            if let units = assignment.units, abs(units - 1) > 1e-9 {
                log.add(
                    "assignmentUnits",
                    "an assignment of \(task.id) at \(Int((units * 100).rounded())) % is booked whole")
            }
            let key = "\(task.id)\u{0}\(start)\u{0}\(end)"
            var entryID = entryByInterval[key]
            if entryID == nil {
                let id = entryIDs.contains(task.id) ? "\(task.id)-\(entries.count + 1)" : task.id
                entryIDs.insert(id)
                entries.append(try TimelineEntry(id: id, title: task.title, start: start, end: end))
                links.link(entry: id, task: task.id)
                entryByInterval[key] = id
                entryID = id
            }
            let id = assignment.uid.map { "a\($0)" } ?? "a-\(assignments.count + 1)"
            assignments.append(try TimelineAssignment(id: id, entryID: entryID!, resourceID: String(resourceUID)))
        }
        // The whole is validated here (ids unique, assignments naming what exists).
        return (try TimelineData(resources: resources, entries: entries, assignments: assignments), links)
    }
}
