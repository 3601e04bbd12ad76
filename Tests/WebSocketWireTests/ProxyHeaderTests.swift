import Testing

@testable import WebSocketWire

@Suite("PROXY protocol header, v1 and v2")
struct ProxyHeaderTests {
    typealias Parse = ProxyHeader.Parse

    static func parse(_ text: String) -> Parse { ProxyHeader.parse(Array(text.utf8)) }

    /// A v2 header: command (0 LOCAL, 1 PROXY), family byte, the address block and extra bytes.
    static func version2(command: UInt8 = 1, family: UInt8 = 0x11, addresses: [UInt8], declared: Int? = nil)
        -> [UInt8]
    {
        let length = declared ?? addresses.count
        return ProxyHeader.version2Signature + [0x20 | command, family, UInt8(length >> 8), UInt8(length & 0xFF)]
            + addresses
    }

    static let ipv4Block: [UInt8] = [192, 0, 2, 7, 10, 0, 0, 1, 0x1F, 0x90, 0x01, 0xBB]

    @Test("v1: TCP4 and TCP6 name the source; UNKNOWN leaves the connection the proxy's")
    func version1() {
        let line = "PROXY TCP4 192.0.2.7 10.0.0.1 56324 443\r\n"
        #expect(
            Self.parse(line + "GET / HTTP/1.1\r\n")
                == .complete(source: IPAddress("192.0.2.7"), byteCount: line.utf8.count))
        let six = "PROXY TCP6 2001:db8::7 2001:db8::1 65535 0\r\n"
        #expect(Self.parse(six) == .complete(source: IPAddress("2001:db8::7"), byteCount: six.utf8.count))
        #expect(Self.parse("PROXY UNKNOWN\r\n") == .complete(source: nil, byteCount: 15))
        #expect(Self.parse("PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n") == .complete(source: nil, byteCount: 35))
    }

    @Test("v1: every prefix of a header asks for more; other first bytes are no header")
    func version1Prefixes() {
        let line = Array("PROXY TCP4 192.0.2.7 10.0.0.1 56324 443\r\n".utf8)
        for end in 1..<line.count {
            #expect(ProxyHeader.parse(line[..<end]) == .incomplete, "\(end) bytes")
        }
        #expect(Self.parse("GET / HTTP/1.1\r\n") == .absent)
        #expect(Self.parse("PROXZ") == .absent)
        #expect(Self.parse("proxy TCP4") == .absent)
        #expect(ProxyHeader.parse([UInt8]()) == .incomplete)
    }

    @Test(
        "v1: malformed or hostile lines are invalid",
        arguments: [
            "PROXY TCP4 192.0.2.7 10.0.0.1 56324 443\n", "PROXY TCP4 192.0.2.7 10.0.0.1 56324\r\n",
            "PROXY TCP4 192.0.2.7 10.0.0.1 56324 443 9\r\n", "PROXY TCP4  192.0.2.7 10.0.0.1 56324 443\r\n",
            "PROXY TCP4 2001:db8::7 10.0.0.1 56324 443\r\n", "PROXY TCP6 192.0.2.7 2001:db8::1 56324 443\r\n",
            "PROXY TCP4 192.0.2.7 10.0.0.1 65536 443\r\n", "PROXY TCP4 192.0.2.7 10.0.0.1 0443 443\r\n",
            "PROXY TCP4 192.0.2.7 10.0.0.1 -1 443\r\n", "PROXY TCP4 192.0.2.7 junk 1 443\r\n",
            "PROXY UDP4 192.0.2.7 10.0.0.1 1 443\r\n", "PROXY tcp4 192.0.2.7 10.0.0.1 1 443\r\n",
            "PROXY TCP4 192.0.2.7\u{0} 10.0.0.1 1 443\r\n", "PROXY TCP4 192.0.2.7 10.0.0.1 1 443\r\r\n",
            "PROXY \r\n", "PROXY UNKNOWN" + String(repeating: " x", count: 60) + "\r\n",
            "PROXY TCP4 " + String(repeating: "9", count: 120),
        ])
    func version1Invalid(line: String) {
        guard case .invalid = Self.parse(line) else {
            Issue.record("accepted: \(line.debugDescription) → \(Self.parse(line))")
            return
        }
    }

    @Test("v2: PROXY over IPv4 and IPv6 names the source; TLVs are skipped; what follows is not read")
    func version2() {
        let four = Self.version2(addresses: Self.ipv4Block)
        #expect(ProxyHeader.parse(four + Array("GET".utf8)) == .complete(source: IPAddress("192.0.2.7"), byteCount: 28))
        let source: [UInt8] = [0x20, 0x01, 0x0D, 0xB8] + [UInt8](repeating: 0, count: 11) + [7]
        let six = Self.version2(family: 0x21, addresses: source + [UInt8](repeating: 1, count: 16) + [0, 1, 0, 2])
        #expect(ProxyHeader.parse(six) == .complete(source: IPAddress("2001:db8::7"), byteCount: 52))
        // A TLV (type 0x04 NOOP, 3 bytes) after the addresses.
        let withTLV = Self.version2(addresses: Self.ipv4Block + [0x04, 0x00, 0x03, 1, 2, 3])
        #expect(ProxyHeader.parse(withTLV) == .complete(source: IPAddress("192.0.2.7"), byteCount: 34))
    }

    @Test("v2: LOCAL (health checks), UNSPEC and UNIX leave the connection the proxy's")
    func version2WithoutSource() {
        #expect(
            ProxyHeader.parse(Self.version2(command: 0, family: 0x00, addresses: []))
                == .complete(source: nil, byteCount: 16))
        #expect(
            ProxyHeader.parse(Self.version2(command: 0, addresses: Self.ipv4Block))
                == .complete(source: nil, byteCount: 28))
        #expect(ProxyHeader.parse(Self.version2(family: 0x00, addresses: [])) == .complete(source: nil, byteCount: 16))
        let unix = Self.version2(family: 0x31, addresses: [UInt8](repeating: 0, count: 216))
        #expect(ProxyHeader.parse(unix) == .complete(source: nil, byteCount: 232))
    }

    @Test("v2: every truncation asks for more")
    func version2Truncated() {
        let four = Self.version2(addresses: Self.ipv4Block + [0x04, 0x00, 0x01, 9])
        for end in 1..<four.count {
            #expect(ProxyHeader.parse(four[..<end]) == .incomplete, "\(end) bytes")
        }
    }

    @Test("v2: hostile headers are invalid: version, command, family, short blocks, huge lengths")
    func version2Invalid() {
        var wrongVersion = Self.version2(addresses: Self.ipv4Block)
        wrongVersion[12] = 0x11
        let cases: [[UInt8]] = [
            wrongVersion,
            Self.version2(command: 2, addresses: Self.ipv4Block),
            Self.version2(command: 0xF, addresses: Self.ipv4Block),
            Self.version2(family: 0x12, addresses: Self.ipv4Block),  // UDP
            Self.version2(family: 0x41, addresses: Self.ipv4Block),
            Self.version2(addresses: Array(Self.ipv4Block.prefix(11))),
            Self.version2(family: 0x21, addresses: Self.ipv4Block),
            Self.version2(family: 0x31, addresses: [UInt8](repeating: 0, count: 100)),
            Self.version2(addresses: [], declared: 0xFFFF),
            Self.version2(addresses: [], declared: ProxyHeader.maxVersion2Bytes - 15),
        ]
        for (index, bytes) in cases.enumerated() {
            guard case .invalid = ProxyHeader.parse(bytes) else {
                Issue.record("case \(index) accepted: \(ProxyHeader.parse(bytes))")
                continue
            }
        }
        // The longest accepted header is accepted.
        let longest = Self.version2(
            addresses: Self.ipv4Block + [UInt8](repeating: 0, count: ProxyHeader.maxVersion2Bytes - 28))
        #expect(
            ProxyHeader.parse(longest)
                == .complete(source: IPAddress("192.0.2.7"), byteCount: ProxyHeader.maxVersion2Bytes))
    }

    @Test("random bytes after either signature never crash and never claim more bytes than given")
    func randomTails() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<2000 {
            let prefix = round % 2 == 0 ? ProxyHeader.version2Signature : Array("PROXY ".utf8)
            let tail = (0..<Int.random(in: 0...80, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            let bytes = prefix + tail
            if case .complete(_, let count) = ProxyHeader.parse(bytes) {
                #expect(count <= bytes.count)
            }
        }
    }
}
