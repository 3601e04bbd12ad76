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
}
