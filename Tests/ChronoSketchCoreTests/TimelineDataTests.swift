import Testing

@testable import ChronoSketchCore

private typealias F = TimelineFixtures

@Suite("TimelineData validation")
struct TimelineDataValidationTests {
    @Test("valid data builds its indexes")
    func validData() {
        let data = F.sample()
        #expect(data.entryCount == 3)
        #expect(data.assignmentCount == 4)
        #expect(data.resources.map(\.id) == ["room-1", "room-2", "room-3"])
        #expect(data.entry("e1") == F.sampleEntry("e1"))
        #expect(data.assignment("a4") == F.sampleAssignment("a4"))
        #expect(data.resource("room-2") == F.resource("room-2"))
        #expect(data.resource("room-9") == nil)
        #expect(data.assignments(ofEntry: "e1").map(\.id) == ["a1", "a2"])
        #expect(data.assignments(ofResource: "room-1").map(\.id) == ["a1", "a3"])
        #expect(data.entries.map(\.id) == ["e3", "e1", "e2"])
        #expect(data.assignments.map(\.id) == ["a1", "a3", "a2", "a4"])
        F.expectConsistent(data)
    }

    @Test("empty data is valid")
    func emptyData() throws {
        #expect(try TimelineData(resources: [], entries: [], assignments: []) == TimelineData())
    }

    @Test("ids may repeat across kinds but not within one")
    func idsPerKind() throws {
        let shared = try TimelineData(
            resources: [F.resource("x")], entries: [F.entry("x", "2026-09-09T09:00", "2026-09-09T10:00")],
            assignments: [F.assignment("x", "x", "x")])
        #expect(shared.assignmentCount == 1)
        #expect(throws: TimelineError.duplicateID(kind: .resource, id: "room-1")) {
            try TimelineData(resources: F.resources + [F.resource("room-1")], entries: [], assignments: [])
        }
        #expect(throws: TimelineError.duplicateID(kind: .entry, id: "e2")) {
            try TimelineData(
                resources: F.resources, entries: F.entries + [F.entry("e2", "2026-09-01T09:00", "2026-09-01T10:00")],
                assignments: [])
        }
        #expect(throws: TimelineError.duplicateID(kind: .assignment, id: "a3")) {
            try TimelineData(
                resources: F.resources, entries: F.entries,
                assignments: F.assignments + [F.assignment("a3", "e3", "room-1")])
        }
    }

    @Test("blank ids are rejected for every kind")
    func blankIDs() {
        #expect(throws: TimelineError.blankID(kind: .resource)) {
            try TimelineData(resources: [TimelineResource(unchecked: " ", label: "x")], entries: [], assignments: [])
        }
        let blankEntry = TimelineEntry(
            unchecked: "", title: "x", start: F.at("2026-09-09T09:00"), end: F.at("2026-09-09T10:00"))
        #expect(throws: TimelineError.blankID(kind: .entry)) {
            try TimelineData(resources: F.resources, entries: [blankEntry], assignments: [])
        }
        #expect(throws: TimelineError.blankID(kind: .assignment)) {
            try TimelineData(
                resources: F.resources, entries: F.entries,
                assignments: [TimelineAssignment(unchecked: "\t\n", entryID: "e1", resourceID: "room-1")])
        }
        #expect(throws: TimelineError.blankID(kind: .resource)) { try TimelineResource(id: "", label: "x") }
        #expect(throws: TimelineError.blankID(kind: .assignment)) {
            try TimelineAssignment(id: " ", entryID: "e1", resourceID: "room-1")
        }
    }

    @Test("an entry must end after it starts")
    func invalidInterval() {
        let start = F.at("2026-09-09T09:00")
        #expect(throws: TimelineError.self) { try TimelineEntry(id: "e", title: "", start: start, end: start) }
        #expect((try? TimelineEntry(id: "e", title: "", start: start, end: F.at("2026-09-09T09:01"))) != nil)
        let empty = TimelineEntry(unchecked: "e9", title: "x", start: start, end: start)
        let error = #expect(throws: TimelineError.self) {
            try TimelineData(resources: F.resources, entries: [empty], assignments: [])
        }
        #expect(error?.code == .invalidInterval)
        let backwards = TimelineEntry(unchecked: "e9", title: "x", start: start, end: F.at("2026-09-09T08:00"))
        #expect((try? TimelineData(resources: [], entries: [backwards], assignments: [])) == nil)
    }

    @Test("assignments must name an existing entry and resource")
    func references() {
        let toMissingEntry = F.assignment("a9", "e9", "room-1")
        let error = #expect(throws: TimelineError.unknownEntry(assignmentID: "a9", entryID: "e9")) {
            try TimelineData(resources: F.resources, entries: F.entries, assignments: F.assignments + [toMissingEntry])
        }
        #expect(error?.code == .staleEntry)
        #expect(throws: TimelineError.unknownResource(assignmentID: "a9", resourceID: "room-9")) {
            try TimelineData(
                resources: F.resources, entries: F.entries,
                assignments: F.assignments + [F.assignment("a9", "e1", "room-9")])
        }
    }

    @Test("errors carry their code and name the ids")
    func errorCodesAndMessages() {
        let cases: [(TimelineError, RejectionCode, [String])] = [
            (.staleEntry(id: "e1"), .staleEntry, ["e1"]),
            (.staleAssignment(id: "a1"), .staleAssignment, ["a1"]),
            (.unknownEntry(assignmentID: "a1", entryID: "e9"), .staleEntry, ["a1", "e9"]),
            (.unknownResource(assignmentID: "a1", resourceID: "room-9"), .unknownResource, ["a1", "room-9"]),
            (.invalidInterval(entryID: "e1", reason: "r"), .invalidInterval, ["e1"]),
            (.duplicateID(kind: .entry, id: "e1"), .duplicateID, ["e1", "entry"]),
            (.blankID(kind: .assignment), .blankID, ["assignment"]),
            (.identityChanged(id: "a1", reason: "r"), .identityChanged, ["a1"]),
        ]
        for (error, code, names) in cases {
            #expect(error.code == code)
            for name in names { #expect(error.message.contains(name), "\(error.message)") }
            #expect(error.description == "\(code.rawValue): \(error.message)")
        }
    }
}

