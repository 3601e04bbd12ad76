import Testing

@testable import PlanTerminal

@Suite("Resources view: lanes")
struct ResourceLanesTests {
    typealias Item = ResourceLanes.Item

    @Test("entries apart share the first lane; bars may touch")
    func apart() {
        let lanes = ResourceLanes(items: [
            Item(id: "a", start: 0, end: 10, titleWidth: 3), Item(id: "b", start: 10, end: 20, titleWidth: 3),
            Item(id: "c", start: 25, end: 30, titleWidth: 2),
        ])
        #expect(lanes.laneCount == 1)
        #expect(lanes.placements.map(\.lane) == [0, 0, 0])
    }

    @Test("overlapping bars go to the first free lane; a freed lane is reused")
    func overlapping() {
        let lanes = ResourceLanes(items: [
            Item(id: "a", start: 0, end: 12, titleWidth: 3), Item(id: "b", start: 4, end: 14, titleWidth: 3),
            Item(id: "c", start: 6, end: 9, titleWidth: 0), Item(id: "d", start: 12, end: 20, titleWidth: 3),
        ])
        #expect(lanes.placements.map(\.lane) == [0, 1, 2, 0])
        #expect(lanes.laneCount == 3)
        #expect(lanes.lane(of: "c") == 2)
        #expect(lanes.lane(of: "missing") == nil)
    }

    @Test("a title written beside a short bar is kept clear of the next bar")
    func titleBeside() {
        // "a" is 2 cells, its 7-cell title goes beside it: cells 3..<10, and one of margin.
        let short = Item(id: "a", start: 0, end: 2, titleWidth: 7)
        #expect(!short.titleInside)
        #expect(short.extentEnd == 11)
        let lanes = ResourceLanes(items: [short, Item(id: "b", start: 8, end: 20, titleWidth: 3)])
        #expect(lanes.placements.map(\.lane) == [0, 1])
        let later = ResourceLanes(items: [short, Item(id: "b", start: 11, end: 20, titleWidth: 3)])
        #expect(later.placements.map(\.lane) == [0, 0])
    }

    @Test("an empty row still takes one line; an empty span becomes one cell")
    func empty() {
        #expect(ResourceLanes(items: []).laneCount == 1)
        let item = Item(id: "a", start: 5, end: 5, titleWidth: -1)
        #expect(item.end == 6)
        #expect(item.titleWidth == 0)
    }

    @Test("random rows: no two items of a lane overlap, and as few lanes as the deepest overlap needs")
    func random() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let items = (0..<Int.random(in: 0...12, using: &generator)).map { index in
                let start = Int.random(in: 0...60, using: &generator)
                return Item(
                    id: "e\(index)", start: start, end: start + Int.random(in: 1...20, using: &generator),
                    titleWidth: Int.random(in: 0...8, using: &generator))
            }.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
            let lanes = ResourceLanes(items: items)
            #expect(lanes.placements.map(\.item) == items)
            for lane in 0..<lanes.laneCount {
                let placed = lanes.placements.filter { $0.lane == lane }.map(\.item)
                for (first, second) in zip(placed, placed.dropFirst()) { #expect(first.extentEnd <= second.start) }
            }
            // Items whose extents overlap at one cell each need a lane of their own.
            let deepest = (0..<100).map { cell in items.filter { $0.start <= cell && cell < $0.extentEnd }.count }.max()
            #expect(lanes.laneCount == max(deepest ?? 0, 1))
        }
    }
}
