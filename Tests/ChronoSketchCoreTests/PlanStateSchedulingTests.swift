import Testing

@testable import ChronoSketchCore

/// Ops on an automatic plan (scheduling.md §4, §5): the cascade settled inside `apply`, one
/// change with `pushed`, rejections that leave the state as it was, undo with `restores`, the
/// cascade applied again as data, settings, relink, import and checkpoints.
@Suite("Plan state scheduling")
struct PlanStateSchedulingTests {
    static let weekdays = PlanSettings(
        scheduling: .automatic,
        calendar: try! PlanCalendar(workingDays: [1, 2, 3, 4, 5], holidays: [Make.date("2026-12-25")]))

    /// The demo plan of protocol.md at version 12 (design → build → release), manual.
    static func demo() throws -> PlanState {
        let tasks = try TaskCollection(
            [
                Make.summary("phase-1"),
                Make.activity("design", parent: "phase-1", "2026-09-08", "2026-09-10", progress: 25),
                Make.activity("build", parent: "phase-1", "2026-09-10", "2026-09-20", progress: 50),
                Make.milestone("release", "2026-10-01"),
            ],
            dependencies: [Make.link("design", "build"), Make.link("build", "release")])
        return PlanState(tasks: tasks)
    }

    static func tasks(_ change: PlanChange) -> TaskCollectionChange {
        guard case .tasks(let tasks) = change else { fatalError("not a task change") }
        return tasks
    }

    /// §11: switching to automatic pushes nothing; moving design pushes build; undo puts both back.
    @Test func contractExample() throws {
        var state = try Self.demo()
        let switched = Self.tasks(
            try state.apply(.settingsReplace(previous: .default, proposed: Self.weekdays)))
        #expect(switched.settingsChanged && switched.pushedFrom.isEmpty && switched.upserted.isEmpty)
        #expect(state.settings == Self.weekdays)

        let design13 = state.tasks["design"]!
        let build13 = state.tasks["build"]!
        let design14 = Make.activity("design", parent: "phase-1", "2026-09-09", "2026-09-11", progress: 25)
        let operation = PlanOperation.replace(previous: design13, proposed: design14)
        let before = state.inverse(of: operation)
        let change = try state.apply(operation)
        let moved = Self.tasks(change)
        let build14 = Make.activity("build", parent: "phase-1", "2026-09-11", "2026-09-22", progress: 50)
        #expect(moved.upserted == [design14, build14])
        #expect(moved.pushed == ["build"] && moved.pushedFrom == [build13])
        #expect(moved.changedSummaryIDs == ["phase-1"])
        #expect(state.tasks.summaryValues(of: "phase-1")?.end == Make.date("2026-09-22"))

        let inverse = try #require(PlanOperation.inverse(before, restoringPushesOf: change))
        #expect(
            inverse
                == .restoring(
                    .replace(previous: design14, proposed: design13),
                    restores: [TaskRestore(previous: build14, proposed: build13)]))
        #expect(
            inverse.logJSON(undoes: 14)
                == #"{"type":"replace","previous":\#(design14.json),"proposed":\#(design13.json),"#
                + #""restores":[{"previous":\#(build14.json),"proposed":\#(build13.json)}],"undoes":14}"#)
        #expect(try PlanOperation(json: JSONValue(parsing: inverse.json)) == inverse)

