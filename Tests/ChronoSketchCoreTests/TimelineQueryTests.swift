import Testing

@testable import ChronoSketchCore

private typealias F = TimelineFixtures

@Suite("TimelineQuery validation")
struct TimelineQueryValidationTests {
    @Test("a valid query keeps its values")
    func valid() throws {
        let query = try TimelineQuery(
            start: F.at("2026-09-08T00:00"), end: F.at("2026-09-15T00:00"), resourceIDs: ["room-2", "room-1"])
        #expect(query.start == F.at("2026-09-08T00:00"))
        #expect(query.end == F.at("2026-09-15T00:00"))
        #expect(query.resourceIDs == ["room-2", "room-1"])
        #expect(query.requests(resourceID: "room-1"))
        #expect(!query.requests(resourceID: "room-3"))
        #expect(query == F.query("2026-09-08T00:00", "2026-09-15T00:00", ["room-2", "room-1"]))
        #expect(query != F.query("2026-09-08T00:00", "2026-09-15T00:00", ["room-1", "room-2"]))
    }

    @Test("the end must be after the start")
    func emptyInterval() {
        let start = F.at("2026-09-08T00:00")
        #expect(throws: TimelineQueryError.emptyInterval(start: start, end: start)) {
            try TimelineQuery(start: start, end: start, resourceIDs: [])
        }
        let before = F.at("2026-09-07T23:59")
        #expect(throws: TimelineQueryError.emptyInterval(start: start, end: before)) {
            try TimelineQuery(start: start, end: before, resourceIDs: [])
        }
        #expect((try? TimelineQuery(start: start, end: F.at("2026-09-08T00:01"), resourceIDs: [])) != nil)
    }

    @Test("exactly 400 days is allowed, 400 days and a minute is not")
    func maximumLength() throws {
        let start = F.at("2026-01-01T00:00")
        let exactly = LocalDateTime(startOf: try start.date.adding(days: 400))
        #expect(start.minutes(to: exactly) == 400 * 1440)
        #expect(try TimelineQuery(start: start, end: exactly, resourceIDs: ["r"]).end == exactly)
        let longer = try LocalDateTime(date: exactly.date, hour: 0, minute: 1)
        #expect(throws: TimelineQueryError.tooLong(start: start, end: longer)) {
            try TimelineQuery(start: start, end: longer, resourceIDs: ["r"])
        }
    }

    @Test("resource ids must be nonblank and unique; none at all is allowed")
    func resourceIDs() throws {
        let start = F.at("2026-09-08T00:00")
        let end = F.at("2026-09-09T00:00")
        #expect(throws: TimelineQueryError.blankResourceID(index: 1)) {
            try TimelineQuery(start: start, end: end, resourceIDs: ["room-1", " "])
        }
        #expect(throws: TimelineQueryError.duplicateResourceID(id: "room-1", index: 2)) {
            try TimelineQuery(start: start, end: end, resourceIDs: ["room-1", "room-2", "room-1"])
        }
        let none = try TimelineQuery(start: start, end: end, resourceIDs: [])
        #expect(F.sample().page(for: none) == TimelinePage())
    }

    @Test("against data, every requested resource must exist")
    func unknownResource() throws {
        let data = F.sample()
        try F.query("2026-09-08T00:00", "2026-09-09T00:00", ["room-3", "room-1"]).validate(against: data)
        #expect(throws: TimelineQueryError.unknownResource(id: "room-9")) {
            try F.query("2026-09-08T00:00", "2026-09-09T00:00", ["room-1", "room-9"]).validate(against: data)
        }
    }

    @Test("query errors name the values and are reported as badQuery")
    func messages() {
        let start = F.at("2026-09-08T00:00")
        #expect(TimelineQueryError.emptyInterval(start: start, end: start).message.contains("2026-09-08T00:00"))
        #expect(TimelineQueryError.tooLong(start: start, end: start).message.contains("400"))
        #expect(TimelineQueryError.duplicateResourceID(id: "room-1", index: 3).message.contains("room-1"))
        #expect(
            TimelineQueryError.unknownResource(id: "room-9").description
                == "badQuery: resource \"room-9\" does not exist")
        #expect(TimelineQueryError.tooLong(start: start, end: start).code == .invalidInterval)
        #expect(TimelineQueryError.blankResourceID(index: 0).code == .blankID)
        #expect(TimelineQueryError.duplicateResourceID(id: "r", index: 1).code == .duplicateID)
        #expect(TimelineQueryError.unknownResource(id: "r").code == .unknownResource)
    }
}

