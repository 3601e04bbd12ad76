import ChronoSketchCore
import Testing

@testable import PlanProtocol

/// The client's view of a plan's history: undo and redo targets per user, what is undone, and who
/// changed something since.
@Suite("Client history: undo and redo targets")
struct ClientHistoryTests {
    static let task = try! GanttTask(id: "spec", title: "Spec", kind: .activity(schedule: nil, progress: 0))
    static let other = try! GanttTask(id: "build", title: "Build", kind: .activity(schedule: nil, progress: 0))

    /// A logged replace of `task` by `user` (an undo when `undoes` is given).
    static func entry(_ version: Int, _ user: String, _ task: GanttTask = task, undoes: Int? = nil) -> HistoryEntry {
        let op = PlanOperation.replace(previous: task, proposed: task.with(title: task.title + "\(version)"))
        var writer = JSONWriter()
        op.encodeJSON(into: &writer)
        var opJSON = writer.string
        if let undoes { opJSON = String(opJSON.dropLast()) + ",\"undoes\":\(undoes)}" }
        return HistoryEntry(
            version: version, at: "2026-12-01T10:00:0\(version % 10).000Z", mutationID: "m\(version)", user: user,
            opJSON: opJSON, changesJSON: #"{"upsert":[],"remove":[],"summaries":{}}"#)
    }

    static func log(_ entries: [HistoryEntry], logStart: Int = 0) -> ClientHistory {
        var log = ClientHistory()
        log.receive(page: entries, logStart: logStart, more: false)
        return log
    }

    @Test("undo takes the user's newest change; an undo moves it to redo; a redo makes it undoable again")
    func stacks() {
        var log = Self.log([Self.entry(1, "ann"), Self.entry(2, "bob"), Self.entry(3, "ann")])
        #expect(log.undoTarget(user: "ann") == 3)
        #expect(log.redoTarget(user: "ann") == nil)
        #expect(log.undoTarget(user: "bob") == 2)
        log.receive(page: [Self.entry(4, "ann", undoes: 3)], logStart: 0, more: false)
        #expect(log.undoTarget(user: "ann") == 1)
        #expect(log.redoTarget(user: "ann") == 4)
        #expect(log.undoing(3) == 4)
        // Redo: the undo undone. The redo is the newest change, to be undone next.
        log.receive(page: [Self.entry(5, "ann", undoes: 4)], logStart: 0, more: false)
        #expect(log.undoTarget(user: "ann") == 5)
        #expect(log.redoTarget(user: "ann") == nil)
        #expect(log.undoing(3) == nil)
        #expect(log.undoing(4) == 5)
        // Undo again, then a new change: the redo stack is gone.
        log.receive(page: [Self.entry(6, "ann", undoes: 5), Self.entry(7, "ann")], logStart: 0, more: false)
        #expect(log.redoTarget(user: "ann") == nil)
        #expect(log.undoTarget(user: "ann") == 7)
        // Bob's undo of ann's change is not on ann's stacks, but it undoes it; to bob it is a
        // change of his own, the next his undo key reverts.
        log.receive(page: [Self.entry(8, "bob", undoes: 7)], logStart: 0, more: false)
        #expect(log.undoTarget(user: "ann") == 7)
        #expect(log.undoing(7) == 8)
        #expect(log.undoTarget(user: "bob") == 8)
        #expect(log.redoTarget(user: "bob") == nil)
    }

    @Test("baseline ops are skipped; versions below the log start stay listed but are not kept, the one at it is")
    func baselinesAndLogStart() {
        var log = Self.log([Self.entry(1, "ann"), Self.entry(2, "ann")])
        log.receiveConfirmed(
            version: 3, user: "ann", at: "", undoes: nil,
            changes: PlanChanges(baselines: [PlanBaseline(name: "Q3", version: 2, at: "")]))
        #expect(log.undoTarget(user: "ann") == 2)
        #expect(log.versionsWithoutDetails == [3])
        log.receive(page: [Self.entry(2, "ann")], logStart: 2, more: false)
        #expect(log.versionsNewestFirst == [3, 2, 1], "version 1, below the start, is still listed")
        #expect(!log.isKept(1) && log.isKept(2) && log.isKept(3))
        #expect(log.undoTarget(user: "ann") == 2)
        #expect(log.logStart == 2)
        // A trimmed log lists nothing below its start: the version at it can be undone.
        var trimmed = Self.log([Self.entry(5, "bob"), Self.entry(4, "bob")], logStart: 4)
        trimmed.receive(page: [Self.entry(6, "bob", undoes: 5)], logStart: 4, more: false)
        #expect(trimmed.undoTarget(user: "bob") == 4 && !trimmed.listsBelowStart)
        // A log written before the server kept history lists versions below its start: neither
        // they nor the version at the start can be undone.
        var upgraded = Self.log([Self.entry(5, "bob"), Self.entry(4, "bob"), Self.entry(3, "bob")], logStart: 4)
        #expect(upgraded.listsBelowStart && upgraded.undoTarget(user: "bob") == 5)
        upgraded.receive(page: [Self.entry(6, "bob", undoes: 5)], logStart: 4, more: false)
        #expect(upgraded.undoTarget(user: "bob") == nil, "v4 starts an upgraded log, v3 is below it")
        #expect(upgraded.redoTarget(user: "bob") == 6)
    }

    @Test("an undo above the log's start pairs with the change below it that it undid: a redo is undoable")
    func pairingAcrossTheStart() {
        // Heard as confirmed before the log was trimmed to start at v5: v3, its undo v7, the redo v8.
        var log = Self.log([Self.entry(8, "ann", undoes: 7), Self.entry(7, "ann", undoes: 3), Self.entry(3, "ann")])
        log.receive(page: [], logStart: 5, more: false)
        #expect(log.undoTarget(user: "ann") == 8)
        #expect(log.redoTarget(user: "ann") == nil)
    }

    @Test("a confirmed is kept until a page tells its op, and never replaces what a page told")
    func confirmedThenPage() {
        var log = ClientHistory()
        let changes = PlanChanges(upsert: [Self.task])
        log.receiveConfirmed(version: 1, user: "ann", at: "t", undoes: nil, changes: changes)
        #expect(log.entries[1]?.operation == nil && log.entries[1]?.touched == ["spec"])
        log.receive(page: [Self.entry(1, "ann")], logStart: 0, more: false)
        #expect(log.entries[1]?.detailsRead == true && log.entries[1]?.operation != nil)
        log.receiveConfirmed(version: 1, user: "ann", at: "t", undoes: nil, changes: PlanChanges())
        #expect(log.entries[1]?.operation != nil)
        #expect(log.versionsWithoutDetails.isEmpty)
    }

    @Test("who changed it since: the newest later version touching the same task")
    func changedSince() {
        let log = Self.log([
            Self.entry(1, "ann"), Self.entry(2, "bob", Self.other), Self.entry(3, "carl"),
            Self.entry(4, "dora", Self.other),
        ])
        #expect(log.lastChange(after: 1, touching: ["spec"])?.user == "carl")
        #expect(log.lastChange(after: 3, touching: ["spec"]) == nil)
        #expect(log.lastChange(after: 1, touching: ["build"])?.version == 4)
    }
}
