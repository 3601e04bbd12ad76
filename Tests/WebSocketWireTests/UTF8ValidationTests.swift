import Testing

@testable import WebSocketWire

@Suite("UTF-8 checked as it arrives: fail fast, sequences split anywhere")
struct UTF8ValidationTests {
    @Test("the validation agrees with the standard library on random bytes, however they are chunked")
    func randomAgreement() {
        var generator = SplitMix(seed: 20_261_203)
        // Bytes drawn to hit the edges: ASCII, continuations, every kind of lead byte.
        let pool: [UInt8] = [
            0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
            0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        var valid = 0
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 9)
            let bytes = (0..<count).map { _ in pool[Int(generator.next() % UInt64(pool.count))] }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            if expected { valid += 1 }
            #expect(UTF8Validation.isValid(bytes) == expected, "\(bytes)")
            // The same bytes in two chunks split anywhere.
            let split = count == 0 ? 0 : Int(generator.next() % UInt64(count + 1))
            var chunked = UTF8Validation()
            let result = chunked.consume(bytes[..<split]) && chunked.consume(bytes[split...]) && chunked.isAtBoundary
            #expect(result == expected, "\(bytes) split at \(split)")
        }
        #expect(valid > 1000, "the draw reaches valid sequences too")
    }

    @Test("overlong forms, surrogates, values past U+10FFFF and stray continuations are refused")
    func edges() {
        #expect(UTF8Validation.isValid(Array("aé€😀".utf8)))
        for bad: [UInt8] in [
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80], [0x80], [0xE2, 0x82],
        ] {
            #expect(!UTF8Validation.isValid(bad), "\(bad)")
        }
    }

    @Test("a text fragment that breaks UTF-8 fails with 1007 at once, before the message's last fragment")
    func failFastInFragment() {
        let first = clientFrame(opcode: 1, Array("{\"type\":".utf8) + [0xFF], final: false)
        let (events, last) = FrameDecoderTests.run(first)
        #expect(events.isEmpty)
        guard case .fail(1007, _) = last else {
            Issue.record("not failed at once: \(last)")
            return
        }
    }

    @Test("a character split across fragments is fine; a message that ends inside one fails with 1007")
    func splitCharacter() {
        let euro: [UInt8] = [0xE2, 0x82, 0xAC]
        let split =
            clientFrame(opcode: 1, [0x22, euro[0]], final: false) + clientFrame(opcode: 0, [euro[1]], final: false)
            + clientFrame(opcode: 0, [euro[2], 0x22])
        #expect(FrameDecoderTests.run(split).events == [.text([0x22] + euro + [0x22])])
        let cut = clientFrame(opcode: 1, [0x22, euro[0]], final: false) + clientFrame(opcode: 0, [euro[1]])
        guard case .fail(1007, _) = FrameDecoderTests.run(cut).last else {
            Issue.record("a message ending inside a character was accepted")
            return
        }
        // Binary messages are not text: any bytes.
        #expect(FrameDecoderTests.run(clientFrame(opcode: 2, [0xFF, 0xC0])).events == [.binary([0xFF, 0xC0])])
    }
}

/// A small seeded generator (SplitMix64), so that a failing draw can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
