import Testing

@testable import ChronoSketchCore

/// The backward pass of scheduling.md §6: the contract's example, a manual plan's negative
/// slack, and slack as what it means — how far a task can slip before the finish moves, found
/// by delaying it and settling — on random automatic plans.
@Suite("Schedule figures")
struct ScheduleFiguresTests {
    static let weekdaysAndChristmas = WorkingTime(
        try! PlanCalendar(workingDays: [1, 2, 3, 4, 5], holidays: [Make.date("2026-12-25")]))

    static func figure(_ lateStart: String, _ lateFinish: String, _ slack: Int) -> ScheduleFigures.Task {
        ScheduleFigures.Task(lateStart: Make.date(lateStart), lateFinish: Make.date(lateFinish), slack: slack)
    }

    /// §6 on the demo plan of §11 at version 14.
    @Test func contractExample() throws {
        let tasks = try TaskCollection(
            [
                Make.summary("phase-1"), Make.activity("design", parent: "phase-1", "2026-09-09", "2026-09-11"),
                Make.activity("build", parent: "phase-1", "2026-09-11", "2026-09-22"),
                Make.milestone("release", "2026-10-01"), Make.activity("spec"),
            ],
            dependencies: [Make.link("design", "build"), Make.link("build", "release"), Make.link("spec", "release")])
        let figures = ScheduleFigures(tasks, time: Self.weekdaysAndChristmas)
        #expect(figures.finish == Make.date("2026-10-01"))
        #expect(
            figures.all == [
                "design": Self.figure("2026-09-18", "2026-09-22", 7),
                "build": Self.figure("2026-09-22", "2026-10-01", 7),
                "release": Self.figure("2026-10-01", "2026-10-01", 0),
            ])
        #expect(figures["release"]!.critical && !figures["build"]!.critical)
        #expect(
            ScheduleFigures(try TaskCollection([Make.activity("spec")]), time: Self.weekdaysAndChristmas).finish == nil)
    }

    /// In a manual plan a broken constraint gives negative slack, and late dates before the own ones.
    @Test func brokenConstraintsGiveNegativeSlack() throws {
        let tasks = try TaskCollection(
            [Make.activity("a", "2026-09-07", "2026-09-12"), Make.activity("b", "2026-09-09", "2026-09-11")],
            dependencies: [Make.link("a", "b")])
        let figures = ScheduleFigures(tasks, time: Self.weekdaysAndChristmas)
        // The finish is a's end (Saturday 12th); b must end by then, so a must end 2 days earlier.
        #expect(figures["b"] == Self.figure("2026-09-10", "2026-09-12", 1))
        #expect(figures["a"] == Self.figure("2026-09-03", "2026-09-10", -2))
        #expect(figures["a"]!.critical)
    }

    /// Slack is the largest delay that keeps the finish: delaying a task by its slack and
    /// settling keeps the finish's position; one working day more moves it.
    @Test func slackIsTheDelayTheFinishAbsorbs() throws {
        var random = SplitMix64(seed: 0x51AC_C000)
        var checked = 0
        var positive = 0
        for _ in 0..<150 {
            let calendar = WorkingTimeTests.randomCalendar(&random, base: Make.date("2026-09-01").dayNumber)
            let time = WorkingTime(calendar)
            var plan = ScheduleRandomizedTests.randomPlan(&random)
            // Every task on working days (where `w` and the working duration agree), then settled.
            for task in plan.tasks {
                guard let dates = ScheduleConstraints.Dates(task.kind),
                    let duration = time.workingDuration(of: task.kind)
                else { continue }
                let kind = time.placing(task.kind, on: time.workingDay(onOrAfter: dates.start), workingDays: duration)!
                try plan.replace(previous: task, proposed: task.with(kind: kind))
            }
            guard case .settled(let pushed, _) = ScheduleSettle(plan, time: time).settleAll() else { continue }
            for task in pushed { try plan.replace(previous: plan[task.id]!, proposed: task) }

            let figures = ScheduleFigures(plan, time: time)
            guard let finish = figures.finish else { continue }
            for (id, figure) in figures.all {
                #expect(figure.slack >= 0)
                #expect(
                    finishPosition(afterDelaying: id, by: figure.slack, in: plan, time: time)
                        == time.position(ofDay: finish.dayNumber))
                #expect(
                    finishPosition(afterDelaying: id, by: figure.slack + 1, in: plan, time: time)
                        > time.position(ofDay: finish.dayNumber))
                checked += 1
                if figure.slack > 0 { positive += 1 }
            }
        }
        #expect(checked > 500 && positive > 100)
    }

    /// The finish's position once `id` is placed `days` working days later (own) and the plan settled.
    func finishPosition(afterDelaying id: String, by days: Int, in plan: TaskCollection, time: WorkingTime) -> Int {
        var delayed = plan
        let task = plan[id]!
        let start = time.day(atPosition: time.position(ofDay: ScheduleConstraints.Dates(task.kind)!.start) + days)
        try! delayed.replace(
            previous: task,
            proposed: task.with(
                kind: time.placing(task.kind, on: start, workingDays: time.workingDuration(of: task.kind)!)!))
        guard case .settled(let pushed, _) = ScheduleSettle(delayed, time: time).settle(own: [id]) else {
            Issue.record("a delay cannot conflict")
            return .max
        }
        for task in pushed { try! delayed.replace(previous: delayed[task.id]!, proposed: task) }
        return delayed.tasks.compactMap { ScheduleConstraints.Dates($0.kind)?.end }.map { time.position(ofDay: $0) }
            .max()!
    }
}
