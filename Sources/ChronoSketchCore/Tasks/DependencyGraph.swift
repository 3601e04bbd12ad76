/// A collection's dependencies by input position, with a topological rank for every task that
/// has (or had) a dependency: for every dependency `u → v`, `rank(u) < rank(v)`.
///
/// A plan's state keeps one (`TaskCollection.keepRanks()`, from `PlanState`), so that settling a cascade and
/// computing the schedule figures read integers and arrays, never ids: a push through 10,000
/// tasks looks up no dictionary per task.
///
/// The ranks are built once by Kahn's algorithm (first in, first out from the sources in input
/// order); afterwards each link
/// repairs only the ranks between its two endpoints (Pearce and Kelly, "A dynamic topological
/// sort algorithm for directed acyclic graphs", JEA 2006): when `rank(u) < rank(v)` already,
/// nothing moves; otherwise the tasks reachable from `v` with ranks below `u`'s and the tasks
/// reaching `u` with ranks above `v`'s swap their ranks among themselves. The same forward search
/// finds cycles, so a link costs the region it reorders, not the plan. Unlinking never breaks the
/// order. Removing a task shifts the positions after it (as the collection's own index does);
/// reordering siblings renumbers only the moved tasks and their neighbours.
struct DependencyGraph: Sendable {
    /// One dependency seen from one of its ends: the other end's position, and the dependency.
    struct Link: Sendable {
        /// The predecessor's position (in `incoming`) or the successor's (in `outgoing`).
        var other: Int
        /// The dependency, with its type and lag.
        var dependency: TaskDependency
    }

    /// The rank of a task that never had a dependency.
    static let unranked = Int.min

    /// Per position: the dependencies from the task, in the order they were linked.
    private(set) var outgoing: [[Link]]
    /// Per position: the dependencies into the task, in the order they were linked.
    private(set) var incoming: [[Link]]
    /// Per position: the task's rank (`unranked` when it never had a dependency).
    private(set) var rank: [Int]
    /// Below every rank given so far.
    private var lowest = 0
    /// Above every rank given so far.
    private var highest = 0

    /// The graph of `dependencies` between `tasks`, ranked. Each end is looked up once, and
    /// each task's lists are made at their final size.
    init(tasks: [GanttTask], dependencies: [TaskDependency], positionByID: [String: Int]) {
        var ends: [(from: Int, to: Int)] = []
        ends.reserveCapacity(dependencies.count)
        var outDegree = [Int](repeating: 0, count: tasks.count)
        var inDegree = [Int](repeating: 0, count: tasks.count)
        for dependency in dependencies {
            let (from, to) = (positionByID[dependency.predecessorID]!, positionByID[dependency.successorID]!)
            ends.append((from, to))
            outDegree[from] += 1
            inDegree[to] += 1
        }
        func lists(sized degree: [Int]) -> [[Link]] {
            degree.map { count in
                var links: [Link] = []
                if count > 0 { links.reserveCapacity(count) }
                return links
            }
        }
        outgoing = lists(sized: outDegree)
        incoming = lists(sized: inDegree)
        for (dependency, end) in zip(dependencies, ends) {
            outgoing[end.from].append(Link(other: end.to, dependency: dependency))
            incoming[end.to].append(Link(other: end.from, dependency: dependency))
        }
        rank = Array(repeating: DependencyGraph.unranked, count: tasks.count)
        rankAll(waiting: inDegree)
    }

    /// Ranks every task that has a dependency: Kahn's algorithm, first-in first-out from the
    /// sources in input order (`waiting`: each task's number of predecessors).
    private mutating func rankAll(waiting: [Int]) {
        var waiting = waiting
        var queue: [Int] = []
        queue.reserveCapacity(rank.count)
        for position in rank.indices where waiting[position] == 0 && !outgoing[position].isEmpty {
            queue.append(position)
        }
        var head = 0
        while head < queue.count {
            let position = queue[head]
            rank[position] = head
            head += 1
            for link in outgoing[position] {
                waiting[link.other] -= 1
                if waiting[link.other] == 0 { queue.append(link.other) }
            }
        }
        lowest = 0
        highest = head
    }

    // MARK: Changes

    /// A task was appended.
    mutating func appendTask() {
        outgoing.append([])
        incoming.append([])
        rank.append(DependencyGraph.unranked)
    }

    /// Makes room in the ranks for a dependency `from → to` about to be linked; false (and
    /// nothing changed) when it would close a cycle.
    mutating func admit(from: Int, to: Int) -> Bool {
        switch (rank[from] == DependencyGraph.unranked, rank[to] == DependencyGraph.unranked) {
        case (true, true):
            (rank[from], rank[to]) = (highest, highest + 1)
            highest += 2
        case (true, false):
            // `from` has no dependency at all: nothing can lead back to it.
            lowest -= 1
            rank[from] = lowest
        case (false, true):
            rank[to] = highest
            highest += 1
        case (false, false):
            return rank[from] < rank[to] || reorder(from: from, to: to)
        }
        return true
    }

