/// Why a `TimelineQuery` is not acceptable; the server answers these with `error` `badQuery`.
public enum TimelineQueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The end is not after the start.
    case emptyInterval(start: LocalDateTime, end: LocalDateTime)
    /// The interval is longer than `TimelineQuery.maximumDays` days.
    case tooLong(start: LocalDateTime, end: LocalDateTime)
    /// The resource id at `index` of `resourceIDs` is empty or only white space.
    case blankResourceID(index: Int)
    /// The resource id at `index` of `resourceIDs` appears earlier in the list too.
    case duplicateResourceID(id: String, index: Int)
    /// The query names a resource the plan does not have.
    case unknownResource(id: String)

    /// An English explanation naming the values involved.
    public var message: String {
        switch self {
        case .emptyInterval(let start, let end): "the query end \(end) must be after its start \(start)"
        case .tooLong(let start, let end):
            "the query from \(start) to \(end) is longer than \(TimelineQuery.maximumDays) days"
        case .blankResourceID(let index): "resourceIDs[\(index)] must not be empty or only white space"
        case .duplicateResourceID(let id, let index): "resourceIDs[\(index)]: resource \"\(id)\" is requested twice"
        case .unknownResource(let id): "resource \"\(id)\" does not exist"
        }
    }

    /// `badQuery: message`.
    public var description: String { "badQuery: \(message)" }

    /// The rejection code that describes this problem inside a `DecodingFailure`: `invalidInterval`
    /// for the interval, `blankID`, `duplicateID` or `unknownResource` for the resource ids.
    public var code: RejectionCode {
        switch self {
        case .emptyInterval, .tooLong: .invalidInterval
        case .blankResourceID: .blankID
        case .duplicateResourceID: .duplicateID
        case .unknownResource: .unknownResource
        }
    }
}
