import ChronoSketchCore

/// What the list and the timeline show of the collection on screen: each view's rows with its own
/// collapsed summaries (seed 000: "each view owns only its own collapsed IDs"), and every
/// dependency's endpoints as input positions, so that the arrows of a window are found without
/// building a row that is not drawn.
public struct TaskViews: Sendable {
    /// The list view's rows.
    public private(set) var list = TaskOutline(TaskCollection())
    /// The timeline view's rows.
    public private(set) var timeline = TaskOutline(TaskCollection())
    private var ends: [(dependency: TaskDependency, predecessor: Int32, successor: Int32)] = []

    /// Empty views.
    public init() {}

    /// The rows of `mode` (the list's for every view but the timeline).
    public func outline(_ mode: ViewMode) -> TaskOutline {
        mode == .timeline ? timeline : list
    }

    /// Builds both views' rows and the endpoints anew for `collection` (a change of structure or
    /// of the dependencies, or another collection shown), keeping each view's collapsed ids.
    public mutating func rebuild(_ collection: TaskCollection?) {
        let collection = collection ?? TaskCollection()
        list.rebuild(collection)
        timeline.rebuild(collection)
        rebuildArrowEnds(collection)
    }

    /// Finds every dependency's endpoints again (the dependencies changed, the rows did not).
    public mutating func rebuildArrowEnds(_ collection: TaskCollection?) {
        let collection = collection ?? TaskCollection()
        ends = collection.dependencies.compactMap { dependency in
            guard let predecessor = collection.position(of: dependency.predecessorID),
                let successor = collection.position(of: dependency.successorID)
            else { return nil }
            return (dependency, Int32(predecessor), Int32(successor))
        }
    }

    /// Collapses or expands the summary `id` in `mode`'s view only.
    public mutating func setCollapsed(_ id: String, _ value: Bool, in mode: ViewMode, of collection: TaskCollection) {
        if mode == .timeline {
            timeline.setCollapsed(id, value, in: collection)
        } else {
            list.setCollapsed(id, value, in: collection)
        }
    }

    /// The arrows between rows of `outline` that touch the rows `window`: both endpoints shown
    /// (not hidden by a collapsed summary) and scheduled, and one of them in the window or the
    /// window between them. Their rows are `outline`'s indexes. Only the rows of those arrows'
    /// endpoints are built.
    public func arrows(
        of outline: TaskOutline, touching window: Range<Int>, in collection: TaskCollection, axis: TimeAxis
    ) -> [DependencyArrow] {
        var arrows: [DependencyArrow] = []
        for end in ends {
            guard let from = outline.index(ofPosition: Int(end.predecessor)),
                let to = outline.index(ofPosition: Int(end.successor)),
                min(from, to) < window.upperBound, max(from, to) >= window.lowerBound,
                let arrow = axis.dependencyArrow(
                    end.dependency, from: outline.row(at: from, in: collection), at: from,
                    to: outline.row(at: to, in: collection), at: to)
            else { continue }
            arrows.append(arrow)
        }
        return arrows
    }
}
