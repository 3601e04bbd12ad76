import ChronoSketchCore
import PlanProtocol
import Testing

@testable import PlanTerminal

@Suite("The resources view's booking cache: bounded and indexed")
struct BookingCacheTests {
    /// A random timeline: `resources` resources, `bookings` entries over a year from 2026-09-07,
    /// each assigned to one or two resources.
    static func timeline(resources: Int, bookings: Int, seed: UInt64) throws -> TimelineData {
        var random = SplitMix64(seed: seed)
        let origin = try LocalDateTime("2026-09-07T00:00").minuteNumber
        let rooms = try (0..<resources).map { try TimelineResource(id: "r\($0)", label: "Team \($0)") }
        var entries: [TimelineEntry] = []
        var assignments: [TimelineAssignment] = []
        for index in 0..<bookings {
            let start =
                origin + Int.random(in: 0..<365, using: &random) * 1440 + Int.random(in: 0..<48, using: &random) * 30
            let length = Int.random(
                in: 1...(Int.random(in: 0..<10, using: &random) == 0 ? 20_000 : 2_000), using: &random)
            entries.append(
                try TimelineEntry(
                    id: "e\(index)", title: "Booking \(index)", start: try #require(LocalDateTime(minuteNumber: start)),
                    end: try #require(LocalDateTime(minuteNumber: start + length))))
            let first = Int.random(in: 0..<resources, using: &random)
            assignments.append(try TimelineAssignment(id: "a\(index)", entryID: "e\(index)", resourceID: "r\(first)"))
            if Int.random(in: 0..<4, using: &random) == 0 {
                let second = (first + Int.random(in: 1..<resources, using: &random)) % resources
                assignments.append(
                    try TimelineAssignment(id: "b\(index)", entryID: "e\(index)", resourceID: "r\(second)"))
            }
        }
        return try TimelineData(resources: rooms, entries: entries, assignments: assignments)
    }

    /// The query of rows `rows` over `days` days from `day` days after 2026-09-07.
    static func query(rows: Range<Int>, day: Int, days: Int) throws -> TimelineQuery {
        let start = try CivilDate("2026-09-07").adding(days: day)
        return try TimelineQuery(
            start: LocalDateTime(startOf: start), end: LocalDateTime(startOf: try start.adding(days: days)),
            resourceIDs: rows.map { "r\($0)" })
    }

    /// A browse of `steps` random moves: down or up by a page, right or left by half a window,
    /// zoom in or out (the window 30…400 days), as the view's keys move it.
    static func browse(_ steps: Int, resources: Int, seed: UInt64) throws -> [TimelineQuery] {
        var random = SplitMix64(seed: seed)
        var top = 0
        var day = 0
        var days = 60
        var queries: [TimelineQuery] = []
        for _ in 0..<steps {
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1: top = min(top + 44, resources - 50)
            case 2: top = max(top - 44, 0)
            case 3: day += days / 2
            case 4: day -= days / 2
            default: days = [30, 60, 120, 240, 400].randomElement(using: &random)!
            }
            day = min(max(day, -30), 400)
            queries.append(try query(rows: max(top - 3, 0)..<min(top + 53, resources), day: day, days: days))
        }
        return queries
    }

    @Test("after a long browse the cache holds only what is near the last query, however far it went")
    func boundHolds() throws {
        let timeline = try Self.timeline(resources: 600, bookings: 15_000, seed: 3)
        let order = timeline.resources.map(\.id)
        let all = order.flatMap { timeline.assignments(ofResource: $0) }
        var cache = BookingCache()
        var largest = 0
        for query in try Self.browse(300, resources: 600, seed: 5) {
            cache.apply(query: query, page: timeline.page(for: query), resourceOrder: order)
            let bound = BookingCache.bound(of: query, resourceOrder: order)
            for assignment in cache.assignments.values {
                let entry = try #require(cache.entries[assignment.entryID])
                #expect(bound.resources.contains(assignment.resourceID))
                #expect((entry.start.minuteNumber..<entry.end.minuteNumber).overlaps(bound.minutes))
            }
            // No more than every booking in the bound: the query's rows plus the margins, three lengths.
            let most = all.filter { assignment in
                guard let entry = timeline.entry(assignment.entryID) else { return false }
                return bound.resources.contains(assignment.resourceID)
                    && (entry.start.minuteNumber..<entry.end.minuteNumber).overlaps(bound.minutes)
            }
            #expect(cache.count <= most.count)
            #expect(Set(cache.entries.keys) == Set(cache.assignments.values.map(\.entryID)))
            largest = max(largest, cache.count)
        }
        // The browse went over every row of the plan; an unbounded cache would hold most of it.
        #expect(largest < all.count / 3, "held at most \(largest) of \(all.count)")
    }

    @Test("what a query covers is exactly its page, after any browse (randomized)")
    func queryAreaMatchesThePage() throws {
        let timeline = try Self.timeline(resources: 200, bookings: 5_000, seed: 11)
        let order = timeline.resources.map(\.id)
        var cache = BookingCache()
        for query in try Self.browse(200, resources: 200, seed: 13) {
            cache.apply(query: query, page: timeline.page(for: query), resourceOrder: order)
            let page = timeline.page(for: query)
            let minutes = query.start.minuteNumber..<query.end.minuteNumber
            for resource in query.resourceIDs {
                let held = cache.entries(of: resource, overlapping: minutes).map(\.assignment.id)
                let expected = page.assignments.filter { $0.resourceID == resource }.map(\.id)
                #expect(Set(held) == Set(expected))
            }
        }
    }

    @Test("the indexed lookup answers what scanning everything held answers (randomized)")
    func indexMatchesTheScan() throws {
        let timeline = try Self.timeline(resources: 120, bookings: 4_000, seed: 21)
        let order = timeline.resources.map(\.id)
        var cache = BookingCache()
        var random = SplitMix64(seed: 23)
        for query in try Self.browse(120, resources: 120, seed: 29) {
            cache.apply(query: query, page: timeline.page(for: query), resourceOrder: order)
            for _ in 0..<20 {
                let resource = "r\(Int.random(in: 0..<120, using: &random))"
                let from = query.start.minuteNumber + Int.random(in: -40_000...200_000, using: &random)
                let interval = from..<(from + Int.random(in: 1...300_000, using: &random))
                let scanned = cache.assignments.values.filter { $0.resourceID == resource }
                    .compactMap { assignment in
                        cache.entries[assignment.entryID].map {
                            TimelineAssignedEntry(entry: $0, assignment: assignment)
                        }
                    }
                    .filter { ($0.entry.start.minuteNumber..<$0.entry.end.minuteNumber).overlaps(interval) }
                    .sorted(by: BookingCache.displayOrder)
                #expect(cache.entries(of: resource, overlapping: interval) == scanned)
                #expect(
                    cache.entries(of: resource)
                        == cache.entries(of: resource, overlapping: Int.min / 2..<Int.max / 2))
            }
        }
    }

