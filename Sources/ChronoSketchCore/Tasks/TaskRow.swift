/// One visible row of the hierarchical list or chart, with its derived values.
public struct TaskRow: Sendable, Hashable, Identifiable {
    /// The confirmed task.
    public let task: GanttTask
    /// 0 for roots, 1 for their children, and so on.
    public let depth: Int
    /// Whether any task names this one as its parent.
    public let hasChildren: Bool
    /// Whether this row is a summary listed among the collapsed ids (its descendants are omitted).
    public let isCollapsed: Bool
    /// Activity: its start; milestone: its date; summary: its derived start. Nil when unscheduled
    /// or without bounds.
    public let start: CivilDate?
    /// Activity: its exclusive end; milestone: its date (a point); summary: its derived end.
    public let end: CivilDate?
    /// The inclusive last occupied day, for list labels.
    public let lastDate: CivilDate?
    /// Activity: its progress; summary: the derived mean; milestone: nil.
    public let progress: Double?

    /// The task's id.
    public var id: String { task.id }
}
