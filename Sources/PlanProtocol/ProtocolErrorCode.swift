/// The codes of the `error` message (protocol.md §6), for requests that cannot be served.
public enum ProtocolErrorCode: String, Sendable, Hashable, CaseIterable {
    /// The request is not a valid JSON object of the contract (or a binary frame).
    case badMessage
    /// The request's `type` is unknown.
    case unsupported
    /// No valid `hello` yet, or a bad token; the connection is closed with 1008.
    case unauthenticated
    /// The request is beyond the user's role on the plan.
    case forbidden
    /// The plan does not exist or the user has no role on it.
    case unknownPlan
    /// A well-formed query with values that are not acceptable.
    case badQuery
    /// `unsubscribe` without a subscription, `unwatch` of an unknown watch.
    case notSubscribed
    /// A `grant` naming a user that does not exist.
    case unknownUser
    /// A `history` or `fetch` of versions the log no longer holds (or never held).
    case historyUnavailable
    /// A request beyond a per-connection limit (a `watch` past `maxWatchesPerConnection`). Not
    /// in the contract's list of error codes: this server's extension (docs/protocol.md §10),
    /// named after the rejection code `tooLarge`.
    case tooLarge
}
