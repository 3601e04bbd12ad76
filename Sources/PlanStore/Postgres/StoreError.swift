/// Why a store call failed.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database cannot be reached or went away; nothing was written. Retry later: the store
    /// reconnects by itself.
    case unavailable(String)
    /// The plan's version moved since the batch was validated (another writer committed first);
    /// nothing was written. Reload, revalidate and try again.
    case versionConflict(plan: String, expected: Int)
    /// A row that must not exist twice already exists (SQLSTATE 23505), such as a plan id.
    case duplicate(String)
    /// The named plan, user or row does not exist.
    case notFound(String)
    /// Stored data or input that the domain rules reject.
    case invalid(String)
    /// Any other database error, with its SQLSTATE.
    case database(sqlState: String, message: String)

    /// A short English explanation.
    public var description: String {
        switch self {
        case .unavailable(let detail): "database unavailable: \(detail)"
        case .versionConflict(let plan, let expected): "plan \"\(plan)\" is no longer at version \(expected)"
        case .duplicate(let detail): "already exists: \(detail)"
        case .notFound(let detail): "not found: \(detail)"
        case .invalid(let detail): "invalid: \(detail)"
        case .database(let sqlState, let message): "database error \(sqlState): \(message)"
        }
    }

    /// Whether the database refused a value of the input (a data exception, SQLSTATE class 22,
    /// or a value the store refuses before sending, such as a NUL): the same input fails again,
    /// other input is unaffected.
    public var isRefusedValue: Bool {
        switch self {
        case .invalid: true
        case .database(let sqlState, _): sqlState.hasPrefix("22")
        default: false
        }
    }

    /// Whether the caller should treat this as the database being unavailable.
    public var isUnavailable: Bool {
        if case .unavailable = self { return true }
        return false
    }
}
