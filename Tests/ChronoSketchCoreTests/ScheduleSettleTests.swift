import Testing

@testable import ChronoSketchCore

/// The settle of scheduling.md §4 on the contract's worked examples (§3), and against a naive
/// fixpoint on random graphs.
@Suite("Schedule settle")
struct ScheduleSettleTests {
    static let weekdays = WorkingTime(try! PlanCalendar(workingDays: [1, 2, 3, 4, 5], holidays: []))

    static func pushed(_ outcome: SettleOutcome) -> [GanttTask] {
        guard case .settled(let pushed, _) = outcome else {
            Issue.record("expected a settle, got \(outcome)")
            return []
        }
        return pushed
    }

    /// §3's table: P = [Wed 09-09, Fri 09-11), S of 3 working days placed well before it.
    @Test(arguments: [
        (DependencyType.finishToStart, 2, "2026-09-15", "2026-09-18"),
        (.finishToStart, -1, "2026-09-10", "2026-09-15"),
        (.startToStart, 3, "2026-09-14", "2026-09-17"),
        (.startToStart, -2, "2026-09-07", "2026-09-10"),
        (.finishToFinish, 1, "2026-09-09", "2026-09-12"),
        (.finishToFinish, -2, "2026-09-04", "2026-09-09"),
        (.startToFinish, 4, "2026-09-10", "2026-09-15"),
        (.startToFinish, -1, "2026-09-03", "2026-09-08"),
    ])
    func contractTable(type: DependencyType, lag: Int, start: String, end: String) throws {
        let tasks = try TaskCollection(
            [Make.activity("p", "2026-09-09", "2026-09-11"), Make.activity("s", "2026-08-03", "2026-08-06")],
            dependencies: [TaskDependency(predecessorID: "p", successorID: "s", type: type, lag: lag)])
        let pushed = Self.pushed(ScheduleSettle(tasks, time: Self.weekdays).settle(own: ["p"]))
        #expect(pushed == [Make.activity("s", start, end)])
    }

    /// §3's milestones: A → M (FS 0) puts M on Monday; M → B (SS +1) puts B on Tuesday; FF −1 on Friday.
    @Test func contractMilestones() throws {
        let tasks = try TaskCollection(
            [
                Make.activity("a", "2026-09-09", "2026-09-12"), Make.milestone("m", "2026-08-03"),
                Make.activity("b", "2026-08-03", "2026-08-05"), Make.milestone("n", "2026-08-03"),
            ],
            dependencies: [
                Make.link("a", "m"), TaskDependency(predecessorID: "m", successorID: "b", type: .startToStart, lag: 1),
                TaskDependency(predecessorID: "a", successorID: "n", type: .finishToFinish, lag: -1),
            ])
        let pushed = Self.pushed(ScheduleSettle(tasks, time: Self.weekdays).settle(own: ["a"]))
        #expect(
            pushed == [
                Make.milestone("m", "2026-09-14"), Make.activity("b", "2026-09-15", "2026-09-17"),
                Make.milestone("n", "2026-09-11"),
            ])
    }

    /// An own task that breaks a constraint is a conflict naming its earliest start; a
    /// successor whose gap absorbs the move stays.
    @Test func ownTasksConflictAndGapsAbsorb() throws {
        let tasks = try TaskCollection(
            [
                Make.activity("design", "2026-09-09", "2026-09-11"), Make.activity("build", "2026-09-10", "2026-09-12"),
                Make.activity("late", "2026-10-01", "2026-10-02"),
            ],
            dependencies: [Make.link("design", "build"), Make.link("design", "late")])
        let settle = ScheduleSettle(tasks, time: Self.weekdays)
        #expect(
            settle.settle(own: ["build"])
                == .conflict(
                    ScheduleConflict(
                        taskID: "build", earliest: Make.date("2026-09-11"), dependency: Make.link("design", "build"))))
        if case .conflict(let conflict) = settle.settle(own: ["build"]) {
            #expect(
                conflict.message == "task \"build\" cannot start before 2026-09-11 (finish-to-start from \"design\")")
        }
        #expect(Self.pushed(settle.settle(own: ["design"])) == [Make.activity("build", "2026-09-11", "2026-09-15")])
        // A manual placement on a weekend satisfies FS 0 from a Friday end and is never moved back.
        let weekend = try TaskCollection(
            [Make.activity("p", "2026-09-07", "2026-09-12"), Make.activity("s", "2026-09-13", "2026-09-14")],
            dependencies: [Make.link("p", "s")])
        #expect(Self.pushed(ScheduleSettle(weekend, time: Self.weekdays).settle(own: ["p"])) == [])
    }

    @Test func aPushPastTheLastYearIsOutOfRange() throws {
        let tasks = try TaskCollection(
            [Make.activity("p", "9999-12-20", "9999-12-30"), Make.activity("s", "9999-01-04", "9999-01-08")],
            dependencies: [TaskDependency(predecessorID: "p", successorID: "s", lag: 5)])
        #expect(ScheduleSettle(tasks, time: Self.weekdays).settle(own: ["p"]) == .outOfRange(taskID: "s"))
    }
}