    @Test("an entry arriving changed moves in the order of every resource it is assigned to")
    func sharedEntryFollows() throws {
        let start = try LocalDateTime("2026-09-08T09:00")
        let early = try TimelineEntry(
            id: "early", title: "Early", start: start, end: try LocalDateTime("2026-09-08T10:00"))
        let shared = try TimelineEntry(
            id: "shared", title: "Shared", start: try LocalDateTime("2026-09-08T08:00"), end: start)
        let assignments = [
            try TimelineAssignment(id: "a1", entryID: "shared", resourceID: "r0"),
            try TimelineAssignment(id: "a2", entryID: "shared", resourceID: "r1"),
            try TimelineAssignment(id: "a3", entryID: "early", resourceID: "r1"),
        ]
        let whole = try Self.query(rows: 0..<2, day: 0, days: 30)
        var cache = BookingCache()
        cache.apply(
            query: whole, page: TimelinePage(entries: [shared, early], assignments: assignments),
            resourceOrder: ["r0", "r1"])
        #expect(cache.entries(of: "r1").map(\.entry.id) == ["shared", "early"])
        // Only r0 is asked again, and the shared entry moved to the afternoon.
        let moved = try shared.with(
            start: try LocalDateTime("2026-09-08T14:00"), end: try LocalDateTime("2026-09-08T15:00"))
        cache.apply(
            query: try Self.query(rows: 0..<1, day: 0, days: 30),
            page: TimelinePage(entries: [moved], assignments: [assignments[0]]), resourceOrder: ["r0", "r1"])
        #expect(cache.entries(of: "r1").map(\.entry) == [early, moved])
        #expect(cache.assignments(ofEntry: "shared").map(\.resourceID) == ["r0", "r1"])
    }
}
