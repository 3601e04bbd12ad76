import ChronoSketchCore

/// The task rows of an MSPDI file as the plan's tasks (interchange.md §3): row order by `ID`,
/// the tree from outline levels, summaries, milestones and activities with MS Project's dates.
struct MSProjectTasks {
    /// A kept row: its id (the `UID`), the file's row, and its outline level.
    struct Row {
        let id: String
        let record: MSProjectRecords.Task
        let level: Int
    }

    /// The kept rows in order, with their tasks.
    private(set) var rows: [Row] = []
    private(set) var tasks: [GanttTask] = []
    /// The kept rows' positions by UID.
    private(set) var positionByUID: [Int: Int] = [:]
    /// The title of the project summary task (UID 0), if any.
    private(set) var projectSummaryName: String?

    /// Reads the file's task rows.
    init(_ records: [MSProjectRecords.Task], log: inout WarningLog) throws(ImportError) {
        var records = records
        if records.allSatisfy({ $0.rowNumber != nil }) {
            // By row number; rows with equal numbers keep file order.
            records = records.enumerated().sorted {
                ($0.element.rowNumber!, $0.offset) < ($1.element.rowNumber!, $1.offset)
            }
            .map(\.element)
        }
        for record in records {
            let level = record.outlineLevel ?? 1
            if record.isNull {
                log.add("nullTask", "blank row \(record.rowNumber.map(String.init) ?? "?") skipped")
                continue
            }
            if record.uid == 0 || level == 0 {
                projectSummaryName = record.name
                continue
            }
            guard let uid = record.uid else { throw ImportError("a task on line \(record.line) has no UID") }
            guard positionByUID[uid] == nil else {
                throw ImportError("two tasks have the UID \(uid) (line \(record.line))")
            }
            positionByUID[uid] = rows.count
            rows.append(Row(id: String(uid), record: record, level: max(1, level)))
        }
        let parents = MSProjectTasks.parents(of: rows)
        var hasChildren = Set<Int>()
        for parent in parents { if let parent { hasChildren.insert(parent) } }
        for (position, row) in rows.enumerated() {
            let kind = MSProjectTasks.kind(of: row, summary: hasChildren.contains(position), log: &log)
            do {
                tasks.append(
                    try GanttTask(
                        id: row.id, title: row.record.name ?? "",
                        parentID: parents[position].map { rows[$0].id },
                        kind: kind))
            } catch {
                throw ImportError("task \(row.id) (line \(row.record.line)): \(error)")
            }
        }
    }

    /// Each row's parent: the nearest preceding kept row with a lower outline level.
    private static func parents(of rows: [Row]) -> [Int?] {
        var open: [Int] = []  // positions of the rows on the current path, by rising level
        var parents: [Int?] = []
        for (position, row) in rows.enumerated() {
            while let last = open.last, rows[last].level >= row.level { open.removeLast() }
            parents.append(open.last)
            open.append(position)
        }
        return parents
    }

    /// A row's kind: summary (derived), milestone on its start, or activity with MS Project's dates.
    private static func kind(of row: Row, summary hasChildren: Bool, log: inout WarningLog) -> GanttTaskKind {
        let record = row.record
        if hasChildren || record.isSummary { return .summary }
        let start = MSProjectDates.dateTime(record.start)
        let finish = MSProjectDates.dateTime(record.finish)
        let progress = min(100, max(0, record.percentComplete ?? 0))
        if record.isMilestone {
            guard let date = (start ?? finish)?.date else {
                log.add("undatedMilestone", "milestone \(row.id) has no date: it is an unscheduled activity")
                return .activity(schedule: nil, progress: progress)
            }
            if record.hasDuration {
                log.add("milestoneDuration", "milestone \(row.id) has a duration: only its start is kept")
            }
            return .milestone(date: date)
        }
        guard let start, let finish else { return .activity(schedule: nil, progress: progress) }
        return .activity(schedule: schedule(start: start, finish: finish), progress: progress)
    }

    /// Start's date to the exclusive end MS Project shows: `Finish` rounded up to a whole day,
    /// at least one day after the start.
    static func schedule(start: LocalDateTime, finish: LocalDateTime) -> TaskSchedule? {
        var end = finish.date
        if finish.hour != 0 || finish.minute != 0 { end = (try? end.adding(days: 1)) ?? end }
        if end <= start.date { end = (try? start.date.adding(days: 1)) ?? end }
        return try? TaskSchedule(start: start.date, end: end)
    }

    /// Whether an ISO 8601 duration (`PT8H0M0S`, `P1DT0H`) is above zero.
    static func isPositive(duration text: String?) -> Bool {
        guard let text else { return false }
        return text.contains { $0.isNumber && $0 != "0" }
    }
}