@Suite("TimelinePage for a query")
struct TimelinePageTests {
    /// One resource with entries around the query [2026-09-10T00:00, 2026-09-11T00:00).
    static func boundaryData() -> TimelineData {
        let entries = [
            F.entry("endsAtStart", "2026-09-09T20:00", "2026-09-10T00:00"),
            F.entry("startsAtEnd", "2026-09-11T00:00", "2026-09-11T02:00"),
            F.entry("startsBefore", "2026-09-09T22:00", "2026-09-10T01:00"),
            F.entry("endsAfter", "2026-09-10T23:59", "2026-09-11T03:00"),
            F.entry("covers", "2026-09-01T00:00", "2026-09-30T00:00"),
            F.entry("inside", "2026-09-10T12:00", "2026-09-10T13:00"),
            F.entry("farBefore", "2026-08-01T00:00", "2026-08-02T00:00"),
        ]
        return try! TimelineData(
            resources: [F.resource("r")], entries: entries,
            assignments: entries.map { F.assignment("a-" + $0.id, $0.id, "r") })
    }

    @Test("half-open overlap at the exact boundaries, with original intervals")
    func overlapBoundaries() {
        let data = Self.boundaryData()
        let page = data.page(for: F.query("2026-09-10T00:00", "2026-09-11T00:00", ["r"]))
        #expect(page.entries.map(\.id) == ["covers", "startsBefore", "inside", "endsAfter"])
        #expect(page.assignments.map(\.id) == ["a-covers", "a-startsBefore", "a-inside", "a-endsAfter"])
        #expect(page.entries[1] == F.entry("startsBefore", "2026-09-09T22:00", "2026-09-10T01:00"))
        #expect(page.entries[0].start == F.at("2026-09-01T00:00"))
        #expect(page.entries[3].end == F.at("2026-09-11T03:00"))
    }

    @Test("a one-minute query at an entry's first and last minute")
    func oneMinute() {
        let data = Self.boundaryData()
        let first = data.page(for: F.query("2026-09-10T12:00", "2026-09-10T12:01", ["r"]))
        #expect(first.entries.map(\.id) == ["covers", "inside"])
        let last = data.page(for: F.query("2026-09-10T12:59", "2026-09-10T13:00", ["r"]))
        #expect(last.entries.map(\.id) == ["covers", "inside"])
        let after = data.page(for: F.query("2026-09-10T13:00", "2026-09-10T13:01", ["r"]))
        #expect(after.entries.map(\.id) == ["covers"])
    }

    @Test("an entry with two requested assignments appears once")
    func sharedEntry() {
        let page = F.sample().page(for: F.query("2026-09-09T00:00", "2026-09-10T00:00", ["room-2", "room-1"]))
        #expect(page.entries == [F.sampleEntry("e1")])
        #expect(page.assignments.map(\.id) == ["a2", "a1"])
        #expect(page.isEmpty == false)
    }

