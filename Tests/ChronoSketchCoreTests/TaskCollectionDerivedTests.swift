import Testing

@testable import ChronoSketchCore

@Suite("TaskCollection derived values and rows")
struct TaskCollectionDerivedTests {
    /// g ⊃ (a 25 %, h ⊃ (b 50 %, unscheduled c 100 %, milestone m), milestone n)
    static let nested: TaskCollection = try! TaskCollection([
        Make.summary("g"),
        Make.activity("a", parent: "g", "2026-09-08", "2026-09-10", progress: 25),
        Make.summary("h", parent: "g"),
        Make.activity("b", parent: "h", "2026-09-09", "2026-09-12", progress: 50),
        Make.activity("c", parent: "h", progress: 100),
        Make.milestone("m", parent: "h", "2026-09-20"),
        Make.milestone("n", parent: "g", "2026-09-05"),
    ])

    @Test("summary progress is the mean over all descendant activities at any depth; milestones excluded")
    func progress() {
        #expect(Self.nested.summaryValues(of: "g")?.progress == (25.0 + 50 + 100) / 3)
        #expect(Self.nested.summaryValues(of: "h")?.progress == 75)
    }

    @Test("summary bounds take activity intervals and milestone points")
    func bounds() {
        let g = Self.nested.summaryValues(of: "g")!
        #expect(g.start == Make.date("2026-09-05"))  // milestone n
        #expect(g.end == Make.date("2026-09-20"))  // milestone m is a point: end = its date
        #expect(g.lastDate == Make.date("2026-09-20"))
        let h = Self.nested.summaryValues(of: "h")!
        #expect(h.start == Make.date("2026-09-09"))
        #expect(h.end == Make.date("2026-09-20"))
    }

    @Test("milestone-only summaries have point bounds and zero progress")
    func milestoneOnly() throws {
        let collection = try TaskCollection([
            Make.summary("g"), Make.milestone("m1", parent: "g", "2026-10-01"),
            Make.milestone("m2", parent: "g", "2026-09-15"),
        ])
        let values = collection.summaryValues(of: "g")!
        #expect(values.start == Make.date("2026-09-15"))
        #expect(values.end == Make.date("2026-10-01"))
        #expect(values.lastDate == Make.date("2026-10-01"))
        #expect(values.progress == 0)
    }

    @Test("a summary without scheduled descendants or milestones has no bounds")
    func noBounds() throws {
        let collection = try TaskCollection([
            Make.summary("g"), Make.activity("u", parent: "g", progress: 40), Make.summary("empty"),
        ])
        #expect(collection.summaryValues(of: "g") == SummaryValues(start: nil, end: nil, lastDate: nil, progress: 40))
        #expect(
            collection.summaryValues(of: "empty") == SummaryValues(start: nil, end: nil, lastDate: nil, progress: 0))
    }

    @Test("lastDate: activity end − 1, milestone its date, summary the latest among descendants")
    func lastDate() throws {
        let collection = try TaskCollection([
            Make.summary("g"), Make.activity("a", parent: "g", "2026-09-08", "2026-09-10"),
            Make.milestone("m", parent: "g", "2026-09-09"),
        ])
        let rows = Dictionary(uniqueKeysWithValues: collection.rows().map { ($0.id, $0) })
        #expect(rows["a"]?.lastDate == Make.date("2026-09-09"))
        #expect(rows["m"]?.lastDate == Make.date("2026-09-09"))
        #expect(rows["g"]?.lastDate == Make.date("2026-09-09"))
        #expect(rows["g"]?.end == Make.date("2026-09-10"))
    }

    @Test("rows: depth-first, roots and children in input order, with depth and disclosure state")
    func rows() throws {
        let collection = try TaskCollection([
            Make.activity("x1", parent: "g2"), Make.summary("g1"), Make.activity("r"), Make.summary("g2", parent: "g1"),
            Make.activity("x2", parent: "g1"), Make.activity("x3", parent: "g2"),
        ])
        let rows = collection.rows()
        #expect(rows.map(\.id) == ["g1", "g2", "x1", "x3", "x2", "r"])
        #expect(rows.map(\.depth) == [0, 1, 2, 2, 1, 0])
        #expect(rows.map(\.hasChildren) == [true, true, false, false, false, false])
        let collapsed = collection.rows(collapsed: ["g2"])
        #expect(collapsed.map(\.id) == ["g1", "g2", "x2", "r"])
        #expect(collapsed[1].isCollapsed)
        #expect(!collapsed[0].isCollapsed)
        #expect(collection.rows(collapsed: ["g1"]).map(\.id) == ["g1", "r"])
    }

    @Test("collapsing does not change derived values")
    func collapsedSummariesKeepValues() {
        let open = Self.nested.rows().first { $0.id == "g" }!
        let closed = Self.nested.rows(collapsed: ["g", "h"]).first { $0.id == "g" }!
        #expect(open.progress == closed.progress && open.start == closed.start && open.end == closed.end)
    }

    @Test("summaries map covers every summary")
    func summariesMap() {
        #expect(Set(Self.nested.summaries.keys) == ["g", "h"])
    }
}
