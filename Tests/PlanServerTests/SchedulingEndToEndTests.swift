import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing

/// Automatic scheduling over real sockets and two server processes on one database
/// (scheduling.md §1, §4, §5, §7).
@Suite("scheduling end to end")
struct SchedulingEndToEndTests {
    static let weekdays = PlanSettings(
        scheduling: .automatic, calendar: try! PlanCalendar(workingDays: [1, 2, 3, 4, 5], holidays: []))

    /// Sends a raw `schedule` request and waits for its answer.
    static func schedule(_ request: String, _ client: TestClient) async throws -> ScheduleAnswer {
        client.connection.sendRaw(Array(request.utf8))
        guard case .schedule(let answer, _) = try await client.expect("schedule") else {
            throw HarnessError("no schedule answer")
        }
        return answer
    }

    /// The rejection of moving build before spec ends (at version 2): its message and `conflict`.
    static func checkConflict(_ answer: ServerMessage) throws {
        guard case .rejected(_, _, .scheduleConflict, let message, let version, _, let conflict) = answer else {
            throw HarnessError("expected scheduleConflict, got \(answer)")
        }
        #expect(message == #"task "build" cannot start before 2026-09-15 (finish-to-start from "spec")"#)
        #expect(version == 2)
        #expect(conflict == ConflictDetail(task: "build", earliest: Demo.date("2026-09-15")))
        #expect(answer.json.contains(#""conflict":{"task":"build","earliest":"2026-09-15"}"#))
    }

