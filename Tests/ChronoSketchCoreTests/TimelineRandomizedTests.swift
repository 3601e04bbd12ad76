import Testing

@testable import ChronoSketchCore

private typealias F = TimelineFixtures

/// One randomized run: random valid and invalid operations on `data`, mirrored on a plain model.
private struct RandomTimelineRun {
    var rng: SplitMix64
    var data: TimelineData
    /// The expected contents, maintained by the simplest possible bookkeeping.
    var entries: [String: TimelineEntry] = [:]
    var assignments: [String: TimelineAssignment] = [:]
    /// Bars of entries that were removed, to propose stale originals.
    var removedBars: [TimelineAssignedEntry] = []
    var nextID = 0

    static let resourceIDs = ["r0", "r1", "r2", "r3", "r4"]
    static let base = F.at("2026-09-01T00:00").minuteNumber
    static let window = 30 * 1440

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        data = try! TimelineData(resources: Self.resourceIDs.map(F.resource), entries: [], assignments: [])
    }

    mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ percent: Int) -> Bool { int(0..<100) < percent }
    mutating func newID(_ prefix: String) -> String {
        nextID += 1
        return "\(prefix)\(nextID)"
    }

    static func dateTime(_ minuteNumber: Int) -> LocalDateTime {
        try! LocalDateTime(
            date: CivilDate(dayNumber: minuteNumber / 1440), hour: minuteNumber % 1440 / 60,
            minute: minuteNumber % 60)
    }

    /// A random valid interval, mostly short, sometimes days or weeks long.
    mutating func interval() -> (LocalDateTime, LocalDateTime) {
        let start = Self.base + int(0..<Self.window)
        let roll = int(0..<100)
        let length = roll < 70 ? int(1..<600) : roll < 95 ? int(600..<4 * 1440) : int(4 * 1440..<40 * 1440)
        return (Self.dateTime(start), Self.dateTime(start + length))
    }

    mutating func resourceID() -> String { Self.resourceIDs[int(0..<Self.resourceIDs.count)] }

    /// A random query: often a day or a week, sometimes up to 400 days, on a random subset of
    /// resources in random order (including, now and then, one the data does not have).
    mutating func query() -> TimelineQuery {
        let start = Self.base - 2 * 1440 + int(0..<(Self.window + 4 * 1440))
        let roll = int(0..<100)
        let length = roll < 10 ? int(1..<60) : roll < 90 ? int(60..<8 * 1440) : int(8 * 1440..<400 * 1440 + 1)
        var ids = Self.resourceIDs.shuffled(using: &rng)
        ids.removeLast(int(0..<ids.count))
        if chance(10) { ids.append("r9") }
        return try! TimelineQuery(start: Self.dateTime(start), end: Self.dateTime(start + length), resourceIDs: ids)
    }

    /// The page for `query`, computed by brute force over every assignment of the model.
    func bruteForcePage(_ query: TimelineQuery) -> TimelinePage {
        var matches: [(rank: Int, entry: TimelineEntry, assignment: TimelineAssignment)] = []
        for assignment in assignments.values {
            guard let rank = query.resourceIDs.firstIndex(of: assignment.resourceID) else { continue }
            let entry = entries[assignment.entryID]!
            if entry.start < query.end && entry.end > query.start { matches.append((rank, entry, assignment)) }
        }
        matches.sort {
            ($0.rank, $0.entry.start, $0.entry.id, $0.assignment.id)
                < ($1.rank, $1.entry.start, $1.entry.id, $1.assignment.id)
        }
        var seen = Set<String>()
        let pageEntries = matches.compactMap { seen.insert($0.entry.id).inserted ? $0.entry : nil }
        return TimelinePage(
            entries: pageEntries.sorted { ($0.start, $0.id) < ($1.start, $1.id) },
            assignments: matches.map(\.assignment))
    }

    /// A random current (entry, assignment) pair, if there is any assignment.
    mutating func bar() -> TimelineAssignedEntry? {
        guard !assignments.isEmpty else { return nil }
        let ids = assignments.keys.sorted()
        let assignment = assignments[ids[int(0..<ids.count)]]!
        return TimelineAssignedEntry(entry: entries[assignment.entryID]!, assignment: assignment)
    }

    mutating func randomEntryID() -> String? {
        entries.isEmpty ? nil : entries.keys.sorted()[int(0..<entries.count)]
    }

    /// Runs an operation that must be rejected with `code`, checking that it changes nothing.
    mutating func expectRejection(
        _ code: RejectionCode, _ operation: (inout TimelineData) throws -> TimelineChange,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let before = data
        do {
            _ = try operation(&data)
            Issue.record("expected \(code), but the operation succeeded", sourceLocation: sourceLocation)
        } catch {
            #expect((error as? TimelineError)?.code == code, sourceLocation: sourceLocation)
            #expect(data == before, sourceLocation: sourceLocation)
        }
        data = before
    }

    /// Performs one random operation; returns the change when one was applied.
    mutating func operate() throws -> TimelineChange? {
        let addBias = entries.count < 60 ? 4 : 2
        switch int(0..<(10 + addBias)) {
        case 0, 1, 2: return try applyValid()
        case 3, 4: applyInvalid()
        case 5: return try remove()
        case 6: removeStale()
        case 7, 8: addInvalid()
        case 9:
            if let bar = bar() {
                let change = try data.apply(original: bar, proposed: bar)
                #expect(change.isNoop)
                return change
            }
        default: return try add()
        }
        return nil
    }

    mutating func applyValid() throws -> TimelineChange? {
        guard let original = bar() else { return nil }
        var proposed = original
        if chance(50) { proposed.entry = proposed.entry.with(title: newID("title ")) }
        if chance(60) {
            let (start, end) = interval()
            proposed.entry = try proposed.entry.with(start: start, end: end)
        }
        if chance(40) { proposed.assignment = proposed.assignment.with(resourceID: resourceID()) }
        let change = try data.apply(original: original, proposed: proposed)
        #expect(change.isNoop == (proposed == original))
        entries[proposed.entry.id] = proposed.entry
        assignments[proposed.assignment.id] = proposed.assignment
        return change
    }

    mutating func applyInvalid() {
        if !removedBars.isEmpty, chance(15) {
            let gone = removedBars[int(0..<removedBars.count)]
            expectRejection(.staleEntry) { try $0.apply(original: gone, proposed: gone) }
            return
        }
        guard let original = bar() else { return }
        var proposed = original
        switch int(0..<6) {
        case 0:
            var stale = original
            stale.entry = original.entry.with(title: original.entry.title + "!")
            expectRejection(.staleEntry) { try $0.apply(original: stale, proposed: proposed) }
        case 1:
            var stale = original
            let others = Self.resourceIDs.filter { $0 != original.assignment.resourceID }
            stale.assignment = original.assignment.with(resourceID: others[int(0..<others.count)])
            expectRejection(.staleAssignment) { try $0.apply(original: stale, proposed: proposed) }
        case 2:
            proposed.assignment = original.assignment.with(resourceID: "r9")
            expectRejection(.unknownResource) { try $0.apply(original: original, proposed: proposed) }
        case 3:
            let start = original.entry.start
            let end = chance(50) ? start : Self.dateTime(start.minuteNumber - int(1..<1000))
            proposed.entry = TimelineEntry(unchecked: original.entry.id, title: "x", start: start, end: end)
            expectRejection(.invalidInterval) { try $0.apply(original: original, proposed: proposed) }
        case 4:
            proposed.entry = TimelineEntry(
                unchecked: newID("e"), title: original.entry.title, start: original.entry.start, end: original.entry.end
            )
            expectRejection(.identityChanged) { try $0.apply(original: original, proposed: proposed) }
        default:
            proposed.assignment = TimelineAssignment(
                unchecked: original.assignment.id, entryID: newID("e"), resourceID: original.assignment.resourceID)
            expectRejection(.identityChanged) { try $0.apply(original: original, proposed: proposed) }
        }
    }

    mutating func add() throws -> TimelineChange {
        let (start, end) = interval()
        let entry = try TimelineEntry(id: newID("e"), title: newID("title "), start: start, end: end)
        var added: [TimelineAssignment] = []
        for _ in 0..<int(0..<4) {
            added.append(try TimelineAssignment(id: newID("a"), entryID: entry.id, resourceID: resourceID()))
        }
        let change = try data.add(entry: entry, assignments: added)
        entries[entry.id] = entry
        for assignment in added { assignments[assignment.id] = assignment }
        return change
    }

    mutating func addInvalid() {
        let (start, end) = interval()
        let entry = TimelineEntry(unchecked: newID("e"), title: "new", start: start, end: end)
        let good = TimelineAssignment(unchecked: newID("a"), entryID: entry.id, resourceID: resourceID())
        switch int(0..<5) {
        case 0:
            guard let existing = randomEntryID() else { return }
            let duplicate = TimelineEntry(unchecked: existing, title: "dup", start: start, end: end)
            expectRejection(.duplicateID) { try $0.add(entry: duplicate, assignments: []) }
        case 1:
            let unknown = TimelineAssignment(unchecked: newID("a"), entryID: entry.id, resourceID: "r9")
            expectRejection(.unknownResource) { try $0.add(entry: entry, assignments: [good, unknown]) }
        case 2:
            guard let existing = assignments.keys.sorted().first else { return }
            let duplicate = TimelineAssignment(unchecked: existing, entryID: entry.id, resourceID: resourceID())
            expectRejection(.duplicateID) { try $0.add(entry: entry, assignments: [good, duplicate]) }
        case 3:
            let foreign = TimelineAssignment(
                unchecked: newID("a"), entryID: randomEntryID() ?? "e-none", resourceID: resourceID())
            expectRejection(.identityChanged) { try $0.add(entry: entry, assignments: [good, foreign]) }
        default:
            let empty = TimelineEntry(unchecked: entry.id, title: "empty", start: start, end: start)
            expectRejection(.invalidInterval) { try $0.add(entry: empty, assignments: [good]) }
        }
    }

    mutating func remove() throws -> TimelineChange? {
        guard let id = randomEntryID() else { return nil }
        let entry = entries[id]!
        let change = try data.remove(entry: entry)
        for assignment in assignments.values where assignment.entryID == id {
            removedBars.append(TimelineAssignedEntry(entry: entry, assignment: assignment))
            assignments[assignment.id] = nil
        }
        entries[id] = nil
        return change
    }

    mutating func removeStale() {
        if let gone = removedBars.last, chance(50) {
            expectRejection(.staleEntry) { try $0.remove(entry: gone.entry) }
        } else if let id = randomEntryID() {
            let changed = entries[id]!.with(title: "changed")
            expectRejection(.staleEntry) { try $0.remove(entry: changed) }
        }
    }

    /// One step: random queries, one random operation, then every check.
    mutating func step() throws {
        let queries = [query(), query()]
        let pagesBefore = queries.map { data.page(for: $0) }
        let change = try operate()
        F.expectConsistent(data)
        #expect(data.entriesByID == entries)
        #expect(data.assignmentsByID == assignments)
        for (query, pageBefore) in zip(queries, pagesBefore) {
            let page = data.page(for: query)
            #expect(page == bruteForcePage(query))
            #expect(throws: Never.self) { try page.validate(against: query) }
            if let change {
                #expect(query.isAffected(by: change) == (page != pageBefore))
            } else {
                #expect(page == pageBefore)
            }
        }
    }
}

@Suite("Timeline randomized")
struct TimelineRandomizedTests {
    @Test(
        "random operations keep the data valid, rejections change nothing, pages match brute force",
        arguments: [1, 2, 3, 0xC0FFEE] as [UInt64])
    func randomOperations(seed: UInt64) throws {
        var run = RandomTimelineRun(seed: seed)
        var applied = 0
        for _ in 0..<1500 {
            let before = run.data
            try run.step()
            if run.data != before { applied += 1 }
        }
        #expect(applied > 500)
        #expect(run.data.entryCount > 10)
    }
}
