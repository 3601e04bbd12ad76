extension TaskCollection {
    /// The visible rows in depth-first tree order: roots in input order, each followed by its
    /// children in input order, recursively; descendants of collapsed summaries are omitted.
    ///
    /// A pure function of the collection and `collapsed`.
    public func rows(collapsed: Set<String> = []) -> [TaskRow] {
        var rows: [TaskRow] = []
        rows.reserveCapacity(tasks.count)
        forEachDepthFirst(collapsed: collapsed) { position, depth in
            rows.append(row(at: position, depth: depth, collapsed: collapsed))
        }
        return rows
    }

    /// The row of the task at input `position` (in `0..<count`) shown at `depth`, with its
    /// derived values; `collapsed` decides only its `isCollapsed`. What `rows(collapsed:)` holds for
    /// that task, in constant time: a client that keeps its own order of visible positions builds
    /// rows for what it shows and nothing else.
    public func row(at position: Int, depth: Int, collapsed: Set<String>) -> TaskRow {
        let task = tasks[position]
        let hasChildren = hasChildren(task.id)
        let isCollapsed = hasChildren && task.kind.isSummary && collapsed.contains(task.id)
        switch task.kind {
        case .activity(let schedule, let progress):
            return TaskRow(
                task: task, depth: depth, hasChildren: hasChildren, isCollapsed: isCollapsed,
                start: schedule?.start, end: schedule?.end, lastDate: schedule?.lastDate, progress: progress)
        case .milestone(let date):
            return TaskRow(
                task: task, depth: depth, hasChildren: hasChildren, isCollapsed: isCollapsed,
                start: date, end: date, lastDate: date, progress: nil)
        case .summary:
            let values = aggregates[task.id]?.values
            return TaskRow(
                task: task, depth: depth, hasChildren: hasChildren, isCollapsed: isCollapsed,
                start: values?.start, end: values?.end, lastDate: values?.lastDate, progress: values?.progress ?? 0)
        }
    }

    /// The input positions of the direct children of `parentID` (nil: the roots), in input order.
    public func childPositions(of parentID: String?) -> [Int] {
        childPositions[parentID] ?? []
    }

    /// The input position of the parent of the task at `position`, nil for a root.
    public func parentPosition(of position: Int) -> Int? {
        tasks[position].parentID.flatMap { positionByID[$0] }
    }

    /// Input positions in depth-first tree order, skipping descendants of `collapsed` summaries.
    func depthFirstPositions(collapsed: Set<String>) -> [Int] {
        var positions: [Int] = []
        positions.reserveCapacity(tasks.count)
        forEachDepthFirst(collapsed: collapsed) { position, _ in positions.append(position) }
        return positions
    }

    /// Visits the visible descendants of `parentID` (nil: every task) in depth-first tree order,
    /// without recursion: children in input order, the children of `parentID` at `depth`;
    /// descendants of `collapsed` summaries are skipped.
    public func forEachDepthFirst(
        below parentID: String? = nil, depth: Int = 0, collapsed: Set<String>,
        _ visit: (_ position: Int, _ depth: Int) -> Void
    ) {
        // A stack of (sibling positions, next index, depth) frames.
        var stack: [(siblings: [Int], next: Int, depth: Int)] = [(childPositions[parentID] ?? [], 0, depth)]
        while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].next < stack[top].siblings.count else {
                stack.removeLast()
                continue
            }
            let position = stack[top].siblings[stack[top].next]
            let depth = stack[top].depth
            stack[top].next += 1
            visit(position, depth)
            let id = tasks[position].id
            if let children = childPositions[id], !children.isEmpty, collapsed.isEmpty || !collapsed.contains(id) {
                stack.append((children, 0, depth + 1))
            }
        }
    }
}
