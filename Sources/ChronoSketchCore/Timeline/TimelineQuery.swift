/// A request for the part of the Timeline within `[start, end)` on some resources (seed 003).
///
/// Every instance has `end > start`, spans at most `maximumDays` days, and lists nonblank resource
/// ids in the caller's order, each once. Whether the resources exist is a question for the data:
/// `validate(against:)`.
public struct TimelineQuery: Sendable {
    /// The longest query interval in days (exactly this long is allowed).
    public static let maximumDays = 400

    /// The floating start of the interval.
    public let start: LocalDateTime
    /// The exclusive end of the interval.
    public let end: LocalDateTime
    /// The requested resources, ordered, unique and nonblank.
    public let resourceIDs: [String]
    /// `resourceIDs` as a set, for membership tests.
    let requestedIDs: Set<String>

    /// Creates a query, validating the interval and the resource ids.
    /// - Throws: `TimelineQueryError.emptyInterval` unless `end > start`, `.tooLong` when the interval
    ///   exceeds `maximumDays` days, `.blankResourceID` or `.duplicateResourceID` for the ids.
    public init(start: LocalDateTime, end: LocalDateTime, resourceIDs: [String]) throws(TimelineQueryError) {
        guard end > start else { throw .emptyInterval(start: start, end: end) }
        guard start.minutes(to: end) <= TimelineQuery.maximumDays * 1440 else {
            throw .tooLong(start: start, end: end)
        }
        var seen = Set<String>(minimumCapacity: resourceIDs.count)
        for (index, id) in resourceIDs.enumerated() {
            guard !GanttTask.isBlank(id) else { throw .blankResourceID(index: index) }
            guard seen.insert(id).inserted else { throw .duplicateResourceID(id: id, index: index) }
        }
        self.start = start
        self.end = end
        self.resourceIDs = resourceIDs
        requestedIDs = seen
    }

    /// Checks that every requested resource exists in `data`.
    /// - Throws: `TimelineQueryError.unknownResource` for the first one that does not.
    public func validate(against data: TimelineData) throws(TimelineQueryError) {
        for id in resourceIDs where data.resource(id) == nil {
            throw .unknownResource(id: id)
        }
    }

    /// Whether the query requests this resource.
    public func requests(resourceID: String) -> Bool {
        requestedIDs.contains(resourceID)
    }

    /// Whether `[start, end)` overlaps the query interval (half-open: touching is not overlapping).
    public func overlaps(start: LocalDateTime, end: LocalDateTime) -> Bool {
        start < self.end && end > self.start
    }

    /// Whether the entry belongs in this query's interval: it starts before the query ends and ends
    /// after the query starts (entries starting before `start` included).
    public func overlaps(_ entry: TimelineEntry) -> Bool {
        overlaps(start: entry.start, end: entry.end)
    }
}

extension TimelineQuery: Hashable {
    /// Equal when start, end and the resource ids (in order) are equal.
    public static func == (lhs: TimelineQuery, rhs: TimelineQuery) -> Bool {
        lhs.start == rhs.start && lhs.end == rhs.end && lhs.resourceIDs == rhs.resourceIDs
    }

    /// Hashes start, end and the resource ids.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(start)
        hasher.combine(end)
        hasher.combine(resourceIDs)
    }
}
