import Testing

@testable import ChronoSketchCore

/// The dependency graph an automatic plan keeps by input position as tasks and links come and go
/// (Pearce–Kelly ranks, positions shifted by removals, renumbered by reorders): always the graph
/// built afresh from the collection, and its rank order always a topological order of exactly
/// the linked tasks, whether read by buckets (dense ranks) or by sorting (ranks spread).
@Suite("Dependency graph")
struct DependencyGraphTests {
    /// One random change: a link, an unlink, a relink, a removal, a reorder or an added task.
    static func change(_ tasks: inout TaskCollection, _ random: inout SplitMix64, added: inout Int) throws {
        let ids = tasks.tasks.map(\.id)
        guard let from = ids.randomElement(using: &random), let to = ids.randomElement(using: &random) else { return }
        switch Int.random(in: 0..<12, using: &random) {
        case 0, 1:
            if let held = tasks.outgoing(from).first { _ = try tasks.unlink(held) }
        case 2:
            if let held = tasks.outgoing(from).first {
                let lagged = TaskDependency(
                    predecessorID: held.predecessorID, successorID: held.successorID, type: .startToStart, lag: 2)
                _ = try tasks.relink(previous: held, proposed: lagged)
            }
        case 3 where ids.count > 2:
            if !tasks.hasChildren(from) { _ = try tasks.remove(previous: tasks[from]!) }
        case 4:
            let (moved, target) = (tasks[from]!, tasks[to]!)
            if moved.id != target.id, moved.parentID == target.parentID {
                _ = try tasks.reorder(previous: moved, relativeTo: target, position: added % 2 == 0 ? .before : .after)
            }
        case 5:
            added += 1
            _ = try tasks.add(Make.activity("n\(added)", parent: added % 3 == 0 ? "group" : nil))
        default:
            if from != to, tasks.dependency(from: from, to: to) == nil {
                _ = try? tasks.link(Make.link(from, to))  // refused when it closes a cycle
            }
        }
    }

    /// The graph's links by position, as text (other end, pair, type, lag), in list order.
    static func described(_ graph: DependencyGraph) -> [String] {
        zip(graph.outgoing, graph.incoming).map { outgoing, incoming in
            func text(_ links: [DependencyGraph.Link]) -> String {
                links.map {
                    "\($0.other):\($0.dependency.predecessorID)>\($0.dependency.successorID)/\($0.dependency.type.rawValue)\($0.dependency.lag)"
                }
                .joined(separator: ",")
            }
            return text(outgoing) + " | " + text(incoming)
        }
    }

    @Test("the kept graph equals a fresh one, and its rank order is topological, through random changes")
    func keptGraphStaysExact() throws {
        var random = SplitMix64(seed: 0x7090_1060)
        for _ in 0..<40 {
            let count = 2 + Int.random(in: 0..<30, using: &random)
            var tasks = try TaskCollection(
                [Make.summary("group")]
                    + (0..<count).map { Make.activity("t\($0)", parent: $0 % 3 == 0 ? "group" : nil) })
            tasks.keepRanks()
            var added = 0
            for _ in 0..<(count * 4) {
                try Self.change(&tasks, &random, added: &added)
                let graph = try #require(tasks.graph)
                let fresh = DependencyGraph(
                    tasks: tasks.tasks, dependencies: tasks.dependencies, positionByID: tasks.positionByID)
                #expect(Self.described(graph) == Self.described(fresh))
                let order = graph.positionsInRankOrder()
                #expect(order == graph.positionsInRankOrder(bucketed: false))
                #expect(order == graph.positionsInRankOrder(bucketed: true))
                let place = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($0.element, $0.offset) })
                #expect(place.count == order.count)
                for task in tasks.tasks {
                    for dependency in tasks.outgoing(task.id) {
                        let (a, b) = (tasks.positionByID[task.id]!, tasks.positionByID[dependency.successorID]!)
                        #expect(place[a]! < place[b]!, "\(task.id) → \(dependency.successorID) out of order")
                    }
                }
                // Every task that has a dependency is listed.
                for dependency in tasks.dependencies {
                    #expect(place[tasks.positionByID[dependency.predecessorID]!] != nil)
                    #expect(place[tasks.positionByID[dependency.successorID]!] != nil)
                }
            }
        }
    }
}