@Suite("TimelineData apply")
struct TimelineDataApplyTests {
    @Test("moving an entry moves it for all its assignments")
    func moveEntry() throws {
        var data = F.sample()
        let original = F.sampleBar("a1")
        let moved = try original.entry.with(start: F.at("2026-09-12T10:00"), end: F.at("2026-09-12T11:00"))
        let change = try data.apply(
            original: original, proposed: TimelineAssignedEntry(entry: moved, assignment: original.assignment))
        #expect(data.entry("e1") == moved)
        #expect(data.assignments(ofEntry: "e1").map(\.id) == ["a1", "a2"])
        let week = F.query("2026-09-12T00:00", "2026-09-13T00:00", ["room-2"])
        #expect(data.page(for: week) == TimelinePage(entries: [moved], assignments: [F.sampleAssignment("a2")]))
        #expect(change.changedEntryIDs == ["e1"])
        #expect(change.entryIDs == ["e1"])
        #expect(!change.isNoop)
        #expect(
            change.before
                == TimelineFootprint(
                    start: original.entry.start, end: original.entry.end, resourceIDs: ["room-1", "room-2"]))
        #expect(
            change.after == TimelineFootprint(start: moved.start, end: moved.end, resourceIDs: ["room-1", "room-2"]))
        F.expectConsistent(data)
    }

    @Test("moving one assignment to another resource leaves the entry's other assignments")
    func moveAssignment() throws {
        var data = F.sample()
        let original = F.sampleBar("a2")
        let proposed = TimelineAssignedEntry(
            entry: original.entry, assignment: original.assignment.with(resourceID: "room-3"))
        let change = try data.apply(original: original, proposed: proposed)
        #expect(data.assignment("a2")?.resourceID == "room-3")
        #expect(data.assignment("a1")?.resourceID == "room-1")
        #expect(data.assignments(ofResource: "room-2").isEmpty)
        #expect(data.assignments(ofResource: "room-3").map(\.id) == ["a4", "a2"])
        #expect(change.changedEntryIDs == ["e1"])
        #expect(change.before?.resourceIDs == ["room-2"])
        #expect(change.after?.resourceIDs == ["room-3"])
        F.expectConsistent(data)
    }

    @Test("retitling and moving at once, and the non-mutating copy")
    func applyingCopy() throws {
        let data = F.sample()
        let original = F.sampleBar("a3")
        let entry = try original.entry.with(title: "Final review").with(
            start: F.at("2026-09-01T08:00"), end: F.at("2026-09-01T09:00"))
        let proposed = TimelineAssignedEntry(entry: entry, assignment: original.assignment.with(resourceID: "room-2"))
        let result = try data.applying(original: original, proposed: proposed)
        #expect(result.entry("e2") == entry)
        #expect(result.assignment("a3")?.resourceID == "room-2")
        #expect(data == F.sample())
        #expect(result != data)
        F.expectConsistent(result)
    }

    @Test("a proposal equal to its original is a no-op")
    func noop() throws {
        var data = F.sample()
        let change = try data.apply(original: F.sampleBar("a1"), proposed: F.sampleBar("a1"))
        #expect(change.isNoop)
        #expect(change.entryIDs.isEmpty)
        #expect(change.before == nil && change.after == nil)
        #expect(data == F.sample())
    }

    @Test("a changed or removed original entry is staleEntry")
    func staleEntry() throws {
        let data = F.sample()
        let bar = F.sampleBar("a1")
        var changed = bar
        changed.entry = bar.entry.with(title: "Old title")
        #expect(F.rejection(of: data) { try $0.apply(original: changed, proposed: bar) } == .staleEntry(id: "e1"))
        let removed = try data.removing(entry: bar.entry)
        #expect(F.rejection(of: removed) { try $0.apply(original: bar, proposed: bar) } == .staleEntry(id: "e1"))
    }

    @Test("a changed original assignment, or one of another entry, is staleAssignment")
    func staleAssignment() {
        let data = F.sample()
        let bar = F.sampleBar("a1")
        var changed = bar
        changed.assignment = bar.assignment.with(resourceID: "room-3")
        #expect(F.rejection(of: data) { try $0.apply(original: changed, proposed: bar) } == .staleAssignment(id: "a1"))
        let mismatched = TimelineAssignedEntry(entry: F.sampleEntry("e1"), assignment: F.sampleAssignment("a3"))
        #expect(
            F.rejection(of: data) { try $0.apply(original: mismatched, proposed: mismatched) }
                == .staleAssignment(id: "a3"))
        let unknown = TimelineAssignedEntry(entry: bar.entry, assignment: F.assignment("a9", "e1", "room-1"))
        #expect(
            F.rejection(of: data) { try $0.apply(original: unknown, proposed: unknown) } == .staleAssignment(id: "a9"))
    }

    @Test("ids must not change and the assignment keeps its entry")
    func identityChanged() throws {
        let data = F.sample()
        let bar = F.sampleBar("a1")
        let otherID = TimelineAssignedEntry(
            entry: try TimelineEntry(id: "e7", title: "x", start: bar.entry.start, end: bar.entry.end),
            assignment: bar.assignment)
        let otherAssignmentID = TimelineAssignedEntry(entry: bar.entry, assignment: F.assignment("a7", "e1", "room-1"))
        let otherEntryRef = TimelineAssignedEntry(entry: bar.entry, assignment: F.assignment("a1", "e2", "room-1"))
        for proposed in [otherID, otherAssignmentID, otherEntryRef] {
            let error = F.rejection(of: data) { try $0.apply(original: bar, proposed: proposed) }
            #expect(error?.code == .identityChanged)
        }
        #expect(
            F.rejection(of: data) { try $0.apply(original: bar, proposed: otherEntryRef) }?.message.contains("e2")
                == true)
    }

    @Test("the proposed resource must exist")
    func unknownResource() {
        let bar = F.sampleBar("a1")
        let proposed = TimelineAssignedEntry(entry: bar.entry, assignment: bar.assignment.with(resourceID: "room-9"))
        #expect(
            F.rejection(of: F.sample()) { try $0.apply(original: bar, proposed: proposed) }
                == .unknownResource(assignmentID: "a1", resourceID: "room-9"))
    }

    @Test("the proposed interval must be valid")
    func invalidInterval() {
        let bar = F.sampleBar("a1")
        for end in ["2026-09-09T09:00", "2026-09-09T08:59"] {
            let entry = TimelineEntry(unchecked: "e1", title: "Workshop", start: bar.entry.start, end: F.at(end))
            let error = F.rejection(of: F.sample()) {
                try $0.apply(original: bar, proposed: TimelineAssignedEntry(entry: entry, assignment: bar.assignment))
            }
            #expect(error?.code == .invalidInterval)
        }
    }

    @Test("checks run in the documented order")
    func checkOrder() {
        let bar = F.sampleBar("a1")
        var stale = bar
        stale.entry = bar.entry.with(title: "changed")
        stale.assignment = bar.assignment.with(resourceID: "room-2")
        let bad = TimelineAssignedEntry(
            entry: TimelineEntry(unchecked: "e1", title: "", start: bar.entry.end, end: bar.entry.start),
            assignment: F.assignment("a1", "e1", "room-9"))
        #expect(F.rejection(of: F.sample()) { try $0.apply(original: stale, proposed: bad) }?.code == .staleEntry)
        #expect(F.rejection(of: F.sample()) { try $0.apply(original: bar, proposed: bad) }?.code == .unknownResource)
    }
}

