import Testing

@testable import WebSocketWire

@Suite("Close frames")
struct CloseFrameTests {
    @Test(
        "a peer's close frame: codes no endpoint may send and one-byte payloads are 1002, a reason that is not UTF-8 is 1007",
        arguments: [
            ([], nil), ([0x03], 1002), ([0x03, 0xE8], nil), ([0x03, 0xE8] + Array("done".utf8), nil),
            ([0x03, 0xE8, 0xC3], 1007), ([0x03, 0xE8, 0xED, 0xA0, 0x80], 1007), ([0x03, 0xEB], nil),
            ([0x03, 0xEC], 1002), ([0x03, 0xEE], 1002), ([0x03, 0xF6], nil), ([0x03, 0xF7], 1002),
            ([0x0B, 0xB8], nil), ([0x13, 0x87], nil), ([0x13, 0x88], 1002), ([0xFF, 0xFF], 1002), ([0x00, 0x00], 1002),
        ] as [([UInt8], UInt16?)])
    func peerClose(_ payload: [UInt8], _ expected: UInt16?) {
        #expect(CloseFrame.problem(in: payload) == expected)
    }

    @Test("every code an endpoint may send, and no other, from 0 to 65535")
    func sendableCodes() {
        let sendable = (0...65535).filter(CloseFrame.isSendable)
        #expect(sendable == Array(1000...1003) + Array(1007...1014) + Array(3000...4999))
    }

    @Test("our close payload: the code, then the reason cut at a character boundary to fit 125 bytes")
    func payload() {
        #expect(CloseFrame.payload(code: 1009, reason: "too big") == [0x03, 0xF1] + Array("too big".utf8))
        let long = CloseFrame.payload(code: 1000, reason: String(repeating: "é", count: 100))
        #expect(long.count == 2 + 122)
        #expect(String(validating: long[2...], as: UTF8.self) != nil)
    }
}
