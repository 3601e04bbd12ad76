import ChronoSketchCore

/// The rows one task view shows, kept between key presses: the depth-first order of the tasks
/// its own collapsed summaries do not hide (seed 000: each view owns its collapsed ids), as input
/// positions with depths, and each position's row index. Rows are built only for what is drawn
/// (`row(at:in:)`); collapsing or expanding a summary changes the order in time proportional to
/// its subtree (and a shift of the integers behind it), not to the plan. It equals
/// `collection.rows(collapsed:)` in order, depth and values.
public struct TaskOutline: Sendable {
    /// The collapsed summaries' ids.
    public private(set) var collapsed: Set<String>
    // Internal (not private) for the filter's rows (`TaskOutline+Filter`), which change them in place.
    /// The visible tasks' input positions, in row order.
    var positions: [Int32] = []
    /// Each visible row's depth.
    var depths: [Int32] = []
    /// Each input position's row index, -1 when hidden.
    var indexByPosition: [Int32] = []
    /// A filter's rows: each input position's rank in the whole tree's depth-first order (where a
    /// task shown again goes); empty for a view's rows.
    var ranks: [Int32] = []

    /// The outline of `collection` with `collapsed` summaries.
    public init(_ collection: TaskCollection, collapsed: Set<String> = []) {
        self.collapsed = collapsed
        rebuild(collection)
    }

    /// The outline of exactly these rows (a filter's, `init(_:keeping:)`): input
    /// positions in row order with their depths, nothing collapsed, over `count` tasks.
    public init(positions: [Int32], depths: [Int32], taskCount count: Int) {
        collapsed = []
        self.positions = positions
        self.depths = depths
        indexByPosition = Array(repeating: -1, count: count)
        for (index, position) in positions.enumerated() { indexByPosition[Int(position)] = Int32(index) }
    }

    /// Builds the order anew (after a change of the collection's structure: a parent, an added or
    /// removed task, a reorder), keeping the collapsed ids.
    public mutating func rebuild(_ collection: TaskCollection) {
        positions = []
        depths = []
        positions.reserveCapacity(collection.count)
        depths.reserveCapacity(collection.count)
        collection.forEachDepthFirst(collapsed: collapsed) { position, depth in
            positions.append(Int32(position))
            depths.append(Int32(depth))
        }
        indexByPosition = Array(repeating: -1, count: collection.count)
        for (index, position) in positions.enumerated() { indexByPosition[Int(position)] = Int32(index) }
    }

    /// The number of rows.
    public var count: Int { positions.count }

    /// The input position of the row at `index` (in `0..<count`).
    public func position(at index: Int) -> Int { Int(positions[index]) }

    /// The depth of the row at `index`.
    public func depth(at index: Int) -> Int { Int(depths[index]) }

    /// The row index of the task at input `position`, nil when it is hidden (or out of range).
    public func index(ofPosition position: Int) -> Int? {
        guard indexByPosition.indices.contains(position) else { return nil }
        let index = indexByPosition[position]
        return index < 0 ? nil : Int(index)
    }

    /// The row index of the task `id`, nil when it is hidden or unknown.
    public func index(of id: String, in collection: TaskCollection) -> Int? {
        collection.position(of: id).flatMap(index(ofPosition:))
    }

    /// The row index of `id`, or of its nearest ancestor that is shown (a task inside a collapsed
    /// group: the group's row); nil for an unknown id.
    public func nearestIndex(of id: String, in collection: TaskCollection) -> Int? {
        var position = collection.position(of: id)
        while let current = position {
            if let index = index(ofPosition: current) { return index }
            position = collection.parentPosition(of: current)
        }
        return nil
    }

    /// The row at `index`, with its derived values.
    public func row(at index: Int, in collection: TaskCollection) -> TaskRow {
        collection.row(at: position(at: index), depth: depth(at: index), collapsed: collapsed)
    }

    /// The rows at `indexes` (clamped to the rows there are).
    public func rows(_ indexes: Range<Int>, in collection: TaskCollection) -> [TaskRow] {
        let lower = min(max(indexes.lowerBound, 0), count)
        return (lower..<min(max(indexes.upperBound, lower), count)).map { row(at: $0, in: collection) }
    }

    /// Every row (what `collection.rows(collapsed:)` gives).
    public func allRows(in collection: TaskCollection) -> [TaskRow] {
        rows(0..<count, in: collection)
    }

    /// Collapses (`true`) or expands the summary `id`. A hidden summary only changes its mark: it
    /// shows as it was set once its ancestors are expanded.
    public mutating func setCollapsed(_ id: String, _ value: Bool, in collection: TaskCollection) {
        guard value != collapsed.contains(id) else { return }
        if value { collapsed.insert(id) } else { collapsed.remove(id) }
        guard let index = index(of: id, in: collection) else { return }
        let depth = depths[index]
        var end = index + 1
        while end < positions.count && depths[end] > depth { end += 1 }
        if value {
            for position in positions[(index + 1)..<end] { indexByPosition[Int(position)] = -1 }
            positions.removeSubrange((index + 1)..<end)
            depths.removeSubrange((index + 1)..<end)
        } else {
            var addedPositions: [Int32] = []
            var addedDepths: [Int32] = []
            let parent = collection.tasks[position(at: index)].id
            collection.forEachDepthFirst(below: parent, depth: Int(depth) + 1, collapsed: collapsed) {
                addedPositions.append(Int32($0))
                addedDepths.append(Int32($1))
            }
            positions.insert(contentsOf: addedPositions, at: index + 1)
            depths.insert(contentsOf: addedDepths, at: index + 1)
        }
        for row in (index + 1)..<positions.count { indexByPosition[Int(positions[row])] = Int32(row) }
    }
}