    /// `schedule` at version 2 and at version 1, and a version ahead.
    static func checkFigures(plan: String, _ editor: TestClient, _ watcher: TestClient) async throws {
        // The figures of version 2: release (Thursday 1 October) is the finish; build's end, the
        // 23rd, leaves 6 working days of slack, and spec the same behind it.
        let figures = try await Self.schedule(#"{"type":"schedule","plan":"\#(plan)","ref":"s1"}"#, editor)
        #expect(figures.version == 2 && figures.finish == Demo.date("2026-10-01"))
        #expect(figures.tasks.map(\.id) == ["spec", "build", "release"])
        #expect(figures.tasks.map(\.figures.slack) == [6, 6, 0])
        #expect(figures.tasks.last?.figures.critical == true)
        let picked = try await Self.schedule(
            #"{"type":"schedule","plan":"\#(plan)","version":1,"ids":["release","review","nope"],"ref":"s2"}"#, watcher)
        #expect(picked.version == 1 && picked.tasks.map(\.id) == ["release"])
        editor.connection.sendRaw(Array(#"{"type":"schedule","plan":"\#(plan)","version":9,"ref":"s3"}"#.utf8))
        guard case .error(.historyUnavailable, _, "s3") = try await editor.expect("error") else {
            Issue.record("a version ahead is not historyUnavailable")
            return
        }
    }

    @Test(
        "owners switch a plan to automatic; an edit pushes its successor in one version on both processes; a conflict is rejected; undo puts both back"
    )
    func automaticPlan() async throws {
        let fixture = try PlanFixture.make()
        let first = try ServerProcess.start(arguments: ["--instance", "one"])
        let second = try ServerProcess.start(arguments: ["--instance", "two"])
        let owner = try TestClient(url: first.url, token: try fixture.user(.owner), transport: SharedTransport.instance)
        let editor = try TestClient(url: first.url, token: fixture.editorToken, transport: SharedTransport.instance)
        let watcher = try TestClient(url: second.url, token: fixture.viewerToken, transport: SharedTransport.instance)
        defer {
            for client in [owner, editor, watcher] { client.close() }
        }
        for client in [owner, editor, watcher] { try await client.ready() }
        let plan = fixture.plan
        let copy = try await editor.subscribe(plan)
        _ = try await watcher.subscribe(plan)
        #expect(copy.snapshot.settings == .default)

        // Only an owner changes the settings; the demo plan's dependencies hold, so nothing moves.
        let switchOp = PlanOperation.settingsReplace(previous: .default, proposed: Self.weekdays)
        #expect(try await editor.propose(switchOp, plan: plan).rejectionCode == .forbidden)
        #expect(try await owner.propose(switchOp, plan: plan).ackVersion == 1)
        guard case .confirmed(_, 1, _, _, let switched, _, _) = try await watcher.expect("confirmed") else {
            Issue.record("no confirmed 1 on the second process")
            return
        }
        #expect(switched.settings == Self.weekdays && switched.pushed == nil && switched.upsert.isEmpty)

        // spec ends on Tuesday the 15th now: build (6 working days) starts then and ends on Wednesday the 23rd.
        let spec = copy["spec"]!
        let build = copy["build"]!
        let movedSpec = spec.with(
            kind: .activity(
                schedule: try TaskSchedule(start: Demo.date("2026-09-10"), end: Demo.date("2026-09-15")), progress: 20))
        let pushedBuild = build.with(
            kind: .activity(
                schedule: try TaskSchedule(start: Demo.date("2026-09-15"), end: Demo.date("2026-09-23")), progress: 0))
        #expect(try await editor.propose(.replace(previous: spec, proposed: movedSpec), plan: plan).ackVersion == 2)
        guard case .confirmed(_, 2, _, _, let changes, _, _) = try await watcher.expect("confirmed") else {
            Issue.record("no confirmed 2 on the second process")
            return
        }
        #expect(changes.pushed == ["build"])
        #expect(changes.upsert == [movedSpec, pushedBuild])

        try await Self.checkFigures(plan: plan, editor, watcher)

        // Moving build back before spec ends is a conflict naming the earliest start; nothing changes.
        let conflict = PlanOperation.replace(previous: pushedBuild, proposed: build)
        let rejected = try await editor.propose(conflict, plan: plan, id: "conflict-1")
        try Self.checkConflict(rejected)
        #expect(try await editor.propose(conflict, plan: plan, id: "conflict-1") == rejected, "a re-send, from memory")

        // Undo of version 2 puts spec and build back in one version, on both processes.
        #expect(try await editor.propose(.undo(version: 2), plan: plan).ackVersion == 3)
        guard case .confirmed(_, 3, _, _, let undone, _, _) = try await watcher.expect("confirmed") else {
            Issue.record("no confirmed 3 on the second process")
            return
        }
        #expect(Set(undone.upsert) == [spec, build])
        _ = try await editor.expect("confirmed") {
            if case .confirmed(_, 3, _, _, _, _, _) = $0 { true } else { false }
        }
        let stored = try #require(try TestDatabase.store.loadPlan(plan))
        #expect(stored.version == 3 && stored.document.state.settings == Self.weekdays)
        #expect(stored.document.state.tasks["build"] == build)
        let expected = PlanSnapshot(plan: plan, version: 3, document: stored.document)
        #expect(editor.connection.copy(of: plan)?.snapshot == expected)
        #expect(watcher.connection.copy(of: plan)?.snapshot == expected)

        // A process started now loads the settings and the plan as stored.
        let third = try ServerProcess.start(arguments: ["--instance", "three"])
        let late = try TestClient(url: third.url, token: fixture.viewerToken, transport: SharedTransport.instance)
        defer { late.close() }
        try await late.ready()
        #expect(try await late.subscribe(plan).snapshot == expected)
        // The conflict re-sent to it is answered from the stored decision, conflict included.
        let lateEditor = try TestClient(url: third.url, token: fixture.editorToken, transport: SharedTransport.instance)
        defer { lateEditor.close() }
        try await lateEditor.ready()
        try Self.checkConflict(try await lateEditor.propose(conflict, plan: plan, id: "conflict-1"))
    }

    @Test(
        "a 20,000-task plan switched to automatic is settled on a worker: its push confirmed once, an edit behind it applied after, both stored"
    )
    func bigPlanSwitch() async throws {
        let day = Demo.date("2026-09-07")
        var tasks = try (0..<20_000).map { index in
            try GanttTask(
                id: "t\(index)", title: "T\(index)",
                kind: .activity(schedule: TaskSchedule(start: day.adding(days: index % 7), days: 3), progress: 0))
        }
        // t1 starts before t0 ends (a Wednesday start): the switch pushes it.
        tasks[1] = tasks[1].with(kind: .activity(schedule: try TaskSchedule(start: day, days: 2), progress: 0))
        let document = PlanDocument(
            title: "Big",
            state: PlanState(
                tasks: try TaskCollection(tasks, dependencies: [TaskDependency(predecessorID: "t0", successorID: "t1")])
            ))
        let fixture = try PlanFixture.make(document)
        let server = try ServerProcess.start()
        let owner = try TestClient(
            url: server.url, token: try fixture.user(.owner), transport: SharedTransport.instance)
        let editor = try TestClient(url: server.url, token: fixture.editorToken, transport: SharedTransport.instance)
        defer {
            for client in [owner, editor] { client.close() }
        }
        for client in [owner, editor] { try await client.ready() }
        // 20,000 tasks loaded and encoded beside the rest of the suite: give the snapshot a minute.
        let copy = try await editor.subscribe(fixture.plan, within: 60)
        let switchOp = PlanOperation.settingsReplace(previous: .default, proposed: Self.weekdays)
        owner.connection.propose(switchOp, plan: fixture.plan, id: "switch")
        let renamed = copy["t9"]!.with(title: "Nine")
        // From the same connection, so that the switch is surely first.
        let renameID = owner.connection.propose(.replace(previous: copy["t9"]!, proposed: renamed), plan: fixture.plan)
        let rename = try await owner.answer(to: renameID, within: 60)
        #expect(rename.ackVersion == 2, "the edit waits behind the switch")
        guard case .confirmed(_, 1, _, _, let switched, _, _) = try await editor.expect("confirmed", within: 60) else {
            Issue.record("no confirmed 1")
            return
        }
        #expect(switched.settings == Self.weekdays && switched.pushed?.contains("t1") == true)
        let stored = try #require(try TestDatabase.store.loadPlan(fixture.plan))
        #expect(stored.version == 2 && stored.document.state.settings == Self.weekdays)
        #expect(stored.document.state.tasks["t9"]?.title == "Nine")
        #expect(stored.document.state.tasks["t1"]?.schedule?.start == stored.document.state.tasks["t0"]?.schedule?.end)
    }
}
