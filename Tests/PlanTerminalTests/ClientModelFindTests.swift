import ChronoSketchCore
import PlanProtocol
import Testing

@testable import PlanTerminal

@Suite("Interactive client model: search, filters, go-to keys, half pages, the mouse and pickers")
struct ClientModelFindTests {
    func loaded(_ language: PlanLanguage = .english, height: Int = 14) -> ClientModel {
        ClientModelTests().loaded(language, height: height)
    }

    func press(_ keys: Key..., into model: inout ClientModel) -> [ClientAction] {
        keys.flatMap { model.handle(.key($0)) }
    }

    @Test("/ searches as you type: the selection jumps to the first match, the footer counts; Enter keeps it")
    func incrementalSearch() {
        var model = loaded()
        _ = press(.character("/"), into: &model)
        type("b", into: &model)
        #expect(model.selectedTask?.id == "build", "the first title or id holding “b”")
        #expect(model.render().lines.last?.hasPrefix("/b▏  1 of 1") == true)
        type("x", into: &model)
        #expect(model.find.matches.isEmpty)
        #expect(model.render().lines.last?.contains("no match for “bx”") == true)
        #expect(model.selectedTask?.id == "design", "nothing matches: back where the search began")
        _ = press(.backspace, .backspace, into: &model)
        type("e", into: &model)
        #expect(model.selectedTask?.id == "design" && model.find.matches.count == 5)
        _ = press(.enter, into: &model)
        #expect(model.find.searchLine == nil && model.find.query == "e")
        #expect(model.render().lines.last?.hasPrefix("/e  1 of 5") == true)
        // n and N step and wrap; the footer follows.
        _ = press(.character("n"), .character("n"), into: &model)
        #expect(model.selectedTask?.id == "review")
        #expect(model.render().lines.last?.hasPrefix("/e  3 of 5") == true)
        _ = press(.character("N"), .character("N"), .character("N"), into: &model)
        #expect(model.selectedTask?.id == "release", "wrapped to the last")
        _ = press(.escape, into: &model)
        #expect(model.find.query.isEmpty && model.selectedTask?.id == "release")
    }

    @Test("a filter turned on or off keeps the search kept: its matches are those the rows now show")
    func searchThroughFilters() {
        var model = loaded()
        _ = press(.character("/"), into: &model)
        type("e", into: &model)
        _ = press(.enter, into: &model)
        #expect(model.find.matches.count == 5)
        _ = press(.character("F"), .character("u"), into: &model)
        #expect(model.find.query == "e" && model.find.matches.count == 2, "Design and Review")
        _ = press(.character("n"), into: &model)
        #expect(model.selectedTask?.id == "review")
        _ = press(.character("F"), .character("x"), into: &model)
        #expect(model.find.matches.count == 5)
    }

    @Test("Escape on the search line returns to where it began; a match in a collapsed group opens it")
    func escapeAndCollapsed() {
        var model = loaded()
        _ = press(.down, .down, .down, into: &model)  // Implementation
        _ = press(.left, .up, .up, .up, .left, into: &model)  // both groups collapsed
        #expect(model.outline.count == 3)
        _ = press(.character("/"), into: &model)
        type("buil", into: &model)
        #expect(model.selectedTask?.id == "build" && !model.collapsed.contains("impl"))
        _ = press(.escape, into: &model)
        #expect(model.selectedTask?.id == "design")
        #expect(model.render().lines.last?.contains("/") == false)
    }

    @Test("the search goldens: typing, and the match kept, in English and German")
    func searchGoldens() {
        for language in [PlanLanguage.english, .german] {
            var model = loaded(language)
            _ = press(.character("/"), into: &model)
            type("spe", into: &model)
            expectGolden(model.render().text, "screen-search-typing-\(language == .german ? "de" : "en")")
        }
    }