        // The undo: both back exactly, nothing pushed; its own inverse is the redo.
        let undoBefore = state.inverse(of: inverse)
        let undone = try state.apply(inverse)
        #expect(state.tasks["design"] == design13 && state.tasks["build"] == build13)
        #expect(Self.tasks(undone).pushedFrom.isEmpty)
        let redo = try #require(PlanOperation.inverse(undoBefore, restoringPushesOf: undone))
        try state.apply(redo)
        #expect(state.tasks["design"] == design14 && state.tasks["build"] == build14)
    }

    /// An own task breaking a constraint is a conflict; a push past year 9999 invalidSchedule; both change nothing.
    @Test func rejectionsChangeNothing() throws {
        var state = try Self.demo()
        try state.apply(.settingsReplace(previous: .default, proposed: Self.weekdays))
        let saved = state
        let build = state.tasks["build"]!
        let early = build.with(
            kind: .activity(schedule: try TaskSchedule(start: Make.date("2026-09-09"), days: 3), progress: 50))
        #expect(
            throws: PlanOperationError.scheduleConflict(
                ScheduleConflict(
                    taskID: "build", earliest: Make.date("2026-09-10"), dependency: Make.link("design", "build")))
        ) { try state.apply(.replace(previous: build, proposed: early)) }
        #expect(state == saved)

        // A lag that pushes release past 9999-12-31: the link is taken back.
        let far = TaskDependency(predecessorID: "design", successorID: "release", lag: 1000)
        let late = state.tasks["design"]!.with(
            kind: .activity(schedule: try TaskSchedule(start: Make.date("9999-10-01"), days: 3), progress: 25))
        try state.apply(.replace(previous: state.tasks["design"]!, proposed: late))
        let beforeLink = state
        #expect(
            throws: PlanOperationError.task(
                .invalidSchedule(id: "release", reason: "the schedule would leave years 1…9999"))
        ) {
            try state.apply(.link(far))
        }
        #expect(state == beforeLink)
        #expect(state.tasks.contains(far) == false)
    }

    @Test func settingsAreJudgedByValue() throws {
        var state = try Self.demo()
        #expect(
            throws: PlanOperationError.scheduling(
                .staleSettings, "the plan's scheduling settings changed since the proposal was formed")
        ) {
            try state.apply(.settingsReplace(previous: Self.weekdays, proposed: .default))
        }
        #expect(try state.apply(.settingsReplace(previous: .default, proposed: .default)).isNoop)
        // A manual plan breaking its dependency: switching pushes build; switching back moves nothing.
        let build = state.tasks["build"]!
        let early = build.with(
            kind: .activity(schedule: try TaskSchedule(start: Make.date("2026-09-01"), days: 3), progress: 50))
        try state.apply(.replace(previous: build, proposed: early))
        let pushed = Self.tasks(try state.apply(.settingsReplace(previous: .default, proposed: Self.weekdays)))
        #expect(pushed.pushed == ["build"])
        #expect(
            state.tasks["build"]?.schedule
                == (try TaskSchedule(start: Make.date("2026-09-10"), end: Make.date("2026-09-15"))))
        var manual = Self.weekdays
        manual.scheduling = .manual
        let back = Self.tasks(try state.apply(.settingsReplace(previous: Self.weekdays, proposed: manual)))
        #expect(back.settingsChanged && back.upserted.isEmpty)
    }

    @Test func relinkIsJudgedByValueAndPushes() throws {
        var state = try Self.demo()
        try state.apply(.settingsReplace(previous: .default, proposed: Self.weekdays))
        let link = Make.link("design", "build")
        let lagged = link.with(type: .finishToStart, lag: 2)
        #expect(throws: PlanOperationError.task(.staleDependency(predecessorID: "design", successorID: "build"))) {
            try state.apply(.relink(previous: lagged, proposed: link))
        }
        #expect(
            throws: PlanOperationError.task(.identityChanged(previous: "design → build", proposed: "build → release"))
        ) {
            try state.apply(.relink(previous: link, proposed: Make.link("build", "release")))
        }
        #expect(try state.apply(.relink(previous: link, proposed: link)).isNoop)
        let change = Self.tasks(try state.apply(.relink(previous: link, proposed: lagged)))
        // design ends Thursday 10th (exclusive): build, 7 working days, from Monday 14th.
        #expect(change.pushed == ["build"] && change.dependenciesChanged)
        #expect(state.tasks["build"]?.schedule?.start == Make.date("2026-09-14"))
        #expect(state.tasks.dependencies == [lagged, Make.link("build", "release")])
        // unlink names the dependency by value.
        #expect(throws: PlanOperationError.task(.staleDependency(predecessorID: "design", successorID: "build"))) {
            try state.apply(.unlink(link))
        }
        #expect(Self.tasks(try state.apply(.unlink(lagged))).pushedFrom.isEmpty)
    }

    /// Another process applies the logged cascade as data and reaches the same state.
    @Test func aLoggedCascadeAppliesAsData() throws {
        var state = try Self.demo()
        try state.apply(.settingsReplace(previous: .default, proposed: Self.weekdays))
        var follower = state
        let design = state.tasks["design"]!
        let moved = design.with(
            kind: .activity(schedule: try TaskSchedule(start: Make.date("2026-09-14"), days: 2), progress: 25))
        let change = try state.apply(.replace(previous: design, proposed: moved))
        let json = try JSONValue(
            parsing: #"{"upsert":[\#(moved.json),\#(state.tasks["build"]!.json)],"pushed":["build"],"summaries":{}}"#)
        let cascade = try #require(try LoggedCascade.pushedTasks(inChanges: json))
        #expect(cascade == change.cascade)
        let followed = try follower.apply(.replace(previous: design, proposed: moved), cascade: cascade)
        #expect(follower == state && followed == change)
        #expect(try LoggedCascade.pushedTasks(inChangesJSON: #"{"upsert":[],"summaries":{}}"#) == [])
        // A logged cascade that does not fit this copy (a task it lacks) is taken back whole, op included.
        var unfit = try Self.demo()
        try unfit.apply(.settingsReplace(previous: .default, proposed: Self.weekdays))
        let saved = unfit
        let ghost = Make.activity("ghost", "2026-09-01", "2026-09-02")
        #expect(throws: PlanOperationError.task(.staleTask(id: "ghost"))) {
            try unfit.apply(.replace(previous: design, proposed: moved), cascade: cascade + [ghost])
        }
        #expect(unfit == saved)
    }

    /// A stale restore rejects the whole undo, and the base op is taken back with it.
    @Test func aStaleRestoreRejectsTheUndo() throws {
        var state = try Self.demo()
        let design = state.tasks["design"]!
        let renamed = design.with(title: "Design 2")
        let stale = Make.activity("build", parent: "phase-1", "2026-09-01", "2026-09-03")
        let saved = state
        #expect(throws: PlanOperationError.task(.staleTask(id: "build"))) {
            try state.apply(
                .restoring(
                    .replace(previous: design, proposed: renamed),
                    restores: [TaskRestore(previous: stale, proposed: stale)]))
        }
        #expect(state == saved)
    }

    @Test func importsKeepEveryTaskWhereTheFileHasIt() throws {
        let settings = #""settings":{"scheduling":"automatic","calendar":{"workingDays":[5,1,2,3,4],"holidays":[]}}"#
        let tasks =
            #""tasks":[{"id":"a","title":"A","kind":"activity","schedule":{"start":"2026-09-07","end":"2026-09-09"}},"#
            + #"{"id":"b","title":"B","kind":"activity","schedule":{"start":"2026-09-08","end":"2026-09-10"}}]"#
        let broken = try JSONValue(
            parsing: #"{"title":"T",\#(settings),\#(tasks),"dependencies":[{"predecessorID":"a","successorID":"b"}]}"#)
        #expect(throws: DecodingFailure.self) { try PlanDocument(json: broken) }
        do {
            _ = try PlanDocument(json: broken)
        } catch {
            #expect(error.code == .scheduleConflict)
        }
        // A dependency that cannot hold before 9999-12-31 refuses the file too.
        let late = try JSONValue(
            parsing: #"{"title":"T","settings":{"scheduling":"automatic"},"tasks":["#
                + #"{"id":"p","title":"P","kind":"milestone","date":"9999-12-30"},"#
                + #"{"id":"s","title":"S","kind":"milestone","date":"9999-12-31"}],"#
                + #""dependencies":[{"predecessorID":"p","successorID":"s","lag":5}]}"#)
        do {
            _ = try PlanDocument(json: late)
            Issue.record("a file whose dependency cannot hold was imported")
        } catch {
            #expect(error.code == .invalidSchedule)
        }
        let lead = try PlanDocument(
            json: try JSONValue(
                parsing:
                    #"{"title":"T",\#(settings),\#(tasks),"dependencies":[{"predecessorID":"a","successorID":"b","lag":-1}]}"#
            ))
        #expect(lead.state.settings.calendar.workingDays == [1, 2, 3, 4, 5])
        // The export reads back, and so does a checkpoint, typed dependencies and settings kept.
        #expect(try PlanDocument(json: JSONValue(parsing: lead.json)).state == lead.state)
        #expect(try PlanDocument(checkpoint: lead.checkpointJSON).state == lead.state)
    }

    /// A long cascade is moved at once: the same tasks and summaries as a collection built anew.
    @Test func aLongCascadeMovesAtOnce() throws {
        var tasks = [Make.summary("top"), Make.summary("inner", parent: "top")]
        var dependencies: [TaskDependency] = []
        for index in 0..<40 {
            let start = Make.date("2026-09-07").dayNumber + index * 2
            tasks.append(
                GanttTask(
                    unchecked: "c\(index)", title: "c\(index)", parentID: index % 2 == 0 ? "inner" : "top",
                    kind: .activity(
                        schedule: try TaskSchedule(start: CivilDate(dayNumber: start), days: 2), progress: 0)))
            if index > 0 { dependencies.append(Make.link("c\(index - 1)", "c\(index)")) }
        }
        var state = PlanState(tasks: try TaskCollection(tasks, dependencies: dependencies), settings: Self.weekdays)
        let head = state.tasks["c0"]!
        let later = head.with(
            kind: .activity(schedule: try TaskSchedule(start: Make.date("2026-09-21"), days: 2), progress: 0))
        let change = Self.tasks(try state.apply(.replace(previous: head, proposed: later)))
        #expect(change.pushed.count == 39)
        #expect(Set(change.changedSummaryIDs) == ["top", "inner"])
        let rebuilt = try TaskCollection(state.tasks.tasks, dependencies: state.tasks.dependencies)
        #expect(rebuilt.summaries == state.tasks.summaries)
        #expect(state.tasks.summaryValues(of: "top")?.end == state.tasks["c39"]?.schedule?.end)
        for dependency in state.tasks.dependencies {
            let from = state.tasks[dependency.predecessorID]!.schedule!.end
            #expect(state.tasks[dependency.successorID]!.schedule!.start >= from)
        }
    }
}
