import Testing

@testable import WebSocketWire

/// A client frame, masked, with any header fields.
func clientFrame(
    opcode: UInt8, _ payload: [UInt8], final: Bool = true, masked: Bool = true, rsv: UInt8 = 0,
    claimedLength: UInt64? = nil, longForm: Bool = false
) -> [UInt8] {
    var bytes: [UInt8] = [(final ? 0x80 : 0) | rsv << 4 | opcode]
    let length = claimedLength ?? UInt64(payload.count)
    let maskBit: UInt8 = masked ? 0x80 : 0
    if length < 126 && !longForm {
        bytes.append(maskBit | UInt8(length))
    } else if length <= 0xFFFF && !longForm {
        bytes += [maskBit | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
    } else {
        bytes.append(maskBit | 127)
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: length >> UInt64(shift)))
        }
    }
    let mask: [UInt8] = [0x11, 0x22, 0x33, 0x44]
    if masked { bytes += mask }
    for (index, byte) in payload.enumerated() { bytes.append(masked ? byte ^ mask[index & 3] : byte) }
    return bytes
}

@Suite("Frame decoding (client frames, strictly)")
struct FrameDecoderTests {
    /// Steps through `bytes` until it needs more or fails; returns the events and the last step.
    static func run(_ bytes: [UInt8], limit: Int = 1 << 20) -> (events: [FrameDecoder.Event], last: FrameDecoder.Step) {
        var decoder = FrameDecoder(maxMessageBytes: limit)
        var events: [FrameDecoder.Event] = []
        var offset = 0
        while true {
            let step = bytes[offset...].withUnsafeBytes { decoder.step($0) }
            switch step {
            case .needMore, .fail: return (events, step)
            case .consumed(let count): offset += count
            case .event(let event, let count):
                events.append(event)
                offset += count
            }
        }
    }

    @Test("text, binary, ping, pong and close frames; fragments put together around a ping")
    func messages() {
        let bytes =
            clientFrame(opcode: 1, Array("hello".utf8)) + clientFrame(opcode: 2, [1, 2, 3])
            + clientFrame(opcode: 1, Array("frag".utf8), final: false) + clientFrame(opcode: 9, Array("p1".utf8))
            + clientFrame(opcode: 9, Array("p2".utf8)) + clientFrame(opcode: 0, Array("ment".utf8))
            + clientFrame(opcode: 10, []) + clientFrame(opcode: 8, [0x03, 0xE8])
        let (events, last) = Self.run(bytes)
        #expect(
            events == [
                .text(Array("hello".utf8)), .binary([1, 2, 3]), .ping(Array("p1".utf8)), .ping(Array("p2".utf8)),
                .text(Array("fragment".utf8)), .pong([]), .close([0x03, 0xE8]),
            ])
        #expect(last == .needMore)
    }

    @Test("every prefix of a valid stream needs more, never fails")
    func prefixes() {
        let bytes = clientFrame(opcode: 1, [UInt8](repeating: 65, count: 300)) + clientFrame(opcode: 9, [1])
        for cut in 0..<bytes.count {
            let (_, last) = Self.run(Array(bytes[..<cut]))
            #expect(last == .needMore, "cut at \(cut)")
        }
    }

    @Test(
        "protocol errors close with 1002",
        arguments: [
            ("unmasked", clientFrame(opcode: 1, [65], masked: false)),
            ("reserved bits", clientFrame(opcode: 1, [65], rsv: 4)),
            ("opcode 3", clientFrame(opcode: 3, [])),
            ("opcode 0xB", clientFrame(opcode: 0xB, [])),
            ("fragmented ping", clientFrame(opcode: 9, [], final: false)),
            ("ping of 126 bytes", clientFrame(opcode: 9, [UInt8](repeating: 0, count: 126))),
            ("continuation first", clientFrame(opcode: 0, [65])),
            (
                "text inside a fragmented message",
                clientFrame(opcode: 1, [65], final: false) + clientFrame(opcode: 1, [66])
            ),
            ("16-bit length under 126", [0x81, 0xFE, 0x00, 0x05]),
            ("64-bit length under 65536", clientFrame(opcode: 1, [65], longForm: true)),
            ("64-bit length with its top bit", [0x81, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 1]),
        ] as [(String, [UInt8])])
    func protocolErrors(_ label: String, _ bytes: [UInt8]) {
        guard case .fail(1002, _) = Self.run(bytes).last else {
            Issue.record("\(label): not a protocol error: \(Self.run(bytes).last)")
            return
        }
    }

    @Test(
        "a message larger than the limit fails with 1009 as soon as a header announces it, whatever it claims",
        arguments: [UInt64(1025), UInt64(1) << 16, UInt64(1) << 32, (UInt64(1) << 63) - 1])
    func tooLarge(_ claimed: UInt64) {
        let limit = 1024
        let single = clientFrame(opcode: 1, [], claimedLength: claimed)
        guard case .fail(1009, _) = Self.run(Array(single.prefix(14)), limit: limit).last else {
            Issue.record("a single frame claiming \(claimed) was not refused")
            return
        }
        let fragmented = clientFrame(opcode: 1, [UInt8](repeating: 65, count: 1000), final: false)
        let continuation = clientFrame(opcode: 0, [], claimedLength: claimed - 1000 + 1)
        guard case .fail(1009, _) = Self.run(fragmented + Array(continuation.prefix(14)), limit: limit).last else {
            Issue.record("a continuation claiming \(claimed) was not refused")
            return
        }
        let exact = clientFrame(opcode: 1, [UInt8](repeating: 65, count: limit))
        #expect(Self.run(exact, limit: limit).events == [.text([UInt8](repeating: 65, count: limit))])
    }

    @Test("frame headers in their shortest form at every boundary")
    func headers() {
        #expect(FrameHeader.make(opcode: .text, length: 125) == [0x81, 125])
        #expect(FrameHeader.make(opcode: .text, length: 126) == [0x81, 126, 0, 126])
        #expect(FrameHeader.make(opcode: .text, length: 65535) == [0x81, 126, 0xFF, 0xFF])
        #expect(FrameHeader.make(opcode: .close, length: 65536) == [0x88, 127, 0, 0, 0, 0, 0, 1, 0, 0])
    }
}
