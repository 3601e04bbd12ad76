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

/// The WebSocket close codes the contract uses (protocol.md §6).
public enum CloseCode: UInt16, Sendable, Hashable, CaseIterable {
    /// 1001: the server is shutting down.
    case goingAway = 1001
    /// 1002: a frame that breaks RFC 6455 (such as a close frame with a one-byte payload or a
    /// code no peer may send).
    case protocolError = 1002
    /// 1007: a text frame that is not valid UTF-8.
    case invalidPayload = 1007
    /// 1008: policy (`unauthenticated`).
    case policyViolation = 1008
    /// 1009: a frame over `maxMessageBytes`.
    case messageTooBig = 1009
    /// 1013: the client does not read fast enough (`maxQueueBytes` of unsent data).
    case tryAgainLater = 1013
}
