/// Close frames (RFC 6455 §5.5.1, §7.4): checking what a peer sent, and making our own.
public enum CloseFrame {
    /// The close code to answer a peer's close frame with when its payload breaks the rules: a
    /// one-byte payload, or a code no endpoint may send (below 1000, 1004–1006, 1015, 1016–2999,
    /// 5000 and above), is a protocol error (1002); a reason that is not UTF-8 is 1007. nil: the
    /// frame is valid, and is echoed.
    public static func problem(in payload: some Collection<UInt8>) -> UInt16? {
        guard !payload.isEmpty else { return nil }
        guard payload.count >= 2 else { return 1002 }
        let bytes = Array(payload)
        let code = Int(bytes[0]) << 8 | Int(bytes[1])
        guard isSendable(code) else { return 1002 }
        guard String(validating: bytes[2...], as: UTF8.self) != nil else { return 1007 }
        return nil
    }

    /// Whether an endpoint may put `code` in a close frame: the codes RFC 6455 and the IANA
    /// registry define for use on the wire (1000–1003, 1007–1014), and the ranges for libraries
    /// and applications (3000–4999).
    public static func isSendable(_ code: Int) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }

    /// A close frame's payload: the code, then the reason cut to fit a control frame (123 bytes,
    /// at a character boundary).
    public static func payload(code: UInt16, reason: String) -> [UInt8] {
        var reasonBytes: [UInt8] = []
        for character in reason {
            let next = Array(String(character).utf8)
            guard reasonBytes.count + next.count <= 123 else { break }
            reasonBytes += next
        }
        return [UInt8(code >> 8), UInt8(code & 0xFF)] + reasonBytes
    }
}
