/// A booking on the resource Timeline: a title and a floating interval `[start, end)`.
///
/// An entry is shown on every resource it has an assignment to and stays one object across them.
/// Two entries are equal when every field is equal; this is the equality stale-original checks use.
public struct TimelineEntry: Sendable, Hashable, Identifiable {
    /// The stable identity, nonblank and unique among the plan's entries.
    public let id: String
    /// The display title.
    public var title: String
    /// The first minute of the entry.
    public let start: LocalDateTime
    /// The exclusive end, strictly after `start`.
    public let end: LocalDateTime

    /// Creates an entry.
    /// - Throws: `TimelineError.blankID` for an empty or white-space id, `.invalidInterval` unless
    ///   `end > start`.
    public init(id: String, title: String, start: LocalDateTime, end: LocalDateTime) throws(TimelineError) {
        self.init(unchecked: id, title: title, start: start, end: end)
        try validateOwnValues()
    }

    /// Creates an entry without checking it; `TimelineData` validates what it accepts.
    init(unchecked id: String, title: String, start: LocalDateTime, end: LocalDateTime) {
        self.id = id
        self.title = title
        self.start = start
        self.end = end
    }

    /// Checks the rules that concern this entry alone.
    func validateOwnValues() throws(TimelineError) {
        guard !GanttTask.isBlank(id) else { throw .blankID(kind: .entry) }
        guard end > start else {
            throw .invalidInterval(entryID: id, reason: "the end \(end) must be after the start \(start)")
        }
    }

    /// The length of the interval in minutes, at least 1 for a valid entry.
    public var minutes: Int { start.minutes(to: end) }

    /// This entry with a different title.
    public func with(title: String) -> TimelineEntry {
        TimelineEntry(unchecked: id, title: title, start: start, end: end)
    }

    /// This entry moved or resized to `[start, end)`.
    /// - Throws: `TimelineError.invalidInterval` unless `end > start`.
    public func with(start: LocalDateTime, end: LocalDateTime) throws(TimelineError) -> TimelineEntry {
        try TimelineEntry(id: id, title: title, start: start, end: end)
    }
}
