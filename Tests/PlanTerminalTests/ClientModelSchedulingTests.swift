import ChronoSketchCore
import PlanProtocol
import Testing

@testable import PlanTerminal

/// Automatic scheduling in the interactive client: figures of the rows on screen with at most one
/// request in flight, the critical path drawn, pushed tasks marked for a moment, a conflict moved
/// to its earliest date with one key, the settings form, and non-working days shaded.
@Suite("Interactive client: scheduling")
struct ClientModelSchedulingTests {
    static let weekdays = try! PlanCalendar(workingDays: [1, 2, 3, 4, 5], holidays: [Sample.date("2026-09-14")])

    /// A loaded model on the sample plan (automatic, Monday to Friday, a holiday on the 14th
    /// when `automatic`), in the timeline, with the figures request it made.
    func loaded(automatic: Bool = true) -> (model: ClientModel, request: ClientAction?) {
        var model = ClientModel(settings: ClientModelTests.settings)
        _ = model.handle(.resize(width: 100, height: 14))
        _ = model.handle(.welcome(user: "ann"))
        var copy = Sample.copy()
        if automatic {
            var snapshot = copy.snapshot
            snapshot.settings = PlanSettings(scheduling: .automatic, calendar: Self.weekdays)
            copy = ClientPlanCopy(snapshot)
        }
        let actions = model.handle(.copy(copy))
        _ = model.handle(.key(.tab))
        return (model, actions.first { if case .schedule = $0 { true } else { false } })
    }

    static func figures(_ id: String, slack: Int) -> ScheduleAnswer.Row {
        ScheduleAnswer.Row(
            id: id,
            figures: ScheduleFigures.Task(
                lateStart: Sample.date("2026-09-08"), lateFinish: Sample.date("2026-09-11"), slack: slack))
    }

    /// The styles of the cells on the line that shows `title`.
    static func styles(of title: String, in canvas: TextCanvas) -> Set<CellStyle> {
        let lines = canvas.text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let y = lines.firstIndex(where: { $0.contains(title) }) else { return [] }
        return Set((30..<canvas.width).map { canvas.style(x: $0, y: y) })
    }

    @Test("the rows on screen are asked once per version, one request at a time; critical bars drawn critical")
    func figuresAndCriticalPath() throws {
        var (model, request) = loaded()
        guard case .schedule(3, let ids, let ref)? = request else {
            Issue.record("no schedule request after the snapshot")
            return
        }
        #expect(ids == ["design", "spec", "review", "impl", "build", "release"])
        // While it is in flight, nothing more is asked, whatever happens.
        #expect(!model.handle(.key(.down)).contains { if case .schedule = $0 { true } else { false } })
        let answer = ScheduleAnswer(
            plan: "demo", version: 3, finish: Sample.date("2026-10-01"),
            tasks: [Self.figures("spec", slack: 0), Self.figures("build", slack: 4)])
        #expect(model.handle(.server(.schedule(answer, ref: ref))).isEmpty)
        #expect(model.scheduling.isCritical("spec") && !model.scheduling.isCritical("build"))
        let canvas = model.render()
        #expect(Self.styles(of: "Spec", in: canvas).contains(.critical))
        #expect(!Self.styles(of: "Build", in: canvas).contains(.critical))
        // Covered at this version: no new request; a new version asks again.
        #expect(model.handle(.key(.up)).isEmpty)
        let next = model.handle(
            .server(
                .confirmed(
                    plan: "demo", version: 4, mutationID: "m", user: "bob",
                    changes: PlanChanges(upsert: [Sample.collection["review"]!.with(title: "Reviewed")]))))
        #expect(next.contains { if case .schedule(4, _, _) = $0 { true } else { false } })
        // An answer to someone else's ref changes nothing.
        #expect(model.handle(.server(.schedule(answer, ref: "other"))).isEmpty)
        #expect(model.scheduling.outstanding?.version == 4)
    }

