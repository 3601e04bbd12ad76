import Testing

@testable import WebSocketWire

/// The client's parts of the wire, which the tests, the fuzzers and the load generator share: the
/// opening handshake and reading a server's frames, fragments joined or handed on.
@Suite("The client's side: handshake and a server's frames")
struct ClientSideTests {
    static let nonce: [UInt8] = Array("the sample nonce".utf8)

    @Test("the request asks for the upgrade with the key; the answer must be 101 with that key's accept value")
    func handshake() {
        let handshake = ClientHandshake(host: "h:1", path: "/ws", nonce: Self.nonce)
        let request = String(decoding: handshake.request, as: UTF8.self)
        #expect(handshake.key == "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(request.hasPrefix("GET /ws HTTP/1.1\r\nHost: h:1\r\n") && request.hasSuffix("\r\n\r\n"))
        #expect(request.contains("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"))
        #expect(request.contains("Sec-WebSocket-Protocol: chronosketch.v1\r\n"))
        let good =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nsec-websocket-accept:  s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
        #expect(handshake.check(good) == .accepted)
        let wrongKey = good.replacing("s3pP", with: "AAAA")
        guard case .refused = handshake.check(wrongKey) else {
            Issue.record("a wrong accept value was taken")
            return
        }
        #expect(handshake.check("HTTP/1.1 426 Upgrade Required\r\n\r\n") == .refused("HTTP/1.1 426 Upgrade Required"))
        #expect(ClientHandshake.headEnd(Array((good + "rest").utf8)) == good.utf8.count)
        #expect(ClientHandshake.headEnd(Array("HTTP/1.1 101\r\n\r".utf8)) == nil)
    }

    /// A server's frame (unmasked).
    static func serverFrame(_ opcode: UInt8, _ payload: [UInt8], final: Bool = true) -> [UInt8] {
        FrameHeader.make(first: (final ? 0x80 : 0) | opcode, length: payload.count, maskBit: 0) + payload
    }

    static func events(_ bytes: [UInt8], _ decoder: inout FrameDecoder) -> [FrameDecoder.Event] {
        var events: [FrameDecoder.Event] = []
        var offset = 0
        while offset < bytes.count {
            switch bytes[offset...].withUnsafeBytes({ decoder.step($0) }) {
            case .event(let event, let count):
                events.append(event)
                offset += count
            case .consumed(let count): offset += count
            case .needMore, .fail: return events
            }
        }
        return events
    }

    @Test("fragments handed on as they come, marked first and last; whole messages as before; pings between")
    func streamedFragments() {
        var decoder = FrameDecoder(maxMessageBytes: 1 << 20, sender: .server, joinsFragments: false)
        let bytes =
            Self.serverFrame(1, Array("whole".utf8)) + Self.serverFrame(1, Array("pa".utf8), final: false)
            + Self.serverFrame(9, []) + Self.serverFrame(0, Array("r".utf8), final: false)
            + Self.serverFrame(0, Array("ts".utf8))
        #expect(
            Self.events(bytes, &decoder) == [
                .text(Array("whole".utf8)), .fragment(Array("pa".utf8), first: true, last: false, text: true),
                .ping([]),
                .fragment(Array("r".utf8), first: false, last: false, text: true),
                .fragment(Array("ts".utf8), first: false, last: true, text: true),
            ])
    }

    @Test("a server's masked frame is refused; UTF-8 is checked across fragments unless the reader opts out")
    func serverRules() {
        var decoder = FrameDecoder(maxMessageBytes: 1 << 20, sender: .server, joinsFragments: false)
        let masked = ClientFrame.make(opcode: 1, Array("x".utf8))
        guard case .fail(1002, _) = masked.withUnsafeBytes({ decoder.step($0) }) else {
            Issue.record("a masked server frame was read")
            return
        }
        let split = Self.serverFrame(1, [0xE2, 0x82], final: false) + Self.serverFrame(0, [0x28])
        var checking = FrameDecoder(maxMessageBytes: 1 << 20, sender: .server, joinsFragments: false)
        #expect(Self.events(split, &checking).count == 1, "the second fragment breaks the character")
        var trusting = FrameDecoder(
            maxMessageBytes: 1 << 20, sender: .server, joinsFragments: false, checksUTF8: false)
        #expect(Self.events(split, &trusting).count == 2)
    }
}
