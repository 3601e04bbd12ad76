/// Why a `TimelinePage` does not answer its query (seed 003 page validation); a page with any of
/// these problems must be rejected as a whole.
public enum TimelinePageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Two entries or two assignments of the page share an id.
    case duplicateID(kind: TimelineItemKind, id: String)
    /// An entry does not overlap the query interval.
    case entryOutsideQuery(entryID: String)
    /// An assignment names an entry the page does not contain.
    case unknownEntry(assignmentID: String, entryID: String)
    /// An assignment names a resource the query did not request.
    case unrequestedResource(assignmentID: String, resourceID: String)

    /// An English explanation naming the ids involved.
    public var description: String {
        switch self {
        case .duplicateID(let kind, let id): "the page contains the \(kind.rawValue) \"\(id)\" twice"
        case .entryOutsideQuery(let entryID): "entry \"\(entryID)\" does not overlap the query interval"
        case .unknownEntry(let assignmentID, let entryID):
            "assignment \"\(assignmentID)\" names entry \"\(entryID)\", which the page does not contain"
        case .unrequestedResource(let assignmentID, let resourceID):
            "assignment \"\(assignmentID)\" names resource \"\(resourceID)\", which the query did not request"
        }
    }
}
