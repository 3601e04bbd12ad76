/// Why timeline data or a change to it was rejected; each case maps to one timeline rejection code.
public enum TimelineError: PlanRejection, Hashable {
    /// The original entry no longer equals the confirmed entry with its id, or it was removed.
    case staleEntry(id: String)
    /// The original assignment no longer equals the confirmed assignment with its id, it was
    /// removed, or it is not an assignment of the original entry.
    case staleAssignment(id: String)
    /// An assignment names an entry that does not exist. Only whole-data validation (an import, a
    /// load) can meet this; it is reported with the code `staleEntry`, because the assignment
    /// refers to an entry that is not part of the current data.
    case unknownEntry(assignmentID: String, entryID: String)
    /// An assignment names a resource that does not exist.
    case unknownResource(assignmentID: String, resourceID: String)
    /// An entry's end is not after its start (or, when decoding, a date-time is not valid).
    case invalidInterval(entryID: String, reason: String)
    /// Two items of the same kind share an id.
    case duplicateID(kind: TimelineItemKind, id: String)
    /// An id is empty or only white space.
    case blankID(kind: TimelineItemKind)
    /// A change tried to alter an id, or an assignment tried to name another entry than its own.
    case identityChanged(id: String, reason: String)

    /// The contract's rejection code of this error.
    public var code: RejectionCode {
        switch self {
        case .staleEntry, .unknownEntry: .staleEntry
        case .staleAssignment: .staleAssignment
        case .unknownResource: .unknownResource
        case .invalidInterval: .invalidInterval
        case .duplicateID: .duplicateID
        case .blankID: .blankID
        case .identityChanged: .identityChanged
        }
    }

    /// An English explanation naming the items involved.
    public var message: String {
        switch self {
        case .staleEntry(let id):
            "entry \"\(id)\" has changed or was removed since the proposal was formed"
        case .staleAssignment(let id):
            "assignment \"\(id)\" has changed or was removed since the proposal was formed"
        case .unknownEntry(let assignmentID, let entryID):
            "assignment \"\(assignmentID)\" names entry \"\(entryID)\", which does not exist"
        case .unknownResource(let assignmentID, let resourceID):
            "assignment \"\(assignmentID)\" names resource \"\(resourceID)\", which does not exist"
        case .invalidInterval(let entryID, let reason): "invalid interval for entry \"\(entryID)\": \(reason)"
        case .duplicateID(let kind, let id): "a timeline \(kind.rawValue) with id \"\(id)\" already exists"
        case .blankID(let kind): "a timeline \(kind.rawValue) id must not be empty or only white space"
        case .identityChanged(let id, let reason): "identity of \"\(id)\" must not change: \(reason)"
        }
    }
}

extension TimelineError: CustomStringConvertible {
    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
