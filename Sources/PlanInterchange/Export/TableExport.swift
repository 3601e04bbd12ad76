import ChronoSketchCore

/// What a row of the plan shows (semantics.md's derived values), for the exports that write one
/// line per task: an activity's schedule and progress, a milestone's date, a summary's derived
/// bounds and progress.
struct ShownRow {
    let task: GanttTask
    let start: CivilDate?
    /// Exclusive.
    let end: CivilDate?
    let progress: Double?

    init(_ task: GanttTask, in tasks: TaskCollection) {
        self.task = task
        switch task.kind {
        case .activity(let schedule, let progress):
            (start, end, self.progress) = (schedule?.start, schedule?.end, progress)
        case .milestone(let date):
            (start, end, progress) = (date, date, nil)
        case .summary:
            let values = tasks.summaryValues(of: task.id)
            (start, end, progress) = (values?.start, values?.end, values?.progress)
        }
    }

    /// `activity`, `milestone` or `summary`.
    var kindName: String {
        switch task.kind {
        case .activity: "activity"
        case .milestone: "milestone"
        case .summary: "summary"
        }
    }
}

/// The plan as CSV (interchange.md §9): RFC 4180 (CRLF, fields quoted when they hold a comma, a
/// quote or a line break), UTF-8, a header row, one row per task in input order. A text cell
/// that a spreadsheet would run as a formula gets a leading apostrophe.
public enum CSVExport {
    /// The columns, in order.
    public static let header = ["id", "title", "kind", "parentID", "start", "end", "progress"]

    /// The document.
    public static func document(_ plan: PlanDocument) -> String {
        var output = ExportOutput()
        write(plan, to: &output)
        return output.finish()
    }

    /// Writes the document to `output` (the caller finishes it).
    public static func write(_ plan: PlanDocument, to output: inout ExportOutput) {
        let tasks = plan.state.tasks
        output.write(header.joined(separator: ",") + "\r\n")
        for task in tasks.tasks {
            let row = ShownRow(task, in: tasks)
            let cells = [
                text(task.id), text(task.title), row.kindName, text(task.parentID ?? ""),
                row.start.map(\.description) ?? "", row.end.map(\.description) ?? "",
                row.progress.map(number) ?? "",
            ]
            output.write(cells.map(quoted).joined(separator: ",") + "\r\n")
        }
    }

    /// A text cell made safe from formula injection (OWASP "CSV injection").
    static func text(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return value }
        return "'" + value
    }

    /// A field quoted when it must be.
    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else {
            return field
        }
        return "\"" + field.replacingAll("\"", with: "\"\"") + "\""
    }

    /// A progress as written: whole numbers without a fraction.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension String {
    /// Every `target` replaced by `replacement`.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
