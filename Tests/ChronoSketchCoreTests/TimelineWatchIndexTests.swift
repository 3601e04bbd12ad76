import Testing

@testable import ChronoSketchCore

private typealias F = TimelineFixtures

@Suite("TimelineWatchIndex: only the watches a change touches")
struct TimelineWatchIndexTests {
    /// w-room1 and w-both in the week of 2026-09-07; w-room2-later a month later; w-room3 on room-3.
    static func index() -> TimelineWatchIndex<String> {
        var index = TimelineWatchIndex<String>()
        index.insert(F.query("2026-09-07T00:00", "2026-09-14T00:00", ["room-1"]), for: "w-room1")
        index.insert(F.query("2026-09-07T00:00", "2026-09-14T00:00", ["room-1", "room-2"]), for: "w-both")
        index.insert(F.query("2026-10-05T00:00", "2026-10-12T00:00", ["room-2"]), for: "w-room2-later")
        index.insert(F.query("2026-09-07T00:00", "2026-09-14T00:00", ["room-3"]), for: "w-room3")
        return index
    }

    static func affected(_ index: TimelineWatchIndex<String>, _ change: TimelineChange) -> Set<String> {
        Set(index.affected(by: change).map(\.key))
    }

    @Test("an added entry touches the watches of its resources whose interval it overlaps")
    func added() throws {
        var data = try TimelineData(resources: F.resources, entries: [], assignments: [])
        let entry = F.entry("e9", "2026-09-09T09:00", "2026-09-09T10:00")
        let change = try data.add(entry: entry, assignments: [F.assignment("a9", "e9", "room-2")])
        #expect(Self.affected(Self.index(), change) == ["w-both"])
    }

    @Test("a moved entry touches watches at its old and its new interval, and no others")
    func moved() throws {
        var data = try TimelineData(resources: F.resources, entries: [], assignments: [])
        let entry = F.entry("e9", "2026-09-09T09:00", "2026-09-09T10:00")
        let assignment = F.assignment("a9", "e9", "room-2")
        try data.add(entry: entry, assignments: [assignment])
        let later = F.entry("e9", "2026-10-06T09:00", "2026-10-06T10:00")
        let change = try data.apply(
            original: TimelineAssignedEntry(entry: entry, assignment: assignment),
            proposed: TimelineAssignedEntry(entry: later, assignment: assignment))
        #expect(Self.affected(Self.index(), change) == ["w-both", "w-room2-later"])
        // Retitled in place far from every watched window: nothing to refresh.
        let retitled = F.entry("e9", "2026-10-06T09:00", "2026-10-06T10:00", title: "Renamed")
        var quiet = Self.index()
        quiet.remove("w-room2-later")
        let retitle = try data.apply(
            original: TimelineAssignedEntry(entry: later, assignment: assignment),
            proposed: TimelineAssignedEntry(entry: retitled, assignment: assignment))
        #expect(Self.affected(quiet, retitle).isEmpty)
    }

    @Test("a removed entry touches the watches that showed it; touching is not overlapping")
    func removed() throws {
        var data = try TimelineData(resources: F.resources, entries: [], assignments: [])
        let entry = F.entry("e9", "2026-09-13T23:00", "2026-09-14T00:00")
        try data.add(entry: entry, assignments: [F.assignment("a9", "e9", "room-1")])
        #expect(Self.affected(Self.index(), try data.remove(entry: entry)) == ["w-room1", "w-both"])
        let touching = F.entry("e8", "2026-09-14T00:00", "2026-09-14T01:00")
        try data.add(entry: touching, assignments: [F.assignment("a8", "e8", "room-1")])
        #expect(Self.affected(Self.index(), try data.remove(entry: touching)).isEmpty)
    }

    @Test("replacing a watch re-indexes it; removing it forgets it; each watch is reported once")
    func replaceAndRemove() throws {
        var index = Self.index()
        #expect(index.count == 4 && index.watchCount(onResource: "room-1") == 2)
        index.insert(F.query("2026-09-07T00:00", "2026-09-14T00:00", ["room-3"]), for: "w-room1")
        #expect(index.count == 4 && index.watchCount(onResource: "room-1") == 1)
        #expect(index.watchCount(onResource: "room-3") == 2)
        var change = TimelineChange()
        change.before = TimelineFootprint(
            start: F.at("2026-09-08T00:00"), end: F.at("2026-09-09T00:00"), resourceIDs: ["room-1", "room-3"])
        change.after = change.before
        #expect(index.affected(by: change).map(\.key).sorted() == ["w-both", "w-room1", "w-room3"])
        #expect(index.remove("w-room1") != nil && index.remove("w-room1") == nil)
        #expect(index.remove("w-both")?.resourceIDs == ["room-1", "room-2"])
        #expect(index.watchCount(onResource: "room-1") == 0 && index.count == 2)
        #expect(Self.affected(index, change) == ["w-room3"])
    }

    @Test("the selection equals testing every watch (randomized), while looking only at touched resources")
    func matchesExhaustiveCheck() throws {
        var random = SplitMix64(seed: 12)
        let resources = (0..<20).map { "r\($0)" }
        var index = TimelineWatchIndex<Int>()
        var queries: [Int: TimelineQuery] = [:]
        func time(_ day: Int, _ hour: Int) -> LocalDateTime {
            try! LocalDateTime(
                date: F.at("2026-09-01T00:00").date.adding(days: day + hour / 24), hour: hour % 24, minute: 0)
        }
        for key in 0..<300 {
            let day = Int(random.next() % 30)
            let ids = Array(Set((0..<(1 + Int(random.next() % 3))).map { _ in resources[Int(random.next() % 20)] }))
            let query = try TimelineQuery(
                start: time(day, 0), end: time(day + 1 + Int(random.next() % 5), 0), resourceIDs: ids)
            index.insert(query, for: key)
            queries[key] = query
        }
        for _ in 0..<200 {
            var change = TimelineChange()
            let day = Int(random.next() % 35)
            let hour = Int(random.next() % 24)
            change.before = TimelineFootprint(
                start: time(day, hour), end: time(day, hour + 2), resourceIDs: [resources[Int(random.next() % 20)]])
            if random.next() % 2 == 0 {
                change.after = TimelineFootprint(
                    start: time(day + 3, hour), end: time(day + 4, hour),
                    resourceIDs: [resources[Int(random.next() % 20)]])
            }
            let expected = Set(queries.filter { $0.value.isAffected(by: change) }.keys)
            let selected = index.affected(by: change).map(\.key)
            #expect(Set(selected) == expected && selected.count == expected.count)
        }
    }
}
