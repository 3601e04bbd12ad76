import ChronoSketchCore
import Testing

@testable import PlanInterchange

/// Importing GanttProject files: its own sample, MS Project XML as its exporter writes it, and
/// small `.gan` files written here for the cases the sample does not hold.
@Suite("Interchange: GanttProject import")
struct GanttProjectImportTests {
    static let directory = String(#filePath[..<#filePath.lastIndex(of: "/")!]) + "/Files/ganttproject/"

    @Test("GanttProject's house-building sample: tree, durations in working days, meetings, links, bookings")
    func houseSample() throws {
        let plan = try PlanImport.read(try TestFiles.read(Self.directory + "HouseBuildingSample.gan"))
        let state = plan.document.state
        let tasks = state.tasks
        #expect(tasks.count == 20 && tasks.childIDs(of: "0") == ["9", "10", "17"])
        let meeting = try CivilDate("2024-07-01")
        #expect(tasks["0"]?.kind == .summary && tasks["17"]?.kind == .milestone(date: meeting))
        // Ten working days from Monday 2024-05-27: the last is Friday June 7, the exclusive end June 8.
        #expect(
            tasks["9"]?.schedule == (try TaskSchedule(start: CivilDate("2024-05-27"), end: CivilDate("2024-06-08"))))
        #expect(tasks["9"]?.progress == 100)
        #expect(state.settings.calendar.workingDays == [1, 2, 3, 4, 5])
        #expect(state.settings.calendar.holidays.map(\.description) == ["2006-02-14"])
        #expect(tasks.contains(TaskDependency(predecessorID: "9", successorID: "10")))
        // Links into summaries are dropped: "Interior design" → "Walls", "Construction phase" → "Bring your family here".
        #expect(tasks.dependency(from: "11", to: "6") == nil)
        #expect(Set(plan.warnings.map(\.code)) == ["summaryDependency", "assignmentUnits"])
        let vacation = try #require(state.timeline.entries.first { $0.title == "Vacation" })
        #expect("\(vacation.start)–\(vacation.end)" == "2009-02-02T00:00–2009-02-10T00:00")
        let foundation = try #require(state.timeline.entry("1"))
        #expect("\(foundation.start)–\(foundation.end)" == "2024-07-01T00:00–2024-07-20T00:00")
        #expect(state.timeline.assignments.filter { $0.entryID == "1" }.count == 4)
    }

    @Test("MS Project XML as GanttProject writes it: its holidays")
    func ganttProjectsMSProject() throws {
        let plan = try PlanImport.read(try TestFiles.read(Self.directory + "holidays.xml"))
        #expect(
            plan.document.state.settings.calendar.holidays.map(\.description) == [
                "2010-09-16", "2010-09-23", "2010-09-24",
            ])
    }

    @Test("yearly holidays expanded, a working weekend day reported, link types and differences, vacations")
    func cases() throws {
        let gan = """
            <?xml version="1.0" encoding="UTF-8"?>
            <project name="Cases" version="3.3">
              <calendars><day-types><default-week sun="1" mon="0" tue="0" wed="0" thu="0" fri="0" sat="1"/></day-types>
                <date month="12" date="25"/><date year="2025" month="1" date="4" type="WORKING_DAY"/>
                <date year="2025" month="1" date="6" type="NEUTRAL"/></calendars>
              <tasks>
                <task id="1" name="A" start="2024-12-20" duration="5" complete="150"/>
                <task id="2" name="B" start="2025-01-06" duration="0" meeting="false">
                  <depend id="3" type="1" difference="2"/><depend id="3" type="3"/><depend id="9" type="2"/>
                </task>
                <task id="3" name="C" start="2025-01-07" duration="2"/>
                <task id="4" name="Gate" start="2025-01-10" meeting="true"/>
                <task id="5" name="Project" project="true" start="2025-01-01" duration="3"/>
              </tasks>
              <resources><resource id="r" name="Ann"/></resources>
              <allocations><allocation task-id="4" resource-id="r" load="100"/></allocations>
              <vacations><vacation start="2025-01-02" end="2025-01-02" resourceid="r"/></vacations>
            </project>
            """
        let plan = try PlanImport.read(Array(gan.utf8))
        let state = plan.document.state
        #expect(plan.document.title == "Cases")
        // Five working days from Friday 2024-12-20, Christmas off: 20, 23, 24, 26, 27 → ends the 28th.
        #expect(
            state.tasks["1"]?.schedule
                == (try TaskSchedule(start: CivilDate("2024-12-20"), end: CivilDate("2024-12-28"))))
        #expect(state.tasks["1"]?.progress == 100)
        #expect(state.tasks["2"]?.schedule == (try TaskSchedule(start: CivilDate("2025-01-06"), days: 1)))
        #expect(state.tasks["5"]?.kind == .summary)
        #expect(state.settings.calendar.holidays.map(\.description) == ["2024-12-25", "2025-12-25", "2026-12-25"])
        #expect(
            state.tasks.dependencies == [
                TaskDependency(predecessorID: "2", successorID: "3", type: .startToStart, lag: 2)
            ])
        #expect(
            plan.warnings.map(\.code) == [
                "recurringHoliday", "workingException", "duplicateDependency", "externalDependency", "emptyAssignment",
            ])
        #expect(state.timeline.entries.map(\.title) == ["Vacation"])
    }
}