    @Test("only requested resources, in query order; unknown ones contribute nothing")
    func requestedResources() {
        let data = F.sample()
        let page = data.page(for: F.query("2026-09-09T00:00", "2026-09-11T00:00", ["room-3", "room-9", "room-1"]))
        #expect(page.assignments.map(\.id) == ["a4", "a1", "a3"])
        #expect(page.entries.map(\.id) == ["e3", "e1", "e2"])
        let onlyTwo = data.page(for: F.query("2026-09-09T00:00", "2026-09-11T00:00", ["room-2"]))
        #expect(onlyTwo == TimelinePage(entries: [F.sampleEntry("e1")], assignments: [F.sampleAssignment("a2")]))
        #expect(data.page(for: F.query("2026-10-01T00:00", "2026-10-02T00:00", ["room-1"])).isEmpty)
    }

    @Test("a long entry is found even after shorter ones start later")
    func longEntryFound() throws {
        var data = Self.boundaryData()
        try data.remove(entry: data.entry("covers")!)
        let page = data.page(for: F.query("2026-09-20T00:00", "2026-09-21T00:00", ["r"]))
        #expect(page.isEmpty)
        F.expectConsistent(data)
        let long = F.entry("long", "2026-01-01T00:00", "2027-01-01T00:00")
        try data.add(entry: long, assignments: [F.assignment("a-long", "long", "r")])
        #expect(data.page(for: F.query("2026-09-20T00:00", "2026-09-21T00:00", ["r"])).entries == [long])
    }

    @Test("pages built from data validate against their query")
    func pageValidates() throws {
        let query = F.query("2026-09-10T00:00", "2026-09-11T00:00", ["r"])
        try Self.boundaryData().page(for: query).validate(against: query)
    }

    @Test("page validation rejects duplicates, entries outside, dangling and unrequested references")
    func pageValidation() throws {
        let query = F.query("2026-09-09T00:00", "2026-09-10T00:00", ["room-1"])
        let e1 = F.sampleEntry("e1")
        let a1 = F.sampleAssignment("a1")
        try TimelinePage(entries: [e1], assignments: [a1]).validate(against: query)
        try TimelinePage(entries: [e1], assignments: []).validate(against: query)
        #expect(throws: TimelinePageError.duplicateID(kind: .entry, id: "e1")) {
            try TimelinePage(entries: [e1, e1], assignments: [a1]).validate(against: query)
        }
        #expect(throws: TimelinePageError.duplicateID(kind: .assignment, id: "a1")) {
            try TimelinePage(entries: [e1], assignments: [a1, a1]).validate(against: query)
        }
        let touching = F.entry("e5", "2026-09-08T20:00", "2026-09-09T00:00")
        #expect(throws: TimelinePageError.entryOutsideQuery(entryID: "e5")) {
            try TimelinePage(entries: [e1, touching], assignments: [a1]).validate(against: query)
        }
        #expect(throws: TimelinePageError.unknownEntry(assignmentID: "a3", entryID: "e2")) {
            try TimelinePage(entries: [e1], assignments: [a1, F.sampleAssignment("a3")]).validate(against: query)
        }
        #expect(throws: TimelinePageError.unrequestedResource(assignmentID: "a2", resourceID: "room-2")) {
            try TimelinePage(entries: [e1], assignments: [a1, F.sampleAssignment("a2")]).validate(against: query)
        }
        #expect(
            TimelinePageError.unrequestedResource(assignmentID: "a2", resourceID: "room-2").description.contains("a2"))
    }
}

@Suite("TimelineQuery isAffected")
struct TimelineQueryAffectedTests {
    let week = F.query("2026-09-08T00:00", "2026-09-15T00:00", ["room-1"])
    let october = F.query("2026-10-01T00:00", "2026-10-08T00:00", ["room-1", "room-2", "room-3"])

