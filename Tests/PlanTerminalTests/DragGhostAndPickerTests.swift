import ChronoSketchCore
import PlanProtocol
import PlanTestSupport
import Testing

@testable import PlanTerminal

@Suite("Interactive client: the several-resources picker, the resources view's mouse and drag ghosts")
struct DragGhostAndPickerTests {
    func rooms() -> PickerIndex {
        PickerIndex((1...12).map { PickerOption(id: "room-\($0)", label: "Room \($0)") })
    }

    /// Answers the picker's query from `index`, as the model does after every key.
    func answer(_ picker: inout FieldPicker, from index: PickerIndex) {
        let found = index.query(picker.query.text)
        picker.receive(found.matches, more: found.more)
    }

    @Test(
        "a picker of several ticks and unticks with Enter, keeps the list open, and Backspace on empty unticks the last"
    )
    func severalPicker() {
        let index = rooms()
        var picker = FieldPicker(several: .resources, picked: [PickerOption(id: "room-1", label: "Room 1")])
        #expect(picker.pickedIDs == ["room-1"] && picker.summary == "Room 1")
        for character in "room 1" { _ = picker.handle(.character(character)) }
        answer(&picker, from: index)
        // Labels starting with it: Room 1, Room 10, Room 11, Room 12 (by label).
        #expect(picker.matches.map(\.id) == ["room-1", "room-10", "room-11", "room-12"])
        let lines = picker.listLines(rows: 6, strings: TerminalStrings(.english)).map(\.0)
        #expect(lines.first == "  = Room 1")
        #expect(lines[1] == "  [x] Room 1  (room-1)" && lines[2] == "  [ ] Room 10  (room-10)")
        _ = picker.handle(.down)
        let ticked = picker.handle(.enter)
        #expect(ticked && picker.pickedIDs == ["room-1", "room-10"] && picker.listOpen, "ticked, the list still open")
        _ = picker.handle(.up)
        _ = picker.handle(.enter)
        #expect(picker.pickedIDs == ["room-10"], "Enter on a ticked one unticks it")
        let closed = picker.handle(.escape)
        #expect(closed && !picker.listOpen)
        for _ in 0..<6 { _ = picker.handle(.backspace) }
        #expect(picker.query.text.isEmpty && picker.pickedIDs == ["room-10"], "Backspace edits the query first")
        let unticked = picker.handle(.backspace)
        #expect(unticked && picker.pickedIDs.isEmpty && picker.summary == "—")
        _ = picker.handle(.escape)
        let passed = !picker.handle(.enter)
        #expect(passed, "Enter with the list closed is the form's (save or next field)")
        var field = FormField.picker("Resources", picker)
        if case .picker(var inside) = field.value {
            inside.toggle(PickerOption(id: "room-3", label: "Room 3"))
            field.value = .picker(inside)
        }
        #expect(field.selectedIDs == ["room-3"] && field.display == "Room 3")
    }

    @Test("the add-entry form's resources field is a picker of several: typing lists the matches, the picked ticked")
    func addEntryPicker() throws {
        var model = try ClientModelEntryTests().resourcesView()
        _ = model.handle(.key(.character("a")))
        for _ in 0..<3 { _ = model.handle(.key(.tab)) }
        guard case .picker(let picker)? = model.form?.fields[3].value else {
            Issue.record("not a picker: \(String(describing: model.form?.fields[3]))")
            return
        }
        #expect(picker.multiple && picker.pickedIDs == ["room-1"])
        type("room", into: &model)
        guard case .picker(let typed)? = model.form?.fields[3].value else { return }
        #expect(typed.matches.map(\.id) == ["room-1", "room-2"])
        _ = model.handle(.resize(width: 100, height: 24))
        let text = model.render().text
        #expect(text.contains("= Room 1") && text.contains("[x] Room 1") && text.contains("[ ] Room 2"))
    }

    @Test("a booking dragged moves by whole cells in quarter hours; no move proposes nothing")
    func bookingDragValue() throws {
        let entry = try TimelineEntry(
            id: "e", title: "Kickoff", start: LocalDateTime("2026-09-08T09:00"), end: LocalDateTime("2026-09-09T12:00"))
        let target = TimelineAssignedEntry(
            entry: entry, assignment: try TimelineAssignment(id: "a", entryID: "e", resourceID: "r"))
        var drag = BookingDrag(target: target, pressCell: 5, minutesPerCell: 480)
        #expect(drag.proposal == nil)
        drag.move(toCell: 3)
        #expect(drag.minutes == -960)
        #expect(drag.moved?.entry.start == (try LocalDateTime("2026-09-07T17:00")))
        #expect(drag.moved?.entry.end == (try LocalDateTime("2026-09-08T20:00")), "the length kept")
        #expect(drag.proposal == .timelineApply(original: target, proposed: try #require(drag.moved)))
        var fine = BookingDrag(target: target, pressCell: 0, minutesPerCell: 1440 * 8 / 6.0)  // 1,920
        fine.move(toCell: 1)
        #expect(fine.minutes == 1920)
        var odd = BookingDrag(target: target, pressCell: 0, minutesPerCell: 20)
        odd.move(toCell: 1)
        #expect(odd.minutes == 15, "rounded to a quarter hour")
        odd.move(toCell: 0)
        #expect(odd.proposal == nil)
    }

    @Test("the pointer's line and cell name the resource row and the booking on that lane")
    func pointerHit() {
        let first = ResourceLanes(items: [
            .init(id: "a1", start: 2, end: 6, titleWidth: 0), .init(id: "a2", start: 4, end: 9, titleWidth: 0),
        ])
        let second = ResourceLanes(items: [])
        let rows = [(row: 7, lanes: first), (row: 8, lanes: second)]
        #expect(first.laneCount == 2)
        #expect(ResourcePointer.hit(rows: rows, line: 0, cell: 3)! == (7, "a1"))
        #expect(ResourcePointer.hit(rows: rows, line: 1, cell: 3)! == (7, nil), "lane 2 is empty at cell 3")
        #expect(ResourcePointer.hit(rows: rows, line: 1, cell: 8)! == (7, "a2"))
        #expect(ResourcePointer.hit(rows: rows, line: 0, cell: 6)! == (7, nil), "the bar ends before cell 6")
        #expect(ResourcePointer.hit(rows: rows, line: 2, cell: 3)! == (8, nil))
        #expect(ResourcePointer.hit(rows: rows, line: 0, cell: -1)! == (7, nil), "the name column")
        #expect(ResourcePointer.hit(rows: rows, line: 3, cell: 3) == nil)
        #expect(ResourcePointer.hit(rows: rows, line: -1, cell: 3) == nil)
    }
}
