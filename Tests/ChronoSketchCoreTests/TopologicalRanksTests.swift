import Testing

@testable import ChronoSketchCore

/// The ranks an automatic plan keeps as links come and go (Pearce–Kelly), read back as input
/// positions in rank order: always a topological order of exactly the linked tasks, whether it
/// is read by buckets (dense ranks) or by sorting (ranks spread by many links).
@Suite("Topological ranks")
struct TopologicalRanksTests {
    @Test("positions in rank order stay a topological order of the linked tasks through random links and unlinks")
    func rankOrderIsTopological() throws {
        var random = SplitMix64(seed: 0x7090_1060)
        for _ in 0..<40 {
            let count = 2 + Int.random(in: 0..<40, using: &random)
            var tasks = try TaskCollection((0..<count).map { Make.activity("t\($0)") })
            tasks.keepRanks()
            for _ in 0..<(count * 3) {
                let (from, to) = (
                    "t\(Int.random(in: 0..<count, using: &random))", "t\(Int.random(in: 0..<count, using: &random))"
                )
                if Int.random(in: 0..<4, using: &random) == 0, let held = tasks.outgoing(from).first {
                    _ = try tasks.unlink(held)
                } else if from != to, tasks.dependency(from: from, to: to) == nil {
                    _ = try? tasks.link(Make.link(from, to))  // refused when it closes a cycle
                }
                let ranks = tasks.currentRanks()
                let order = ranks.positionsInRankOrder(tasks.positionByID)
                #expect(order == ranks.positionsInRankOrder(tasks.positionByID, bucketed: false))
                #expect(order == ranks.positionsInRankOrder(tasks.positionByID, bucketed: true))
                let place = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($0.element, $0.offset) })
                #expect(place.count == order.count)
                for task in tasks.tasks {
                    for dependency in tasks.outgoing(task.id) {
                        let (a, b) = (tasks.positionByID[task.id]!, tasks.positionByID[dependency.successorID]!)
                        #expect(place[a]! < place[b]!, "\(task.id) → \(dependency.successorID) out of order")
                    }
                }
                // Every task that has (or had) a dependency is listed; no other is.
                let linked = Set(tasks.tasks.indices.filter { ranks[tasks.tasks[$0].id] != nil })
                #expect(Set(order) == linked)
            }
        }
    }
}
