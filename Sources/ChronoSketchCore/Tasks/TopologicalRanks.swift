/// A topological order of the dependency graph kept by ranks: for every dependency `u → v`,
/// `rank(u) < rank(v)`. Only tasks with a dependency have a rank.
///
/// Built once by Kahn's algorithm, ties taken in input order; afterwards each link repairs only
/// the ranks between its two endpoints (Pearce and Kelly, "A dynamic topological sort algorithm
/// for directed acyclic graphs", JEA 2006): when `rank(u) < rank(v)` already, nothing moves;
/// otherwise the tasks reachable from `v` with ranks below `u`'s and the tasks reaching `u` with
/// ranks above `v`'s swap their ranks among themselves. The same forward search finds cycles,
/// so a link costs the region it reorders, not the plan. Unlinking never breaks the order.
struct TopologicalRanks: Sendable {
    /// The rank of each task that has (or had) a dependency.
    private(set) var rankByID: [String: Int] = [:]
    /// Below every rank given so far.
    private var lowest = 0
    /// Above every rank given so far.
    private var highest = 0

    /// The rank of `id`, nil when it never had a dependency.
    subscript(id: String) -> Int? { rankByID[id] }

    /// Ranks every task that has a dependency: Kahn's algorithm, the ready task first in input
    /// order, over input positions (each id looked up once per dependency end).
    mutating func rankAll(
        in tasks: [GanttTask], positionByID: [String: Int], successorsByID: [String: [TaskDependency]],
        predecessorsByID: [String: [TaskDependency]]
    ) {
        rankByID = [:]
        guard !successorsByID.isEmpty else { return }
        // The successors by position, in one flat array (each task's run at `first[from]`,
        // `count[from]` long): no array per task.
        var first = [Int](repeating: 0, count: tasks.count)
        var count = [Int](repeating: 0, count: tasks.count)
        var edges: [Int] = []
        edges.reserveCapacity(predecessorsByID.values.reduce(0) { $0 + $1.count })
        var waiting = [Int](repeating: 0, count: tasks.count)
        var linked = [Bool](repeating: false, count: tasks.count)
        for (id, outgoing) in successorsByID {
            let from = positionByID[id]!
            linked[from] = true
            (first[from], count[from]) = (edges.count, outgoing.count)
            for dependency in outgoing {
                let to = positionByID[dependency.successorID]!
                edges.append(to)
                waiting[to] += 1
                linked[to] = true
            }
        }
        var ready = MinimumHeap<Int>()
        for position in tasks.indices where linked[position] && waiting[position] == 0 { ready.insert(position) }
        rankByID.reserveCapacity(predecessorsByID.count + successorsByID.count)
        var next = 0
        while let position = ready.popMinimum() {
            rankByID[tasks[position].id] = next
            next += 1
            for successor in edges[first[position]..<(first[position] + count[position])] {
                waiting[successor] -= 1
                if waiting[successor] == 0 { ready.insert(successor) }
            }
        }
        lowest = 0
        highest = next
    }

    /// Makes room for the dependency `from → to` before it is added; false (and nothing changed)
    /// when it would close a cycle. `successors` and `predecessors` read the graph without it.
    mutating func admit(
        from: String, to: String, successors: (String) -> [String], predecessors: (String) -> [String]
    ) -> Bool {
        switch (rankByID[from], rankByID[to]) {
        case (nil, nil):
            rankByID[from] = highest
            rankByID[to] = highest + 1
            highest += 2
            return true
        case (nil, _?):
            lowest -= 1
            rankByID[from] = lowest
            return true
        case (_?, nil):
            rankByID[to] = highest
            highest += 1
            return true
        case (let upper?, let lower?):
            if upper < lower { return true }
            return reorder(from: from, upper: upper, to: to, lower: lower, successors, predecessors)
        }
    }

    /// Pearce–Kelly's repair for a dependency `from → to` with `rank(from) = upper > rank(to) = lower`.
    private mutating func reorder(
        from: String, upper: Int, to: String, lower: Int, _ successors: (String) -> [String],
        _ predecessors: (String) -> [String]
    ) -> Bool {
        // Forward from `to`, within ranks below `upper`: meeting `from` is a cycle.
        var forward: [String] = []
        var stack = [to]
        var seen: Set<String> = [to]
        while let id = stack.popLast() {
            forward.append(id)
            for next in successors(id) {
                if next == from { return false }
                if rankByID[next]! < upper, seen.insert(next).inserted { stack.append(next) }
            }
        }
        // Backward from `from`, within ranks above `lower`.
        var backward: [String] = []
        stack = [from]
        seen = [from]
        while let id = stack.popLast() {
            backward.append(id)
            for previous in predecessors(id) where rankByID[previous]! > lower && seen.insert(previous).inserted {
                stack.append(previous)
            }
        }
        // The backward set takes the smallest of the freed ranks, each set keeping its own order.
        let moved = backward.sorted { rankByID[$0]! < rankByID[$1]! } + forward.sorted { rankByID[$0]! < rankByID[$1]! }
        let freed = moved.map { rankByID[$0]! }.sorted()
        for (id, rank) in zip(moved, freed) { rankByID[id] = rank }
        return true
    }

    /// The input positions of the ranked tasks, lowest rank first: a bucket per rank when the
    /// ranks are dense enough (they spread only as links are added), else a sort.
    /// `bucketed` forces one way (for tests); nil decides by the ranks' spread.
    func positionsInRankOrder(_ positionByID: [String: Int], bucketed: Bool? = nil) -> [Int] {
        let span = highest - lowest
        guard bucketed ?? (span <= 4 * rankByID.count + 64) else {
            return rankByID.map { (rank: $0.value, position: positionByID[$0.key]!) }.sorted { $0.rank < $1.rank }
                .map(\.position)
        }
        var byRank = [Int](repeating: -1, count: span)
        for (id, rank) in rankByID { byRank[rank - lowest] = positionByID[id]! }
        return byRank.filter { $0 >= 0 }
    }

    /// Forgets a removed task.
    mutating func forget(_ id: String) {
        rankByID[id] = nil
    }
}