    /// Applies `operation` and checks that `isAffected` agrees with the pages of `query`.
    func affected(
        _ query: TimelineQuery, _ operation: (inout TimelineData) throws -> TimelineChange,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Bool {
        var data = F.sample()
        let before = data.page(for: query)
        let change = try operation(&data)
        let result = query.isAffected(by: change)
        #expect(result == (before != data.page(for: query)), sourceLocation: sourceLocation)
        return result
    }

    func moved(_ assignmentID: String, to start: String, _ end: String, resource: String? = nil) throws
        -> TimelineAssignedEntry
    {
        let bar = F.sampleBar(assignmentID)
        return TimelineAssignedEntry(
            entry: try bar.entry.with(start: F.at(start), end: F.at(end)),
            assignment: bar.assignment.with(resourceID: resource ?? bar.assignment.resourceID))
    }

    @Test("moving a visible entry within or out of the query affects it")
    func moveVisible() throws {
        let inside = try moved("a1", to: "2026-09-10T09:00", "2026-09-10T10:00")
        #expect(try affected(week) { try $0.apply(original: F.sampleBar("a1"), proposed: inside) })
        let away = try moved("a1", to: "2026-10-02T09:00", "2026-10-02T10:00")
        #expect(try affected(week) { try $0.apply(original: F.sampleBar("a1"), proposed: away) })
        #expect(try affected(october) { try $0.apply(original: F.sampleBar("a1"), proposed: away) })
    }

    @Test("moving an entry into the query through another requested resource affects it")
    func moveIntoView() throws {
        let into = try moved("a4", to: "2026-10-03T09:00", "2026-10-03T10:00")
        #expect(try affected(october) { try $0.apply(original: F.sampleBar("a4"), proposed: into) })
        #expect(!(try affected(week) { try $0.apply(original: F.sampleBar("a4"), proposed: into) }))
    }

    @Test("retitling affects queries showing the entry through any of its assignments")
    func retitle() throws {
        var bar = F.sampleBar("a2")
        bar.entry = bar.entry.with(title: "Renamed")
        #expect(try affected(week) { try $0.apply(original: F.sampleBar("a2"), proposed: bar) })
        #expect(!(try affected(october) { try $0.apply(original: F.sampleBar("a2"), proposed: bar) }))
    }

    @Test("moving an assignment between unrequested resources does not affect the query")
    func assignmentElsewhere() throws {
        let bar = F.sampleBar("a2")
        let proposed = TimelineAssignedEntry(entry: bar.entry, assignment: bar.assignment.with(resourceID: "room-3"))
        #expect(!(try affected(week) { try $0.apply(original: bar, proposed: proposed) }))
        let rooms23 = F.query("2026-09-08T00:00", "2026-09-15T00:00", ["room-3"])
        #expect(try affected(rooms23) { try $0.apply(original: bar, proposed: proposed) })
    }

    @Test("changes entirely outside the interval do not affect it")
    func outside() throws {
        let later = try moved("a3", to: "2026-10-20T09:00", "2026-10-20T10:00")
        #expect(!(try affected(october) { try $0.apply(original: F.sampleBar("a3"), proposed: later) }))
        let touching = F.entry("e9", "2026-09-15T00:00", "2026-09-15T01:00")
        #expect(
            !(try affected(week) { try $0.add(entry: touching, assignments: [F.assignment("a9", "e9", "room-1")]) }))
    }

    @Test("adding and removing visible entries affects the query")
    func addRemove() throws {
        let visible = F.entry("e9", "2026-09-14T23:00", "2026-09-15T01:00")
        #expect(try affected(week) { try $0.add(entry: visible, assignments: [F.assignment("a9", "e9", "room-1")]) })
        #expect(!(try affected(week) { try $0.add(entry: visible, assignments: [F.assignment("a9", "e9", "room-2")]) }))
        #expect(!(try affected(week) { try $0.add(entry: visible, assignments: []) }))
        #expect(try affected(week) { try $0.remove(entry: F.sampleEntry("e2")) })
        #expect(!(try affected(week) { try $0.remove(entry: F.sampleEntry("e3")) }))
    }

    @Test("a no-op affects nothing")
    func noop() throws {
        #expect(!(try affected(week) { try $0.apply(original: F.sampleBar("a1"), proposed: F.sampleBar("a1")) }))
        #expect(!week.isAffected(by: TimelineChange()))
    }
}
