/// The endpoints of one dependency arrow between two visible scheduled rows, in column units of a
/// `TimeAxis` and row indexes of the rows it was made for: from the predecessor's end (or start,
/// for the start-to-… types) to the successor's start (or end, for the …-to-finish types).
///
/// The endpoints are the original ones, before clipping to the horizon; the renderer routes the
/// orthogonal line and clips it to the chart area (never over the pinned task names).
public struct DependencyArrow: Sendable, Hashable {
    /// The dependency drawn.
    public let dependency: TaskDependency
    /// The predecessor's row index.
    public let fromRow: Int
    /// The successor's row index.
    public let toRow: Int
    /// Where the arrow leaves: the predecessor's exclusive end (its start when `fromStart`), or its
    /// milestone diamond.
    public let fromX: Double
    /// Where the arrow arrives: the successor's start (its exclusive end when `toEnd`), or its
    /// milestone diamond.
    public let toX: Double
    /// Whether the arrow leaves the predecessor's start (start-to-start, start-to-finish).
    public var fromStart: Bool { !dependency.type.fromPredecessorEnd }
    /// Whether the arrow arrives at the successor's end (finish-to-finish, start-to-finish).
    public var toEnd: Bool { dependency.type.toSuccessorEnd }
    /// Whether the predecessor is a milestone (the arrow leaves its diamond).
    public let fromMilestone: Bool
    /// Whether the successor is a milestone (the arrow meets its diamond).
    public let toMilestone: Bool
}