    @Test("F l shows only late tasks with their groups; F u the unscheduled; F x shows all again")
    func lateAndUnscheduled() {
        var model = loaded()
        _ = press(.character("F"), into: &model)
        #expect(model.render().lines.last?.hasPrefix("Show only: m mine · l late · u unscheduled · c critical") == true)
        _ = press(.character("l"), into: &model)
        #expect(model.rows.map(\.id) == ["design", "spec"], "Spec ended on 09-10, before today (09-15), at 20 %")
        expectGolden(model.render().text, "screen-filter-late-en")
        _ = press(.character("F"), .character("u"), .down, into: &model)
        #expect(model.rows.map(\.id) == ["design", "review"] && model.selectedTask?.id == "review")
        // A search within a filter finds only its rows.
        _ = press(.character("/"), into: &model)
        type("build", into: &model)
        #expect(model.find.matches.isEmpty)
        _ = press(.escape, .character("F"), .character("x"), into: &model)
        #expect(model.outline.count == 6 && model.selectedTask?.id == "review")
        // A version that makes Build late shows it at once.
        _ = press(.character("F"), .character("l"), into: &model)
        let build = Sample.collection["build"]!
        let late = build.with(
            kind: .activity(schedule: try! TaskSchedule(start: Sample.date("2026-09-01"), days: 3), progress: 0))
        _ = model.handle(
            .server(
                .confirmed(
                    plan: "demo", version: 4, mutationID: "m4", user: "bob", changes: PlanChanges(upsert: [late]))))
        #expect(model.rows.map(\.id) == ["design", "spec", "impl", "build"])
        let german = { () -> ClientModel in
            var model = loaded(.german)
            _ = press(.character("F"), .character("l"), into: &model)
            return model
        }()
        expectGolden(german.render().text, "screen-filter-late-de")
    }