    /// Pearce–Kelly's repair for a dependency `from → to` with `rank(from) > rank(to)`.
    private mutating func reorder(from: Int, to: Int) -> Bool {
        let (upper, lower) = (rank[from], rank[to])
        // Forward from `to`, within ranks below `upper`: meeting `from` is a cycle.
        var forward: [Int] = []
        var stack = [to]
        var seen: Set<Int> = [to]
        while let position = stack.popLast() {
            forward.append(position)
            for link in outgoing[position] {
                if link.other == from { return false }
                if rank[link.other] < upper, seen.insert(link.other).inserted { stack.append(link.other) }
            }
        }
        // Backward from `from`, within ranks above `lower`.
        var backward: [Int] = []
        stack = [from]
        seen = [from]
        while let position = stack.popLast() {
            backward.append(position)
            for link in incoming[position] where rank[link.other] > lower && seen.insert(link.other).inserted {
                stack.append(link.other)
            }
        }
        // The backward set takes the smallest of the freed ranks, each set keeping its own order.
        let moved = backward.sorted { rank[$0] < rank[$1] } + forward.sorted { rank[$0] < rank[$1] }
        let freed = moved.map { rank[$0] }.sorted()
        for (position, newRank) in zip(moved, freed) { rank[position] = newRank }
        return true
    }

    /// Adds an admitted dependency between the tasks at `from` and `to`.
    mutating func link(_ dependency: TaskDependency, from: Int, to: Int) {
        outgoing[from].append(Link(other: to, dependency: dependency))
        incoming[to].append(Link(other: from, dependency: dependency))
    }

    /// Removes the dependency between the tasks at `from` and `to` (ranks stay valid).
    mutating func unlink(from: Int, to: Int) {
        outgoing[from].removeAll { $0.other == to }
        incoming[to].removeAll { $0.other == from }
    }

    /// Gives the dependency between the tasks at `from` and `to` a new type or lag.
    mutating func relink(_ dependency: TaskDependency, from: Int, to: Int) {
        if let index = outgoing[from].firstIndex(where: { $0.other == to }) {
            outgoing[from][index].dependency = dependency
        }
        if let index = incoming[to].firstIndex(where: { $0.other == from }) {
            incoming[to][index].dependency = dependency
        }
    }

    /// The task at `position`, whose dependencies were unlinked, was removed: the later positions
    /// shift down by one. Costs time in proportion to the plan, like the collection's own index.
    mutating func removeTask(at position: Int) {
        outgoing.remove(at: position)
        incoming.remove(at: position)
        rank.remove(at: position)
        for index in outgoing.indices {
            if outgoing[index].contains(where: { $0.other > position }) {
                for slot in outgoing[index].indices where outgoing[index][slot].other > position {
                    outgoing[index][slot].other -= 1
                }
            }
            if incoming[index].contains(where: { $0.other > position }) {
                for slot in incoming[index].indices where incoming[index][slot].other > position {
                    incoming[index][slot].other -= 1
                }
            }
        }
    }

    /// Tasks changed places (siblings reordered): each `(from, to)` moves the task at `from` to
    /// `to`, and the moves permute their positions among themselves. Only the moved tasks and
    /// their neighbours are touched.
    mutating func move(_ moves: [(from: Int, to: Int)]) {
        let carried = moves.map { (outgoing[$0.from], incoming[$0.from], rank[$0.from]) }
        for (move, lists) in zip(moves, carried) {
            (outgoing[move.to], incoming[move.to], rank[move.to]) = lists
        }
        let newPosition = Dictionary(uniqueKeysWithValues: moves.map { ($0.from, $0.to) })
        // The moved tasks' lists, and those of their neighbours that stayed, name old positions.
        var touched = Set(moves.map(\.to))
        for move in moves {
            for link in outgoing[move.to] + incoming[move.to] where newPosition[link.other] == nil {
                touched.insert(link.other)
            }
        }
        for position in touched {
            for slot in outgoing[position].indices {
                if let moved = newPosition[outgoing[position][slot].other] { outgoing[position][slot].other = moved }
            }
            for slot in incoming[position].indices {
                if let moved = newPosition[incoming[position][slot].other] { incoming[position][slot].other = moved }
            }
        }
    }

    // MARK: Reading

    /// Whether the task at `position` has (or had) a dependency.
    func isRanked(_ position: Int) -> Bool { rank[position] != DependencyGraph.unranked }

    /// The positions of the ranked tasks, lowest rank first: a bucket per rank when the ranks are
    /// dense enough (they spread only as links are added), else a sort. `bucketed` forces one way
    /// (for tests); nil decides by the ranks' spread.
    func positionsInRankOrder(bucketed: Bool? = nil) -> [Int] {
        let ranked = rank.indices.filter { rank[$0] != DependencyGraph.unranked }
        let span = highest - lowest
        guard bucketed ?? (span <= 4 * ranked.count + 64) else {
            return ranked.sorted { rank[$0] < rank[$1] }
        }
        var byRank = [Int](repeating: -1, count: span)
        for position in ranked { byRank[rank[position] - lowest] = position }
        return byRank.filter { $0 >= 0 }
    }
}