@Suite("TimelineData add and remove")
struct TimelineDataAddRemoveTests {
    @Test("adding an entry with assignments")
    func add() throws {
        var data = F.sample()
        let entry = F.entry("e4", "2026-09-09T11:00", "2026-09-09T13:00")
        let assignments = [F.assignment("a5", "e4", "room-1"), F.assignment("a6", "e4", "room-3")]
        let change = try data.add(entry: entry, assignments: assignments)
        #expect(change.addedEntryIDs == ["e4"])
        #expect(change.entryIDs == ["e4"])
        #expect(change.before == nil)
        #expect(
            change.after == TimelineFootprint(start: entry.start, end: entry.end, resourceIDs: ["room-1", "room-3"]))
        #expect(data.entry("e4") == entry)
        #expect(data.assignments(ofEntry: "e4") == assignments)
        #expect(data.assignments(ofResource: "room-1").map(\.id) == ["a1", "a5", "a3"])
        F.expectConsistent(data)
        let copy = try F.sample().adding(entry: entry, assignments: assignments)
        #expect(copy == data)
    }

    @Test("adding an entry without assignments")
    func addWithoutAssignments() throws {
        var data = F.sample()
        let change = try data.add(entry: F.entry("e4", "2026-09-09T11:00", "2026-09-09T13:00"), assignments: [])
        #expect(change.after?.resourceIDs == [])
        #expect(data.entryCount == 4)
        F.expectConsistent(data)
    }

    @Test("adding rejects blank, duplicate and foreign ids, unknown resources and bad intervals")
    func addRejections() {
        let data = F.sample()
        let entry = F.entry("e4", "2026-09-09T11:00", "2026-09-09T13:00")
        func rejection(_ entry: TimelineEntry, _ assignments: [TimelineAssignment]) -> TimelineError? {
            F.rejection(of: data) { try $0.add(entry: entry, assignments: assignments) }
        }
        let blankEntry = TimelineEntry(unchecked: " ", title: "x", start: entry.start, end: entry.end)
        #expect(rejection(blankEntry, []) == .blankID(kind: .entry))
        let blankAssignment = TimelineAssignment(unchecked: "", entryID: "e4", resourceID: "room-1")
        #expect(rejection(entry, [blankAssignment]) == .blankID(kind: .assignment))
        #expect(rejection(F.sampleEntry("e1"), []) == .duplicateID(kind: .entry, id: "e1"))
        #expect(rejection(entry, [F.assignment("a1", "e4", "room-1")]) == .duplicateID(kind: .assignment, id: "a1"))
        #expect(
            rejection(entry, [F.assignment("a5", "e4", "room-1"), F.assignment("a5", "e4", "room-2")])
                == .duplicateID(kind: .assignment, id: "a5"))
        #expect(rejection(entry, [F.assignment("a5", "e1", "room-1")])?.code == .identityChanged)
        #expect(
            rejection(entry, [F.assignment("a5", "e4", "room-9")])
                == .unknownResource(assignmentID: "a5", resourceID: "room-9"))
        let empty = TimelineEntry(unchecked: "e4", title: "x", start: entry.start, end: entry.start)
        #expect(rejection(empty, [])?.code == .invalidInterval)
    }

    @Test("removing an entry removes all its assignments")
    func remove() throws {
        var data = F.sample()
        let change = try data.remove(entry: F.sampleEntry("e1"))
        #expect(change.removedEntryIDs == ["e1"])
        #expect(change.entryIDs == ["e1"])
        #expect(change.after == nil)
        #expect(change.before?.resourceIDs == ["room-1", "room-2"])
        #expect(data.entry("e1") == nil)
        #expect(data.assignment("a1") == nil && data.assignment("a2") == nil)
        #expect(data.assignments(ofEntry: "e1").isEmpty)
        #expect(data.assignments(ofResource: "room-2").isEmpty)
        #expect(data.assignments(ofResource: "room-1").map(\.id) == ["a3"])
        F.expectConsistent(data)
        #expect(try F.sample().removing(entry: F.sampleEntry("e1")) == data)
    }

    @Test("removing a changed or already removed entry is staleEntry")
    func removeStale() throws {
        let data = F.sample()
        let changed = F.sampleEntry("e2").with(title: "Something else")
        #expect(F.rejection(of: data) { try $0.remove(entry: changed) } == .staleEntry(id: "e2"))
        let removed = try data.removing(entry: F.sampleEntry("e2"))
        #expect(F.rejection(of: removed) { try $0.remove(entry: F.sampleEntry("e2")) } == .staleEntry(id: "e2"))
    }
}
