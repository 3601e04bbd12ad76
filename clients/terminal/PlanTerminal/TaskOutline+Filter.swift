import ChronoSketchCore

/// A filter's rows: the tasks a filter keeps and every ancestor of one, in tree order, nothing
/// collapsed. Built in one pass over the plan; a confirmed change of values only (no task added,
/// removed, moved or reordered) then updates them for the tasks it touches (`refilter`), each in
/// time proportional to its ancestors and the rows after it, not to the plan.
extension TaskOutline {
    /// The rows a filter shows: the tasks of `collection` at the input positions `keep` accepts
    /// and every ancestor of one, in tree order, at their depths, nothing collapsed. One pass
    /// over the plan.
    public init(_ collection: TaskCollection, keeping keep: (Int) -> Bool) {
        var positions: [Int32] = []
        var depths: [Int32] = []
        var ranks = [Int32](repeating: 0, count: collection.count)
        var rank: Int32 = 0
        // The ancestors of the current task not yet shown, as row candidates: position and depth.
        var ancestors: [(position: Int32, depth: Int32, shown: Bool)] = []
        collection.forEachDepthFirst(collapsed: []) { position, depth in
            ranks[position] = rank
            rank += 1
            if ancestors.count > depth { ancestors.removeLast(ancestors.count - depth) }
            if keep(position) {
                // The ancestors not shown yet come first, outermost first.
                for level in ancestors.indices where !ancestors[level].shown {
                    positions.append(ancestors[level].position)
                    depths.append(ancestors[level].depth)
                    ancestors[level].shown = true
                }
                positions.append(Int32(position))
                depths.append(Int32(depth))
                ancestors.append((Int32(position), Int32(depth), true))
            } else {
                ancestors.append((Int32(position), Int32(depth), false))
            }
        }
        self.init(positions: positions, depths: depths, taskCount: collection.count)
        self.ranks = ranks
    }

    /// The rows again after the tasks at `touched` input positions changed their values (their
    /// parents and the tree's order as they were): each one `keep` now accepts is shown with its
    /// ancestors, and each one it no longer accepts goes, with the ancestors that then show
    /// nothing kept. Equal to `TaskOutline(collection, keeping: keep)`. False (nothing changed)
    /// for rows that are not a filter's or a collection of another size.
    public mutating func refilter(
        touched: some Sequence<Int>, in collection: TaskCollection, keeping keep: (Int) -> Bool
    )
        -> Bool
    {
        guard ranks.count == collection.count, indexByPosition.count == collection.count else { return false }
        for position in touched where collection.tasks.indices.contains(position) {
            if keep(position) {
                show(position, in: collection)
            } else {
                hide(position, in: collection, keeping: keep)
            }
        }
        return true
    }

    /// Shows the task at `position` and its ancestors not shown yet: one run of rows, since no
    /// row between the outermost of them and the task can be shown (it would show that ancestor).
    private mutating func show(_ position: Int, in collection: TaskCollection) {
        guard indexByPosition[position] < 0 else { return }
        var chain = [position]
        var above = collection.parentPosition(of: position)
        var depth = 0
        while let current = above {
            depth += 1
            if indexByPosition[current] < 0 { chain.append(current) }
            above = collection.parentPosition(of: current)
        }
        chain.reverse()
        let outermost = chain[0]
        // The first row after the outermost in tree order.
        let low = positions.partitionIndex { ranks[Int($0)] < ranks[outermost] }
        let firstDepth = depth - (chain.count - 1)
        positions.insert(contentsOf: chain.map { Int32($0) }, at: low)
        depths.insert(contentsOf: chain.indices.map { Int32(firstDepth + $0) }, at: low)
        renumber(from: low)
    }

    /// Hides the task at `position` unless a row below it is shown (it stays as their ancestor),
    /// then each ancestor that is not kept itself and shows nothing else.
    private mutating func hide(_ position: Int, in collection: TaskCollection, keeping keep: (Int) -> Bool) {
        var current: Int? = position
        var lowest = Int.max
        while let candidate = current {
            let index = Int(indexByPosition[candidate])
            guard index >= 0 else { break }
            let hasShownChild = index + 1 < positions.count && depths[index + 1] > depths[index]
            if hasShownChild || (candidate != position && keep(candidate)) { break }
            positions.remove(at: index)
            depths.remove(at: index)
            indexByPosition[candidate] = -1
            lowest = min(lowest, index)
            current = collection.parentPosition(of: candidate)
        }
        if lowest < Int.max { renumber(from: lowest) }
    }

    /// Each row's index from row `start` on, after rows were inserted or removed there.
    private mutating func renumber(from start: Int) {
        for index in start..<positions.count { indexByPosition[Int(positions[index])] = Int32(index) }
    }
}
