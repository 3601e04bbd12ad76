import PlanProtocol

/// The RFC 6455 §5.5.1 / §7.4 rules for a close frame a peer sent, as a decision: echo it
/// (nil), or answer with a close code of our own.
enum PeerCloseFrame {
    /// The close code to answer a peer's close frame with when its payload breaks the rules:
    /// a one-byte payload or a code that may not be sent (below 1000, 1004–1006, 1015, 1016–2999,
    /// 5000 and above) is a protocol error (1002); a reason that is not UTF-8 is 1007. nil: the
    /// frame is valid and is echoed.
    static func problem(in payload: UnsafeRawBufferPointer) -> CloseCode? {
        guard !payload.isEmpty else { return nil }
        guard payload.count >= 2 else { return .protocolError }
        let code = Int(payload[0]) << 8 | Int(payload[1])
        guard isSendable(code) else { return .protocolError }
        let reason = UnsafeBufferPointer(
            start: payload.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) + 2 }, count: payload.count - 2)
        guard String(validating: reason, as: UTF8.self) != nil else { return .invalidPayload }
        return nil
    }

    /// Whether a peer may put `code` in a close frame: the codes RFC 6455 and the IANA registry
    /// define for use on the wire (1000–1003, 1007–1014), and the ranges for libraries and
    /// applications (3000–4999).
    static func isSendable(_ code: Int) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }
}
