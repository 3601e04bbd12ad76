/// The close codes (RFC 6455 §7.4.1) this server sends.
public enum CloseCode: UInt16, Sendable, Hashable, CaseIterable {
    /// 1000: a normal closure.
    case normalClosure = 1000
    /// 1001: the server is shutting down.
    case goingAway = 1001
    /// 1002: a frame that breaks RFC 6455 (such as a close frame with a one-byte payload or a
    /// code no peer may send).
    case protocolError = 1002
    /// 1007: a text frame that is not valid UTF-8.
    case invalidPayload = 1007
    /// 1008: policy (an application's refusal, such as an unknown token).
    case policyViolation = 1008
    /// 1009: a frame over `maxMessageBytes`.
    case messageTooBig = 1009
    /// 1013: try again later (the peer does not read fast enough, or the server's memory budget
    /// for unsent data is used up).
    case tryAgainLater = 1013
}
