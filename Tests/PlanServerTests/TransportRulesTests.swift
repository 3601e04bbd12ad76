import Testing

@testable import PlanServer

/// The transport's rules for what a peer sends, as pure values: no socket needed.
@Suite("Transport rules")
struct TransportRulesTests {
    @Test("a message fits while held + chunk + announced remainder stay within the limit; no length traps")
    func incomingSizes() {
        let limit = 1 << 20
        #expect(IncomingMessage.fits(received: 0, chunk: limit, remaining: 0, limit: limit))
        #expect(!IncomingMessage.fits(received: 0, chunk: limit, remaining: 1, limit: limit))
        #expect(IncomingMessage.fits(received: 1, chunk: 1, remaining: UInt(limit - 2), limit: limit))
        #expect(!IncomingMessage.fits(received: 1, chunk: 1, remaining: UInt(limit - 1), limit: limit))
        // Lengths a frame header can claim: none traps, none fits.
        for remaining in [UInt(Int.max), UInt.max, UInt(1) << 63, UInt(1) << 32] {
            #expect(!IncomingMessage.fits(received: 1, chunk: 1, remaining: remaining, limit: limit))
            #expect(!IncomingMessage.fits(received: limit, chunk: 0, remaining: remaining, limit: limit))
        }
        #expect(!IncomingMessage.fits(received: 0, chunk: Int.max, remaining: UInt.max, limit: limit))
        #expect(!IncomingMessage.fits(received: limit + 1, chunk: 0, remaining: 0, limit: limit))
        #expect(!IncomingMessage.fits(received: -1, chunk: 0, remaining: 0, limit: limit))
    }

    @Test(
        "close frames: codes no peer may send and one-byte payloads are 1002, a reason that is not UTF-8 is 1007",
        arguments: [
            ([], nil),
            ([0x03], 1002),
            ([0x03, 0xE8], nil),
            ([0x03, 0xE8] + Array("done".utf8), nil),
            ([0x03, 0xE8, 0xC3], 1007),
            ([0x03, 0xE8, 0xED, 0xA0, 0x80], 1007),
            ([0x03, 0xEB], nil),
            ([0x03, 0xEC], 1002),
            ([0x03, 0xEE], 1002),
            ([0x03, 0xF6], nil),
            ([0x03, 0xF7], 1002),
            ([0x0B, 0xB8], nil),
            ([0x13, 0x87], nil),
            ([0x13, 0x88], 1002),
            ([0xFF, 0xFF], 1002),
            ([0x00, 0x00], 1002),
        ] as [([UInt8], UInt16?)])
    func closeFrames(_ payload: [UInt8], _ expected: UInt16?) {
        let answer = payload.withUnsafeBytes { PeerCloseFrame.problem(in: $0) }
        #expect(answer?.rawValue == expected)
    }

    @Test("every code a peer may send, and no other, from 0 to 65535")
    func sendableCodes() {
        let sendable = (0...65535).filter(PeerCloseFrame.isSendable)
        #expect(sendable == Array(1000...1003) + Array(1007...1014) + Array(3000...4999))
    }
}
