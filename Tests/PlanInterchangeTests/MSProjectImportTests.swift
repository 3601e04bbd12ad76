import ChronoSketchCore
import Testing

@testable import PlanInterchange

/// Importing MS Project XML written by MS Project itself (MPXJ's test files) and small files
/// written here for the cases those do not hold.
@Suite("Interchange: MS Project XML import")
struct MSProjectImportTests {
    static let directory = String(#filePath[..<#filePath.lastIndex(of: "/")!]) + "/Files/mpxj/"

    static func file(_ name: String) throws -> [UInt8] {
        try TestFiles.read(directory + name)
    }

    static func imported(_ name: String) throws -> ImportedPlan {
        try PlanImport.read(try file(name))
    }

    static func codes(_ plan: ImportedPlan) -> [String] { plan.warnings.map(\.code) }

    @Test("the four link types and a lag of 4800 tenths of minutes (one day), dates rounded up to whole days")
    func relations() throws {
        let plan = try Self.imported("mspdirelations.xml")
        let tasks = plan.document.state.tasks
        #expect(plan.document.title == "mspdirelations")
        #expect(tasks.tasks.map(\.id) == ["1", "2", "3", "4", "5"])
        #expect(
            tasks["1"]?.schedule == (try TaskSchedule(start: CivilDate("2006-09-21"), end: CivilDate("2006-09-22"))))
        // Finish 2006-09-25T08:00 is shown as the 25th by MS Project: the exclusive end is the 26th.
        #expect(
            tasks["5"]?.schedule == (try TaskSchedule(start: CivilDate("2006-09-22"), end: CivilDate("2006-09-26"))))
        #expect(
            tasks.dependencies == [
                TaskDependency(predecessorID: "1", successorID: "2", type: .finishToStart, lag: 0),
                TaskDependency(predecessorID: "2", successorID: "3", type: .startToStart, lag: 1),
                TaskDependency(predecessorID: "3", successorID: "4", type: .finishToFinish, lag: 0),
                TaskDependency(predecessorID: "4", successorID: "5", type: .startToFinish, lag: 0),
            ])
        #expect(plan.document.state.settings.scheduling == .manual)
        #expect(plan.document.state.settings.calendar.workingDays == [1, 2, 3, 4, 5])
        #expect(plan.warnings.isEmpty)
    }

    @Test("blank rows are skipped and reported; the outline gives the parents")
    func nullTasks() throws {
        let plan = try Self.imported("mspdinulltasks.xml")
        let tasks = plan.document.state.tasks
        #expect(tasks.tasks.map(\.id) == ["1", "3", "4", "6", "8"])
        #expect(tasks.childIDs(of: "1") == ["3", "4"] && tasks.childIDs(of: "6") == ["8"])
        #expect(tasks["1"]?.kind == .summary && tasks["6"]?.kind == .summary)
        #expect(Self.codes(plan) == ["nullTask"])
        #expect(plan.warnings[0].text.contains("2 more"))
    }

    @Test("a sample with summaries, a milestone, lags of ±1 day, resources and assignments as bookings")
    func sample() throws {
        let plan = try Self.imported("sample.xml")
        let state = plan.document.state
        #expect(state.tasks.count == 19)
        guard case .milestone = state.tasks["3"]?.kind else {
            Issue.record("task 3 is not a milestone")
            return
        }
        #expect(state.tasks.dependencies.map(\.lag) == [0, 1, -1, 0, 0, 0])
        #expect(
            state.tasks.dependencies.map(\.type) == [
                .finishToStart, .finishToStart, .finishToStart, .startToStart, .finishToFinish, .startToFinish,
            ])
        #expect(!state.timeline.resources.isEmpty)
        #expect(!state.timeline.assignments.isEmpty)
        for assignment in state.timeline.assignments {
            #expect(state.timeline.entry(assignment.entryID) != nil)
        }
        #expect(Self.codes(plan).contains("assignmentUnits"))
    }

    @Test("recurring exceptions expand to exactly the days MS Project wrote in the legacy form")
    func recurringExceptions() throws {
        let root = try XMLReader.parse(try Self.file("calendar-recurring-exceptions-project2016-mspdi.xml"))
        func calendar(keepLegacy: Bool, keepExceptions: Bool) -> [CivilDate: Bool] {
            var project = root
            var calendars = project.child("Calendars")!
            calendars.children = calendars.children.map { calendar in
                var calendar = calendar
                calendar.children = calendar.children.compactMap { child in
                    if child.name == "Exceptions" { return keepExceptions ? child : nil }
                    guard child.name == "WeekDays", !keepLegacy else { return child }
                    var days = child
                    days.children = days.children.filter { $0.integer("DayType") != 0 }
                    return days
                }
                return calendar
            }
            project.children = project.children.map { $0.name == "Calendars" ? calendars : $0 }
            return MSProjectCalendar.projectCalendar(of: project).exceptions
        }
        let legacy = calendar(keepLegacy: true, keepExceptions: false)
        let expanded = calendar(keepLegacy: false, keepExceptions: true)
        #expect(legacy.count > 100)
        #expect(expanded == legacy)
        // Spot checks: the first Tuesday of March 2007 (yearly, relative), February 1st 2007 (yearly).
        let (relative, absolute) = (try CivilDate("2007-03-06"), try CivilDate("2007-02-01"))
        #expect(expanded[relative] == false && expanded[absolute] == false)
    }
}
