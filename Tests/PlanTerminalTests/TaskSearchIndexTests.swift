import ChronoSketchCore
import Testing

@testable import PlanTerminal

@Suite("Searching and picking: folding, the search index, incremental search, filters, the picker's ranking")
struct TaskSearchIndexTests {
    /// `count` tasks under groups of 50: "Group g" (id `g<g>`), "Task g-i" (id `t<g>-<i>`).
    static func bigCollection(_ count: Int) throws -> TaskCollection {
        var tasks: [GanttTask] = []
        for group in 0..<(count / 51) {
            tasks.append(try GanttTask(id: "g\(group)", title: "Group \(group)", kind: .summary))
            for item in 0..<50 {
                tasks.append(
                    try GanttTask(
                        id: "t\(group)-\(item)", title: "Task \(group)-\(item)", parentID: "g\(group)",
                        kind: .activity(schedule: nil, progress: 0)))
            }
        }
        return try TaskCollection(tasks)
    }

    @Test("folding ignores case and accents, ß is ss, æ ae; other scripts are lower-cased only")
    func folding() {
        #expect(TextFolding.fold("Überprüfung") == "uberprufung")
        #expect(TextFolding.fold("Straße") == "strasse")
        #expect(TextFolding.fold("Crème Brûlée") == "creme brulee")
        #expect(TextFolding.fold("Cafe\u{301}") == "cafe")
        #expect(TextFolding.fold("Łódź ÆØÅ") == "lodz aeoa")
        #expect(TextFolding.fold("ΑΒΓ 計画") == "αβγ 計画")
        #expect(TextFolding.fold("SPEC-1") == "spec-1")
    }

    @Test("matches come in tree order, title or id, never across the two; a group's tasks after it")
    func treeOrder() throws {
        let index = TaskSearchIndex(Sample.collection, version: 3)
        let titles = { (ranks: [Int32]) in ranks.map { Sample.collection.tasks[Int(index.positionAtRank[Int($0)])].id }
        }
        // Tree order: design, spec, review, impl, build, release.
        #expect(titles(index.matches(TextFolding.foldedBytes("e"))) == ["design", "spec", "review", "impl", "release"])
        #expect(titles(index.matches(TextFolding.foldedBytes("IMPL"))) == ["impl"], "the id")
        #expect(titles(index.matches(TextFolding.foldedBytes("specspec"))).isEmpty, "title and id are apart")
        #expect(index.matches([]).isEmpty)
    }

    @Test("a query that extends the last one searches only its matches; Backspace scans nothing")
    func incremental() throws {
        let collection = try Self.bigCollection(5_100)
        let index = TaskSearchIndex(collection, version: 1)
        var search = IncrementalSearch()
        let all = search.matches(for: "task 1", in: index)
        let narrower = search.matches(for: "task 12", in: index)
        #expect(!all.isEmpty && narrower.count < all.count)
        #expect(narrower == index.matches(TextFolding.foldedBytes("task 12")), "the same as a full scan")
        #expect(search.matches(for: "task 1", in: index) == all, "Backspace: the kept matches")
        #expect(search.matches(for: "TÄSK 99-49", in: index).count == 1)
        #expect(search.matches(for: "", in: index).isEmpty)
    }

    @Test("n and N step from a row to the next or previous match, wrapping at the ends")
    func stepping() {
        let matches: [Int32] = [2, 5, 9]
        #expect(IncrementalSearch.step(matches, from: 0, forward: true) == 0)
        #expect(IncrementalSearch.step(matches, from: 5, forward: true) == 2)
        #expect(IncrementalSearch.step(matches, from: 5, forward: true, inclusive: true) == 1)
        #expect(IncrementalSearch.step(matches, from: 9, forward: true) == 0, "wraps to the first")
        #expect(IncrementalSearch.step(matches, from: 2, forward: false) == 2, "wraps to the last")
        #expect(IncrementalSearch.step(matches, from: 6, forward: false) == 1)
        #expect(IncrementalSearch.step([], from: 0, forward: true) == nil)
    }

    @Test("a filter's rows are the kept tasks and their groups, in tree order, at their depths")
    func filteredOutline() {
        let tasks = Sample.collection.tasks
        let outline = TaskOutline(Sample.collection) { tasks[$0].id == "build" || tasks[$0].id == "release" }
        let rows = outline.allRows(in: Sample.collection)
        #expect(rows.map(\.id) == ["impl", "build", "release"])
        #expect(rows.map(\.depth) == [0, 1, 0])
        #expect(outline.index(of: "spec", in: Sample.collection) == nil)
        #expect(outline.nearestIndex(of: "build", in: Sample.collection) == 1)
        #expect(TaskOutline(Sample.collection) { _ in false }.count == 0)
    }

    @Test("the picker ranks id prefixes, then title prefixes, then containing, at most 50, accents ignored")
    func pickerRanking() {
        let index = PickerIndex([
            PickerOption(id: "x1", label: "Review the spec"),
            PickerOption(id: "spec", label: "Write it"),
            PickerOption(id: "a7", label: "Spécification"),
            PickerOption(id: "b2", label: "Inspect"),
            PickerOption(id: "c3", label: "Other"),
        ])
        let found = index.query("SPEC")
        #expect(found.matches.map(\.id) == ["spec", "a7", "x1", "b2"])
        #expect(!found.more)
        #expect(index.query("spec") { $0.id != "spec" }.matches.map(\.id) == ["a7", "x1", "b2"])
        #expect(index.query("").matches.count == 5, "blank: all, in their order")
        #expect(index.query("zzz").matches.isEmpty)
        let limited = index.query("", limit: 2)
        #expect(limited.matches.map(\.id) == ["x1", "spec"] && limited.more)
    }

    @Test("on 100,000 options a query gives at most 50 and says there are more")
    func pickerOnBigPlan() throws {
        let options = (0..<100_000).map { PickerOption(id: "t\($0)", label: "Task \($0)") }
        let index = PickerIndex(options)
        let found = index.query("task 1")
        #expect(found.matches.count == PickerIndex.limit && found.more)
        #expect(found.matches.first?.id == "t1", "title prefixes sorted: Task 1 first")
        #expect(index.query("t99999").matches.map(\.id) == ["t99999"])
    }

    @Test("a picker field: typing opens the matches, ↓ moves, Enter picks; Escape closes the list first")
    func pickerField() {
        var picker = FieldPicker(.tasks, chosen: nil)
        #expect(!picker.listOpen && picker.needsMatches)
        let took1 = picker.handle(.character("b"))
        #expect(took1)
        #expect(picker.listOpen && picker.needsMatches)
        picker.receive([PickerOption(id: "build", label: "Build"), PickerOption(id: "b2", label: "Bug")], more: false)
        #expect(!picker.needsMatches)
        let took2 = picker.handle(.down)
        #expect(took2 && picker.highlighted == 1)
        let took3 = picker.handle(.enter)
        #expect(took3)
        #expect(picker.chosen?.id == "b2" && !picker.listOpen)
        let took4 = picker.handle(.enter)
        #expect(!took4, "closed: Enter is the form's")
        let took5 = picker.handle(.tab)
        #expect(!took5)
        _ = picker.handle(.character("x"))
        let took6 = picker.handle(.escape)
        #expect(took6 && !picker.listOpen)
        let took7 = picker.handle(.escape)
        #expect(!took7, "closed: Escape closes the form")
        var groups = FieldPicker(.groups, chosen: nil, extra: PickerOption(id: "", label: "(top level)"))
        groups.receive([], more: false)
        #expect(groups.matches.map(\.label) == ["(top level)"])
    }
}
