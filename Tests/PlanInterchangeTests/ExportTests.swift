import ChronoSketchCore
import PlanTestSupport
import Testing

@testable import PlanInterchange

/// The exports: MS Project XML that re-imports to the same plan, CSV safe to open in a
/// spreadsheet, iCalendar folded and escaped as RFC 5545 says.
@Suite("Interchange: exports")
struct ExportTests {
    /// The plan as it reads back from its own MS Project XML export.
    static func roundTrip(_ plan: PlanDocument) throws -> (PlanDocument, [ImportWarning]) {
        let (text, warnings) = MSProjectExport.document(plan)
        return (try PlanImport.read(Array(text.utf8)).document, warnings)
    }

    /// A task's facts without its id: title, kind and dates, parent by position.
    static func facts(_ plan: PlanDocument) -> [String] {
        let tasks = plan.state.tasks
        return tasks.tasks.map { task in
            "\(task.title)|\(task.kind)|parent \(task.parentID.flatMap { tasks.position(of: $0) }.map(String.init) ?? "-")"
        }
    }

    /// The dependencies by positions, type and lag.
    static func links(_ plan: PlanDocument) -> [String] {
        let tasks = plan.state.tasks
        return tasks.dependencies.map {
            "\(tasks.position(of: $0.predecessorID)!)→\(tasks.position(of: $0.successorID)!) \($0.type.rawValue) \($0.lag)"
        }
    }

    @Test("an MS Project file imported, exported and imported again is the same plan, ids (UIDs) included")
    func msProjectRoundTrip() throws {
        let original = try PlanImport.read(try TestFiles.read(MSProjectImportTests.directory + "sample.xml")).document
        let (again, warnings) = try Self.roundTrip(original)
        #expect(again.state.tasks.tasks == original.state.tasks.tasks)
        #expect(again.state.tasks.dependencies == original.state.tasks.dependencies)
        #expect(again.state.settings == original.state.settings)
        #expect(again.state.timeline.resources == original.state.timeline.resources)
        #expect(again.title == original.title)
        // Its bookings remember their tasks, so they go out as assignments and come back.
        #expect(!original.state.entryTasks.isEmpty)
        #expect(Self.bookings(again) == Self.bookings(original))
        #expect(warnings.isEmpty)
    }

    /// Each booking's task, title, interval and resources, sorted (entry ids are the importer's).
    static func bookings(_ plan: PlanDocument) -> [String] {
        let timeline = plan.state.timeline
        return timeline.entries.map { entry in
            let resources = timeline.assignments(ofEntry: entry.id).map(\.resourceID).sorted()
            return
                "\(plan.state.entryTasks[entry: entry.id] ?? "-")|\(entry.title)|\(entry.start)–\(entry.end)|\(resources)"
        }.sorted()
    }

    @Test("a plan of ours with a calendar, links and fractional progress: the same facts back, bookings reported")
    func ourPlanRoundTrip() throws {
        var plan = Demo.document
        plan.state.settings = PlanSettings(
            scheduling: .automatic,
            calendar: try PlanCalendar(
                workingDays: [1, 2, 3, 4, 5],
                holidays: [try CivilDate("2026-09-14"), try CivilDate("2026-09-15"), try CivilDate("2026-12-25")]))
        var tasks = plan.state.tasks.tasks
        tasks.append(try GanttTask(id: "half", title: "Half", kind: .activity(schedule: nil, progress: 12.5)))
        plan.state.tasks = try TaskCollection(tasks, dependencies: plan.state.tasks.dependencies)
        let (again, warnings) = try Self.roundTrip(plan)
        // Progress is whole in MS Project: 12.5 comes back as 13.
        #expect(Self.facts(again).dropLast() == Self.facts(plan).dropLast())
        #expect(again.state.tasks.tasks.last?.progress == 13)
        #expect(Self.links(again) == Self.links(plan))
        #expect(again.state.settings.calendar == plan.state.settings.calendar)
        #expect(warnings.map(\.code) == ["progressRounded", "entryWithoutTask"])
        let (text, _) = MSProjectExport.document(plan)
        // Two consecutive holidays are one exception; an automatic plan's tasks start no earlier than their start.
        #expect(
            text.contains("<FromDate>2026-09-14T00:00:00</FromDate>")
                && text.contains("<ToDate>2026-09-15T23:59:00</ToDate>"))
        #expect(text.contains("<ConstraintType>4</ConstraintType>") && !text.contains("<!DOCTYPE"))
    }

    @Test("CSV: header, derived rows, RFC 4180 quoting, formulas neutralised")
    func csv() throws {
        var plan = Demo.document
        var tasks = plan.state.tasks.tasks
        tasks.append(
            try GanttTask(
                id: "=cmd", title: "+SUM(A1), \"quoted\"\nnext", kind: .activity(schedule: nil, progress: 12.5)))
        plan.state.tasks = try TaskCollection(tasks, dependencies: plan.state.tasks.dependencies)
        let text = CSVExport.document(plan)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "id,title,kind,parentID,start,end,progress")
        #expect(lines.count == plan.state.tasks.count + 2 && lines.last == "")
        #expect(text.contains("'=cmd,\"'+SUM(A1), \"\"quoted\"\"\nnext\",activity,,,,12.5"))
        let summary = try #require(plan.state.tasks.tasks.first { $0.kind.isSummary })
        let values = try #require(plan.state.tasks.summaryValues(of: summary.id))
        #expect(
            lines.contains {
                $0.hasPrefix("\(summary.id),") && $0.contains(",summary,")
                    && $0.contains("\(values.start!),\(values.end!)")
            })
    }

    @Test("iCalendar: all-day events with exclusive ends, stable UIDs, escaping, folding never inside a character")
    func ics() throws {
        var plan = Demo.document
        var tasks = plan.state.tasks.tasks
        let long = String(repeating: "計画", count: 30) + "; a, b\\c"
        tasks.append(try GanttTask(id: "long", title: long, kind: .milestone(date: try CivilDate("2026-10-05"))))
        plan.state.tasks = try TaskCollection(tasks, dependencies: plan.state.tasks.dependencies)
        let text = ICSExport.document(plan, planID: "demo", stamp: "20261204T120000Z")
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "BEGIN:VCALENDAR" && lines.dropLast().last == "END:VCALENDAR")
        for line in lines { #expect(line.utf8.count <= 75, "\(line)") }
        // Unfolded again, the long title is there whole and escaped.
        let unfolded = text.split(separator: "\r\n ").joined().split(separator: "\r\n").joined(separator: "\n")
        #expect(unfolded.contains("SUMMARY:" + String(repeating: "計画", count: 30) + "\\; a\\, b\\\\c"))
        #expect(
            unfolded.contains(
                "UID:demo/long@chronosketch\nDTSTAMP:20261204T120000Z\nDTSTART;VALUE=DATE:20261005\nDTEND;VALUE=DATE:20261006"
            ))
        let events = lines.filter { $0 == "BEGIN:VEVENT" }.count
        let dated = plan.state.tasks.tasks.filter { $0.kind.isPlacedByCalendar }.count
        #expect(events == dated)
        #expect(ICSExport.stamp(fromRFC3339: "2026-12-04T15:00:07.120Z") == "20261204T150007Z")
    }
}