    @Test(
        "figures are asked a screen ahead: a row of scrolling asks nothing, a screen further asks only the rows not known"
    )
    func figuresAskedAhead() throws {
        let tasks = try (0..<80).map { index in
            try GanttTask(
                id: "t\(index)", title: "Task \(index)",
                kind: .activity(schedule: try TaskSchedule(start: Sample.date("2026-09-08"), days: 2), progress: 0))
        }
        var model = ClientModel(settings: ClientModelTests.settings)
        _ = model.handle(.resize(width: 100, height: 14))  // 10 rows on screen in the list
        _ = model.handle(.welcome(user: "ann"))
        guard case .schedule(3, let first, let ref)? = model.handle(.copy(Sample.copy(try TaskCollection(tasks)))).last
        else {
            Issue.record("no schedule request")
            return
        }
        #expect(first == (0..<20).map { "t\($0)" })  // the screen and the one below (none above)
        let rows = first.map { Self.figures($0, slack: 1) }
        _ = model.handle(
            .server(.schedule(ScheduleAnswer(plan: "demo", version: 3, finish: nil, tasks: rows), ref: ref)))
        for _ in 0..<10 { #expect(model.handle(.key(.down)).isEmpty) }  // row 10 is the last on screen
        var asked: [String] = []
        for _ in 0..<10 where asked.isEmpty {
            if case .schedule(3, let ids, _)? = model.handle(.key(.down)).last { asked = ids }
        }
        #expect(!asked.isEmpty && asked.allSatisfy { !first.contains($0) })
    }

    @Test("a dropped connection forgets the request in flight; the next screen asks again")
    func reconnectAsksAgain() {
        var (model, request) = loaded()
        #expect(request != nil)
        _ = model.handle(.disconnected(reason: "gone", willReconnect: true))
        #expect(model.scheduling.outstanding == nil)
        let actions = model.handle(.welcome(user: "ann"))
        #expect(actions.contains { if case .schedule(3, _, _) = $0 { true } else { false } })
    }

    @Test("a version's pushed tasks are marked and counted in the heading until the wake")
    func pushedMarks() throws {
        var (model, _) = loaded()
        let build = Sample.collection["build"]!
        let later = build.with(
            kind: .activity(schedule: try TaskSchedule(start: Sample.date("2026-09-15"), days: 10), progress: 50))
        let actions = model.handle(
            .server(
                .confirmed(
                    plan: "demo", version: 4, mutationID: "m", user: "bob",
                    changes: PlanChanges(upsert: [later], pushed: ["build"]))))
        guard
            case .wake(ScheduleViewState.pushedMarkMilliseconds, let token)? = actions.first(where: {
                if case .wake = $0 { true } else { false }
            })
        else {
            Issue.record("no wake for the pushed marks: \(actions)")
            return
        }
        var canvas = model.render()
        #expect(canvas.text.split(separator: "\n").first?.contains("1 pushed") == true)
        #expect(Self.styles(of: "Build", in: canvas).contains(.reverse))
        _ = model.handle(.wake(token: token))
        canvas = model.render()
        #expect(canvas.text.split(separator: "\n").first?.contains("pushed") == false)
        #expect(!Self.styles(of: "Build", in: canvas).contains(.reverse))
    }

    @Test("a schedule conflict closes the form, names the earliest date, and M proposes the change there")
    func conflictMovesToEarliest() throws {
        var (model, _) = loaded()
        for _ in 0..<10 where model.selectedTask?.id != "build" { _ = model.handle(.key(.down)) }
        #expect(model.selectedTask?.id == "build")
        _ = model.handle(.key(.character("d")))
        #expect(model.form?.action == .dates)
        var saved: [ClientAction] = []
        for _ in 0..<10 where saved.isEmpty { saved = model.handle(.key(.enter)) }
        guard case .propose(let operation, let id)? = saved.first else {
            Issue.record("the dates form sent nothing")
            return
        }
        let conflict = ConflictDetail(task: "build", earliest: Sample.date("2026-09-15"))
        _ = model.handle(
            .server(
                .rejected(
                    id: id, plan: "demo", code: .scheduleConflict, message: "", version: 3, conflict: conflict)))
        #expect(model.form == nil)
        #expect(model.message?.contains("2026-09-15") == true && model.message?.contains("M:") == true)
        let moved = model.handle(.key(.character("M")))
        guard case .propose(.replace(let previous, let proposed), _)? = moved.first else {
            Issue.record("M sent nothing: \(moved)")
            return
        }
        guard case .replace(let original, _) = operation else { return }
        #expect(previous == original)
        // Ten calendar days from Friday the 11th are 5 working days (the 11th, the 15th to the
        // 18th: the 14th is a holiday); from Tuesday the 15th they end after Monday the 21st.
        #expect(
            proposed.schedule == (try TaskSchedule(start: Sample.date("2026-09-15"), end: Sample.date("2026-09-22"))))
        // Another key drops the offer.
        #expect(model.handle(.key(.character("M"))).isEmpty)
    }

