/// A row of the resource Timeline (a room, a person, a machine): a stable id and a label.
///
/// Resources are supplied up front with the plan; entries are booked onto them through assignments.
public struct TimelineResource: Sendable, Hashable, Identifiable {
    /// The stable identity, nonblank and unique among the plan's resources.
    public let id: String
    /// The name shown for the resource.
    public var label: String

    /// Creates a resource.
    /// - Throws: `TimelineError.blankID` for an empty or white-space id.
    public init(id: String, label: String) throws(TimelineError) {
        self.init(unchecked: id, label: label)
        try validateOwnValues()
    }

    /// Creates a resource without checking it; `TimelineData` validates what it accepts.
    init(unchecked id: String, label: String) {
        self.id = id
        self.label = label
    }

    /// Checks the rules that concern this resource alone.
    func validateOwnValues() throws(TimelineError) {
        guard !GanttTask.isBlank(id) else { throw .blankID(kind: .resource) }
    }
}
