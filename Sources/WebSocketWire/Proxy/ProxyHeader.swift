/// The PROXY protocol header (HAProxy's, versions 1 and 2) a proxy may send at the start of a
/// connection to say whose it is: read as a pure function of the connection's first bytes. The
/// transport honours it only from a trusted proxy (`TrustedProxies`); from anyone else the same
/// bytes are just a malformed HTTP request.
///
/// Version 1 is a line of text, at most 107 bytes: `PROXY TCP4 192.0.2.1 198.51.100.1 56324 443`
/// (or `TCP6` with IPv6 addresses, or `UNKNOWN` and anything) and CRLF. Version 2 is binary: a
/// 12-byte signature, the version and command, the family, a 16-bit length and that many bytes of
/// addresses and TLVs (skipped). The `LOCAL` command (a proxy's own connection, such as a health
/// check), `UNKNOWN`, and families without an IP address leave the connection the proxy's.
public enum ProxyHeader {
    /// What the first bytes of a connection hold.
    public enum Parse: Equatable, Sendable {
        /// They start with neither signature: the connection has no PROXY header.
        case absent
        /// A header may be coming: read more.
        case incomplete
        /// A header of `byteCount` bytes naming the client `source` (nil: the connection is the
        /// proxy's own, or its client has no IP address).
        case complete(source: IPAddress?, byteCount: Int)
        /// A malformed header: refuse the connection.
        case invalid(reason: String)
    }

    /// The longest version 1 header (the specification's bound, CRLF included).
    public static let maxVersion1Bytes = 107
    /// The longest version 2 header accepted (16 bytes and the length field's bytes): addresses
    /// and what TLVs a proxy adds (SSL details, unique id) fit many times over.
    public static let maxVersion2Bytes = 4096

    static let version1Prefix = Array("PROXY ".utf8)
    static let version2Signature: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A]

    /// Reads the header at the start of `bytes` (the first bytes of a connection).
    public static func parse(_ bytes: some Collection<UInt8>) -> Parse {
        let bytes = Array(bytes.prefix(maxVersion2Bytes))
        guard !bytes.isEmpty else { return .incomplete }
        if startsOrIsStartOf(bytes, version1Prefix) {
            return bytes.count < version1Prefix.count ? .incomplete : parseVersion1(bytes)
        }
        if startsOrIsStartOf(bytes, version2Signature) {
            return bytes.count < version2Signature.count ? .incomplete : parseVersion2(bytes)
        }
        return .absent
    }

    /// Whether `bytes` begin with `prefix`, or are a beginning of it.
    private static func startsOrIsStartOf(_ bytes: [UInt8], _ prefix: [UInt8]) -> Bool {
        !bytes.isEmpty && zip(bytes, prefix).allSatisfy { $0 == $1 }
    }

    private static func parseVersion1(_ bytes: [UInt8]) -> Parse {
        let window = bytes.prefix(maxVersion1Bytes)
        guard let end = window.firstIndex(of: 0x0A) else {
            return bytes.count >= maxVersion1Bytes
                ? .invalid(reason: "PROXY v1 header longer than \(maxVersion1Bytes) bytes") : .incomplete
        }
        guard end > 0, bytes[end - 1] == 0x0D else { return .invalid(reason: "PROXY v1 header without CRLF") }
        let line = bytes[..<(end - 1)]
        guard line.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            return .invalid(reason: "PROXY v1 header with a byte that is not printable ASCII")
        }
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        if parts.count >= 2, parts[1] == "UNKNOWN" { return .complete(source: nil, byteCount: end + 1) }
        guard parts.count == 6, parts[1] == "TCP4" || parts[1] == "TCP6" else {
            return .invalid(reason: "PROXY v1 header is not \"PROXY TCP4|TCP6 SOURCE DESTINATION SPORT DPORT\"")
        }
        let wantsIPv4 = parts[1] == "TCP4"
        let addresses = [parts[2], parts[3]].map {
            wantsIPv4
                ? IPAddress.parseIPv4(Substring($0)).map(IPAddress.init(ipv4:)) : IPAddress.parseIPv6(Substring($0))
        }
        guard let source = addresses[0], addresses[1] != nil else {
            return .invalid(reason: "PROXY v1 header with an address that is not \(wantsIPv4 ? "IPv4" : "IPv6")")
        }
        guard parts[4...5].allSatisfy(isPort) else { return .invalid(reason: "PROXY v1 header with an invalid port") }
        return .complete(source: source, byteCount: end + 1)
    }

    /// A port: decimal 0–65535 without leading zeros.
    private static func isPort(_ text: String) -> Bool {
        (1...5).contains(text.count) && text.allSatisfy { $0.isASCII && $0.isNumber }
            && (text.count == 1 || text.first != "0") && Int(text)! <= 65535
    }

    private static func parseVersion2(_ bytes: [UInt8]) -> Parse {
        guard bytes.count >= 16 else { return .incomplete }
        let versionAndCommand = bytes[12]
        let family = bytes[13]
        let length = Int(bytes[14]) << 8 | Int(bytes[15])
        guard versionAndCommand >> 4 == 2 else { return .invalid(reason: "PROXY v2 header of an unknown version") }
        guard 16 + length <= maxVersion2Bytes else {
            return .invalid(reason: "PROXY v2 header longer than \(maxVersion2Bytes) bytes")
        }
        let command = versionAndCommand & 0x0F
        guard command <= 1 else { return .invalid(reason: "PROXY v2 header with an unknown command") }
        guard bytes.count >= 16 + length else { return .incomplete }
        let total = 16 + length
        // LOCAL: the proxy's own connection (a health check); the addresses, if any, mean nothing.
        guard command == 1 else { return .complete(source: nil, byteCount: total) }
        switch family {
        case 0x00:
            return .complete(source: nil, byteCount: total)  // UNSPEC: no address to tell
        case 0x11, 0x21:
            let size = family == 0x11 ? 4 : 16
            guard length >= 2 * size + 4 else { return .invalid(reason: "PROXY v2 header shorter than its addresses") }
            return .complete(source: IPAddress(bytes: bytes[16..<(16 + size)]), byteCount: total)
        case 0x31:
            guard length >= 216 else { return .invalid(reason: "PROXY v2 header shorter than its addresses") }
            return .complete(source: nil, byteCount: total)  // a UNIX socket's client has no IP address
        default:
            return .invalid(reason: "PROXY v2 header of a family or transport other than TCP over IPv4 or IPv6")
        }
    }
}