    @Test("S opens the settings form; Save proposes settings.replace from the settings it was opened on")
    func settingsForm() throws {
        var (model, _) = loaded(automatic: false)
        _ = model.handle(.key(.character("S")))
        #expect(model.form?.action == .settings)
        _ = model.handle(.key(.right))  // automatic
        _ = model.handle(.key(.tab))  // working days: Monday under the cursor
        for _ in 0..<5 { _ = model.handle(.key(.right)) }  // Saturday
        _ = model.handle(.key(.character(" ")))  // Saturday off
        _ = model.handle(.key(.right))  // Sunday
        _ = model.handle(.key(.character(" ")))  // Sunday off
        _ = model.handle(.key(.tab))
        type("2026-12-25 2026-12-26", into: &model)
        var saved: [ClientAction] = []
        for _ in 0..<4 where saved.isEmpty { saved = model.handle(.key(.enter)) }
        guard case .propose(.settingsReplace(let previous, let proposed), _)? = saved.first else {
            Issue.record("the settings form sent nothing: \(saved) \(String(describing: model.form?.error))")
            return
        }
        #expect(previous == .default)
        #expect(proposed.scheduling == .automatic)
        #expect(proposed.calendar.workingDays == [1, 2, 3, 4, 5])
        #expect(proposed.calendar.holidays == [Sample.date("2026-12-25"), Sample.date("2026-12-26")])
    }

    @Test("a holiday that is no date is refused in the form, nothing is sent")
    func settingsFormRefusesBadDates() {
        var form = TaskForm.settingsForm(.default, language: .german)
        form.fields[2].value = .text("2026-12-25, 24.12.")
        #expect(throws: FormError.self) { try form.settingsOperation(language: .german) }
        form.fields[1].value = .multiple([], cursor: 0)
        form.fields[2].value = .text("")
        #expect(throws: FormError.self) { try form.settingsOperation(language: .german) }
    }

    /// The chart's rows (below the heading, the view bar and the three header lines; above the footer).
    static func chartBody(_ model: ClientModel) -> String {
        let lines = model.render().text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines[5..<(lines.count - 1)].joined(separator: "\n")
    }

    @Test("weekends and holidays are shaded in empty cells at every zoom; a plan working every day shows none")
    func shading() {
        var (model, _) = loaded()
        for _ in 0..<5 {
            #expect(Self.chartBody(model).contains("·"), "zoom \(model.viewport.axis.zoom)")
            _ = model.handle(.key(.character("-")))
        }
        var (manual, _) = loaded(automatic: false)
        #expect(!Self.chartBody(manual).contains("·"))
        _ = manual.handle(.key(.character("-")))
        #expect(!Self.chartBody(manual).contains("·"))
    }
}