/// The exports written in pieces, as `plan export` writes them to standard output.
@Suite("Interchange: exports written as they are made")
struct ExportPiecesTests {
    /// A manual plan of `count` dated activities under ten groups.
    static func plan(tasks count: Int) throws -> PlanDocument {
        var tasks: [GanttTask] = []
        for group in 0..<10 { tasks.append(try GanttTask(id: "g\(group)", title: "Group \(group)", kind: .summary)) }
        let start = try CivilDate("2026-09-01")
        for index in 0..<count {
            let first = try start.adding(days: index % 200)
            tasks.append(
                try GanttTask(
                    id: "t\(index)", title: "Task \(index), \"quoted\" & <marked>", parentID: "g\(index % 10)",
                    kind: .activity(
                        schedule: try TaskSchedule(start: first, end: try first.adding(days: 1 + index % 7)),
                        progress: Double(index % 101))))
        }
        return PlanDocument(title: "Pieces", state: PlanState(tasks: try TaskCollection(tasks, dependencies: [])))
    }

    /// `write` into pieces of `size` bytes: the pieces, and the warnings.
    static func pieces(size: Int, _ write: (inout ExportOutput) -> [ImportWarning]) -> ([String], [ImportWarning]) {
        var pieces: [String] = []
        var output = ExportOutput(pieceBytes: size) { pieces.append($0) }
        let warnings = write(&output)
        #expect(output.finish().isEmpty)
        return (pieces, warnings)
    }

    @Test("every format written in pieces of any size is the document written whole", arguments: [1, 100, 1 << 16])
    func pieces(size: Int) throws {
        let plan = try Self.plan(tasks: 3000)
        let whole = MSProjectExport.document(plan)
        let xml = Self.pieces(size: size) { MSProjectExport.write(plan, to: &$0) }
        #expect(xml.0.joined() == whole.text && xml.1 == whole.warnings)
        let csv = Self.pieces(size: size) {
            CSVExport.write(plan, to: &$0)
            return []
        }
        #expect(csv.0.joined() == CSVExport.document(plan))
        let ics = Self.pieces(size: size) {
            ICSExport.write(plan, planID: "p", stamp: "20261204T120000Z", to: &$0)
            return []
        }
        #expect(ics.0.joined() == ICSExport.document(plan, planID: "p", stamp: "20261204T120000Z"))
        // Nothing waits to the end: each piece but the last is handed on once it reaches the size,
        // so no more than one piece and one line are ever held.
        for (pieces, whole) in [(xml.0, whole.text), (csv.0, CSVExport.document(plan))] {
            #expect(pieces.count > 1 && pieces.count >= whole.utf8.count / (size + 1000))
            #expect(pieces.dropLast().allSatisfy { $0.utf8.count >= size && $0.utf8.count < size + 1000 })
        }
    }
}