    @Test("F m shows the tasks the user changed in the versions the client holds; F c asks the whole plan's figures")
    func mineAndCritical() {
        var model = loaded()
        let build = Sample.collection["build"]!.with(title: "Build it")
        _ = model.handle(
            .server(
                .confirmed(
                    plan: "demo", version: 4, mutationID: "m4", user: "ann", changes: PlanChanges(upsert: [build]))))
        let release = Sample.collection["release"]!.with(title: "Ship")
        _ = model.handle(
            .server(
                .confirmed(
                    plan: "demo", version: 5, mutationID: "m5", user: "bob", changes: PlanChanges(upsert: [release]))))
        _ = press(.character("F"), .character("m"), into: &model)
        #expect(model.rows.map(\.id) == ["impl", "build"], "ann changed Build; bob changed Release")
        let actions = press(.character("F"), .character("c"), into: &model)
        guard
            case .schedule(5, let ids, let ref)? = actions.first(where: {
                if case .schedule(_, [], _) = $0 { true } else { false }
            })
        else {
            Issue.record("no request for the whole plan's figures: \(actions)")
            return
        }
        #expect(ids.isEmpty)
        #expect(model.outline.count == 0)
        #expect(model.render().lines.last?.contains("loading the critical path") == true)
        let figures = ScheduleFigures.Task(
            lateStart: Sample.date("2026-09-08"), lateFinish: Sample.date("2026-09-11"), slack: 0)
        let relaxed = ScheduleFigures.Task(
            lateStart: Sample.date("2026-09-20"), lateFinish: Sample.date("2026-09-30"), slack: 5)
        let answer = ScheduleAnswer(
            plan: "demo", version: 5, finish: nil,
            tasks: [
                ScheduleAnswer.Row(id: "spec", figures: figures), ScheduleAnswer.Row(id: "build", figures: relaxed),
            ])
        // A search kept from before finds among the rows the figures bring.
        _ = press(.character("/"), into: &model)
        type("spec", into: &model)
        _ = press(.enter, into: &model)
        #expect(model.find.matches.isEmpty, "no rows yet")
        _ = model.handle(.server(.schedule(answer, ref: ref)))
        #expect(model.rows.map(\.id) == ["design", "spec"])
        #expect(model.find.matches.count == 1, "Spec, once the figures came")
        #expect(
            !model.handle(.key(.down)).contains { if case .schedule(_, [], _) = $0 { true } else { false } },
            "asked once per version")
    }

    @Test("gg and G go to the first and last row; Ctrl-D and Ctrl-U move half a page with the rows")
    func rowsKeys() throws {
        let tasks = try (0..<60).map {
            try GanttTask(id: "t\($0)", title: "Task \($0)", kind: .activity(schedule: nil, progress: 0))
        }
        var model = ClientModel(settings: ClientModelTests.settings)
        _ = model.handle(.resize(width: 100, height: 14))  // 10 rows in the list
        _ = model.handle(.copy(Sample.copy(try TaskCollection(tasks))))
        _ = press(.character("G"), into: &model)
        #expect(model.selectedIndex == 59 && model.topRow == 50)
        _ = press(.character("g"), into: &model)
        #expect(model.render().lines.last?.hasPrefix("g …  g: first row") == true)
        _ = press(.character("g"), into: &model)
        #expect(model.selectedIndex == 0)
        _ = press(.control("d"), .control("d"), into: &model)
        #expect(model.selectedIndex == 10 && model.topRow == 10)
        _ = press(.control("u"), into: &model)
        #expect(model.selectedIndex == 5 && model.topRow == 5)
        _ = press(.character("g"), .character("x"), into: &model)
        #expect(model.selectedIndex == 5 && !model.find.goPending, "g and another key: nothing")
    }

    @Test("g and a date go there on the timeline (ISO or German); f goes to the selected task's bar")
    func goToDate() {
        var model = loaded()
        _ = press(.character("g"), .character("2"), into: &model)
        type("026-10-01", into: &model)
        #expect(model.render().lines.last?.hasPrefix("Go to date (YYYY-MM-DD): 2026-10-01▏") == true)
        _ = press(.enter, into: &model)
        #expect(model.mode == .timeline)
        #expect(model.viewport.axis.column(at: model.viewport.firstColumn).firstDate == Sample.date("2026-10-01"))
        _ = press(.character("g"), .character("1"), into: &model)
        type("4.09.2026", into: &model)
        _ = press(.enter, into: &model)
        #expect(model.viewport.axis.column(at: model.viewport.firstColumn).firstDate == Sample.date("2026-09-14"))
        _ = press(.character("g"), .character("3"), .enter, into: &model)
        #expect(model.message == "“3” is not a date (YYYY-MM-DD).")
        _ = press(.down, .character("f"), into: &model)  // Spec, from 09-08
        #expect(model.viewport.axis.column(at: model.viewport.firstColumn).firstDate == Sample.date("2026-09-08"))
        _ = press(.down, .character("f"), into: &model)  // Review: no dates
        #expect(model.message == "“Review” has no dates: no bar.")
    }

    @Test("a click selects the row under it; the wheel scrolls; in the timeline a bar dragged proposes once on release")
    func mouse() throws {
        var model = loaded()
        // The list: heading, view bar, the column headings, then the rows from line 3.
        _ = model.handle(.key(.mouse(MouseEvent(.press, x: 5, y: 5))))
        #expect(model.selectedTask?.id == "review")
        _ = model.handle(.key(.mouse(MouseEvent(.release, x: 5, y: 5))))
        _ = model.handle(.key(.mouse(MouseEvent(.wheelDown, x: 5, y: 5))))
        #expect(model.selectedTask?.id == "release")
        _ = model.handle(.key(.tab))  // the timeline: three header lines, rows from line 5
        #expect(model.mode == .timeline)
        let x = try #require(column(of: Sample.date("2026-09-09"), in: model))
        _ = model.handle(.key(.mouse(MouseEvent(.press, x: x, y: 6))))  // Spec's bar
        #expect(model.selectedTask?.id == "spec" && model.drag != nil)
        let later = try #require(column(of: Sample.date("2026-09-12"), in: model))
        #expect(model.handle(.key(.mouse(MouseEvent(.drag, x: later, y: 6)))).isEmpty)
        #expect(model.message == "Move “Spec” by +3 days → 2026-09-11 – 2026-09-13 (release to propose)")
        let released = model.handle(.key(.mouse(MouseEvent(.release, x: later, y: 9))))
        let spec = Sample.collection["spec"]!
        guard case .propose(.replace(let previous, let proposed), let id)? = released.first, released.count == 1 else {
            Issue.record("one proposal on the release: \(released)")
            return
        }
        #expect(previous == spec && proposed.schedule?.start == Sample.date("2026-09-11"))
        #expect(model.shownCollection?["spec"] == spec, "nothing moves before the server confirms")
        #expect(model.pendingTaskIDs == ["spec"])
        _ = model.handle(
            .server(.rejected(id: id, plan: "demo", code: .staleTask, message: "changed", version: 3)))
        #expect(model.message == model.rejectedText(.staleTask))
        // A press beside a bar only selects; a viewer selects but cannot drag.
        _ = model.handle(.key(.mouse(MouseEvent(.press, x: later + 20, y: 6))))
        #expect(model.drag == nil && model.handle(.key(.mouse(MouseEvent(.release, x: later, y: 6)))).isEmpty)
    }

    /// The screen column of the middle of `date`'s cells on the timeline.
    func column(of date: CivilDate, in model: ClientModel) -> Int? {
        (0..<model.width).first { model.chartDate(atX: $0) == date && $0 > model.nameWidth }
    }

    @Test("the link form picks its other task by typing; the group form offers the top level and groups only")
    func pickers() throws {
        var model = loaded()
        _ = press(.down, .character("l"), .tab, into: &model)
        type("rel", into: &model)
        guard case .picker(let picker)? = model.form?.fields[1].value else {
            Issue.record("no picker")
            return
        }
        #expect(picker.matches.map(\.id) == ["release"] && picker.listOpen)
        expectGolden(model.render().text, "screen-link-picker-en")
        _ = press(.enter, into: &model)
        #expect(model.form?.fields[1].selectedID == "release")
        _ = press(.escape, .character("m"), into: &model)
        #expect(model.form?.action == .group)
        type("i", into: &model)
        guard case .picker(let groups)? = model.form?.fields[0].value else {
            Issue.record("no group picker")
            return
        }
        #expect(groups.matches.map(\.id) == ["impl", "design"], "groups only: id prefix first, then containing")
        // A group is not offered as its own group.
        _ = press(.escape, .escape, .up, .character("m"), into: &model)
        type("des", into: &model)
        guard case .picker(let own)? = model.form?.fields[0].value else {
            Issue.record("no group picker on Design")
            return
        }
        #expect(own.matches.isEmpty)
    }
}

extension ClientModelFindTests {
    @Test("a refused critical request is said once and not asked again for that version; the wheel scrolls the help")
    func criticalRefusedAndHelpWheel() {
        var model = loaded(height: 12)
        let asked = press(.character("F"), .character("c"), into: &model)
        guard
            case .schedule(3, [], let ref)? = asked.first(where: {
                if case .schedule(_, [], _) = $0 { true } else { false }
            })
        else {
            Issue.record("no request: \(asked)")
            return
        }
        _ = model.handle(.server(.error(code: .forbidden, message: "no", ref: ref)))
        #expect(model.message?.contains("no") == true)
        #expect(!press(.down, .up, into: &model).contains { if case .schedule(_, [], _) = $0 { true } else { false } })
        #expect(model.render().lines.contains { $0.contains("No critical task.") })
        _ = press(.escape, .character("?"), into: &model)
        _ = model.handle(.key(.mouse(MouseEvent(.wheelDown, x: 1, y: 3))))
        #expect(model.showsHelp && model.helpTop == ClientModel.wheelRows)
        _ = model.handle(.key(.mouse(MouseEvent(.release, x: 1, y: 3))))
        #expect(model.showsHelp, "a release does not close the help")
    }
}
