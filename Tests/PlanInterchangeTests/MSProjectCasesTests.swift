import ChronoSketchCore
import Testing

@testable import PlanInterchange

/// The cases of interchange.md §3–§7 that MS Project's own sample files do not hold, each in a
/// small MSPDI document written here, and the refusals of §1 and §11.
@Suite("Interchange: MS Project XML cases and refusals")
struct MSProjectCasesTests {
    /// An MSPDI document with `body` inside `Project`.
    static func document(_ body: String) -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <Project xmlns="http://schemas.microsoft.com/project">\(body)</Project>
            """.utf8)
    }

    /// A `Task` row.
    static func task(
        _ uid: Int, level: Int = 1, name: String? = nil, start: String? = "2024-01-08T08:00:00",
        finish: String? = "2024-01-09T17:00:00", extra: String = ""
    ) -> String {
        "<Task><UID>\(uid)</UID><ID>\(uid)</ID><Name>\(name ?? "T\(uid)")</Name><OutlineLevel>\(level)</OutlineLevel>"
            + (start.map { "<Start>\($0)</Start>" } ?? "") + (finish.map { "<Finish>\($0)</Finish>" } ?? "") + extra
            + "</Task>"
    }

    static func link(_ predecessor: Int, type: Int = 1, lag: Int = 0, format: Int = 7, extra: String = "") -> String {
        "<PredecessorLink><PredecessorUID>\(predecessor)</PredecessorUID><Type>\(type)</Type>"
            + "<LinkLag>\(lag)</LinkLag><LagFormat>\(format)</LagFormat>\(extra)</PredecessorLink>"
    }

    static func importing(_ body: String) throws -> ImportedPlan {
        try PlanImport.read(document(body))
    }

    @Test("links that cannot be held are dropped and reported; lags in every format become working days")
    func links() throws {
        let plan = try Self.importing(
            "<Title>Links</Title><Tasks>" + Self.task(1, name: "Group", extra: "<Summary>1</Summary>")
                + Self.task(2, level: 2) + Self.task(3, level: 2, extra: Self.link(2, lag: 7200))
                + Self.task(
                    4, level: 2,
                    extra: Self.link(1) + Self.link(99) + Self.link(3, lag: 14400, format: 8)
                        + Self.link(3, type: 3, lag: 50, format: 19)
                        + Self.link(2, extra: "<CrossProject>1</CrossProject>"))
                + Self.task(5, level: 1, extra: Self.link(2, lag: 48_000_000)) + "</Tasks>")
        let dependencies = plan.document.state.tasks.dependencies
        // 7200 tenths of minutes at 480 a day: 1.5 days, rounded half away from zero to 2.
        #expect(dependencies.first { $0.successorID == "3" }?.lag == 2)
        // 1440 elapsed minutes (a calendar day) at 5 of 7 working days: 0.71 → 1.
        #expect(
            dependencies.first { $0.successorID == "4" } == TaskDependency(predecessorID: "3", successorID: "4", lag: 1)
        )
        #expect(dependencies.first { $0.successorID == "5" }?.lag == 1000)
        #expect(dependencies.count == 3)
        let codes = Set(plan.warnings.map(\.code))
        #expect(
            codes == [
                "lagRounded", "summaryDependency", "externalDependency", "elapsedLag", "duplicateDependency",
                "lagClamped",
            ])
    }

    @Test("milestones with a duration or without dates, progress clamped, title from Name without its extension")
    func tasks() throws {
        let plan = try Self.importing(
            "<Name>plan.mpp</Name><Tasks>"
                + Self.task(1, extra: "<Milestone>1</Milestone><Duration>PT16H0M0S</Duration>")
                + Self.task(2, start: nil, finish: nil, extra: "<Milestone>1</Milestone>")
                + Self.task(3, start: nil, extra: "<PercentComplete>140</PercentComplete>")
                + Self.task(4, start: "2024-01-08T08:00:00", finish: "2024-01-08T08:00:00") + "</Tasks>")
        let tasks = plan.document.state.tasks
        #expect(plan.document.title == "plan")
        #expect(tasks["1"]?.kind == .milestone(date: try CivilDate("2024-01-08")))
        #expect(tasks["2"]?.kind == .activity(schedule: nil, progress: 0))
        #expect(tasks["3"]?.kind == .activity(schedule: nil, progress: 100))
        // A finish at the start's minute still gives one day.
        #expect(tasks["4"]?.schedule == (try TaskSchedule(start: CivilDate("2024-01-08"), days: 1)))
        #expect(plan.warnings.map(\.code) == ["milestoneDuration", "undatedMilestone"])
    }

    @Test("a derived calendar: the base's weekdays and exceptions, its own overriding; work weeks reported")
    func derivedCalendar() throws {
        func weekDay(_ type: Int, working: Bool) -> String {
            "<WeekDay><DayType>\(type)</DayType><DayWorking>\(working ? 1 : 0)</DayWorking></WeekDay>"
        }
        let base =
            "<Calendar><UID>1</UID><Name>Standard</Name><BaseCalendarUID>-1</BaseCalendarUID><WeekDays>"
            + (1...7).map { weekDay($0, working: $0 != 1 && $0 != 7) }.joined()
            + "<WeekDay><DayType>0</DayType><DayWorking>0</DayWorking><TimePeriod><FromDate>2024-12-24T00:00:00</FromDate>"
            + "<ToDate>2024-12-26T23:59:00</ToDate></TimePeriod></WeekDay></WeekDays></Calendar>"
        let derived =
            "<Calendar><UID>2</UID><Name>Six days</Name><BaseCalendarUID>1</BaseCalendarUID><WeekDays>"
            + weekDay(7, working: true)
            + "</WeekDays><Exceptions><Exception><TimePeriod><FromDate>2024-12-25T00:00:00</FromDate>"
            + "<ToDate>2024-12-25T23:59:00</ToDate></TimePeriod><Type>1</Type><DayWorking>1</DayWorking></Exception>"
            + "<Exception><TimePeriod><FromDate>2024-01-01T00:00:00</FromDate><ToDate>2026-12-31T23:59:00</ToDate></TimePeriod>"
            + "<Occurrences>3</Occurrences><Type>2</Type><Month>0</Month><MonthDay>1</MonthDay><DayWorking>0</DayWorking></Exception>"
            + "</Exceptions><WorkWeeks><WorkWeek><Name>Summer</Name></WorkWeek></WorkWeeks></Calendar>"
        let plan = try Self.importing(
            "<CalendarUID>2</CalendarUID><Calendars>" + base + derived + "</Calendars><Tasks>" + Self.task(1)
                + "</Tasks>")
        let calendar = plan.document.state.settings.calendar
        #expect(calendar.workingDays == [1, 2, 3, 4, 5, 6])
        #expect(
            calendar.holidays.map(\.description) == [
                "2024-01-01", "2024-12-24", "2024-12-26", "2025-01-01", "2026-01-01",
            ])
        #expect(plan.warnings.map(\.code) == ["workWeeks"])
    }

    @Test("format detection and refusals: JSON, GanttProject, not the named format, DOCTYPE, other content")
    func refusals() throws {
        func refusal(_ bytes: [UInt8], _ format: InterchangeFormat? = nil) -> String {
            do {
                _ = try PlanImport.read(bytes, format: format)
                return "accepted"
            } catch {
                return error.message
            }
        }
        let json = Array(#"{"title":"J","tasks":[]}"#.utf8)
        #expect(try PlanImport.read([0xEF, 0xBB, 0xBF] + json).document.title == "J")
        #expect(refusal(Self.document(""), .gantt).contains("not a GanttProject file"))
        #expect(refusal(Array("<project name='x'/>".utf8), .msproject).contains("not MS Project XML"))
        #expect(try PlanImport.read(Array("<project name='x'/>".utf8)).document.title == "x")
        #expect(refusal(Array("<Other/>".utf8)).contains("root is <Other>"))
        #expect(refusal(Array("id,title\n1,a\n".utf8)).contains("neither"))
        #expect(refusal([]).contains("neither"))
        let doctype = Array("<?xml version=\"1.0\"?><!DOCTYPE Project [<!ENTITY a \"b\">]><Project/>".utf8)
        #expect(refusal(doctype).contains("DOCTYPE"))
        #expect(refusal(Array(Self.document(Self.task(1)).dropLast(20))).contains("well-formed"))
        // A file whose tasks break a plan rule: a link cycle.
        let cycle = "<Tasks>" + Self.task(1, extra: Self.link(2)) + Self.task(2, extra: Self.link(1)) + "</Tasks>"
        #expect(refusal(Self.document(cycle)).contains("plan rule"))
    }
}
