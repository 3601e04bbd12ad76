import ChronoSketchCore

/// Why a client frame is not a usable request, worded as what the server must do about it
/// (protocol.md §5, §6).
public enum ClientMessageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The frame is larger than `maxMessageBytes`: close with 1009.
    case tooLarge(byteCount: Int, limit: Int)
    /// The text is not valid UTF-8: close with 1007.
    case invalidUTF8
    /// Answer `{"type":"error","code":…,"message":…,"ref":…}` and keep the connection open:
    /// `badMessage` for malformed requests, `unsupported` for an unknown `type`, `badQuery` for a
    /// well-formed query with unacceptable values.
    case error(code: ProtocolErrorCode, message: String, ref: String?)
    /// A `propose` whose `id` could be read but that is malformed: settle it with `rejected`
    /// carrying this id (`badMessage`, or the value's own code such as `invalidSchedule`).
    ///
    /// `plan` is nil when the plan could not be read (not a string of 1…`maxIDLength` scalars);
    /// the server then answers without `plan` and `version`. With a plan, the server still decides
    /// whether the user may see it (else `unknownPlan`) and adds the version it judged against.
    case rejected(id: String, plan: String?, code: RejectionCode, message: String, ref: String?)

    /// The answer to a binary frame, which the contract does not use (protocol.md §6).
    public static let binaryFrame = ClientMessageError.error(
        code: .badMessage, message: "binary frames are not part of the protocol; send JSON in text frames", ref: nil)

    /// Whether the server must close the connection (1009 for `tooLarge`, 1007 for
    /// `invalidUTF8`) instead of answering.
    public var closesConnection: Bool {
        switch self {
        case .tooLarge, .invalidUTF8: true
        case .error, .rejected: false
        }
    }

    /// The `ref` to echo, when one could be read.
    public var ref: String? {
        switch self {
        case .tooLarge, .invalidUTF8: nil
        case .error(_, _, let ref), .rejected(_, _, _, _, let ref): ref
        }
    }

    /// The English explanation sent in the answer (or logged with the close).
    public var message: String {
        switch self {
        case .tooLarge(let byteCount, let limit): "the message has \(byteCount) bytes, more than \(limit)"
        case .invalidUTF8: "the text is not valid UTF-8"
        case .error(_, let message, _), .rejected(_, _, _, let message, _): message
        }
    }

    /// The answer for `.error` and `.rejected`; nil when the connection must be closed instead.
    ///
    /// - Parameter version: for `.rejected` with a plan: the version the server judged against.
    public func answer(version: Int?) -> ServerMessage? {
        switch self {
        case .tooLarge, .invalidUTF8:
            nil
        case .error(let code, let message, let ref):
            .error(code: code, message: message, ref: ref)
        case .rejected(let id, let plan, let code, let message, let ref):
            .rejected(id: id, plan: plan, code: code, message: message, version: plan == nil ? nil : version, ref: ref)
        }
    }

    /// A summary for logs.
    public var description: String {
        switch self {
        case .tooLarge: "close 1009: \(message)"
        case .invalidUTF8: "close 1007: \(message)"
        case .error(let code, let message, _): "error \(code.rawValue): \(message)"
        case .rejected(let id, _, let code, let message, _): "rejected \(id) \(code.rawValue): \(message)"
        }
    }
}
