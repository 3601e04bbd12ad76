import ChronoSketchCore
import Testing

@testable import PlanFuzz

@Suite("Fuzz generators")
struct FuzzGeneratorTests {
    let frameContext = FrameContext(host: "127.0.0.1:1", token: "t", plan: "demo")
    let planContext = PlanContext(plan: "demo", token: "t", version: 3, resourceIDs: ["room-1"])

    @Test("a frame case depends only on the seed and its index")
    func framesAreDeterministic() {
        for index in 0..<60 {
            let first = FrameCaseGenerator.make(seed: 42, index: index, context: frameContext)
            let again = FrameCaseGenerator.make(seed: 42, index: index, context: frameContext)
            #expect(first.label == again.label && first.writes == again.writes)
            #expect(first.handshake == again.handshake)
        }
        let labels = Set((0..<60).map { FrameCaseGenerator.make(seed: 42, index: $0, context: frameContext).label })
        #expect(labels.count > 45, "cases differ from each other")
    }

    @Test("every boundary length is declared, with and without the continuation overflow pattern")
    func boundaryLengths() {
        var labels: [String] = []
        for index in 0..<3000 {
            labels.append(FrameCaseGenerator.make(seed: 9, index: index, context: frameContext).label)
        }
        for length in FrameCaseGenerator.boundaryLengths {
            #expect(labels.contains { $0.contains("declaring \(length) ") || $0.contains("declaring \(length),") })
        }
        #expect(labels.contains { $0.contains("cont declaring 9223372036854775807") })
    }

    @Test("the header encodes each length in its form", arguments: FrameCaseGenerator.boundaryLengths)
    func header(_ length: UInt64) {
        let bytes = WebSocketFrame(opcode: 1, declaredLength: length).bytes
        switch length {
        case ..<126:
            #expect(bytes[1] == 0x80 | UInt8(length) && bytes.count == 6)
        case ...0xFFFF:
            #expect(bytes[1] == 0x80 | 126 && UInt64(bytes[2]) << 8 | UInt64(bytes[3]) == length)
        default:
            #expect(bytes[1] == 0x80 | 127 && bytes[2..<10].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } == length)
        }
        let unmasked = WebSocketFrame(opcode: 2, payload: [1, 2, 3], fin: false, reserved: 5, mask: nil).bytes
        #expect(unmasked == [0x52, 3, 1, 2, 3])
    }

    @Test("message sessions are deterministic; without NUL allowed no message holds a NUL")
    func messagesAreDeterministic() {
        for index in 0..<40 {
            let first = MessageSessionGenerator.make(seed: 5, index: index, context: planContext, allowNUL: false)
            let again = MessageSessionGenerator.make(seed: 5, index: index, context: planContext, allowNUL: false)
            #expect(first.map(\.bytes) == again.map(\.bytes))
            for message in first { #expect(!Expectation(bytes: message.bytes).mentionsNUL) }
        }
        let withNUL = (0..<100).flatMap {
            MessageSessionGenerator.make(seed: 5, index: $0, context: planContext, allowNUL: true)
        }
        #expect(withNUL.contains { Expectation(bytes: $0.bytes).mentionsNUL })
    }

    @Test("a NUL is found in any form and place: raw, escaped at the start, the end, after a near miss")
    func nulFound() {
        func mentions(_ text: String) -> Bool { Expectation(bytes: Array(text.utf8)).mentionsNUL }
        #expect(mentions(#"\u0000"#))
        #expect(mentions(#"{"a":"x\u0000"}"#))
        #expect(mentions(#"\u000\u0000"#))
        #expect(mentions("a\u{0}b"))
        #expect(!mentions(#"\u000"#))
        #expect(!mentions(#"{"a":"\u0001\u000"}"#))
        #expect(!mentions(#"{"a":"\\u00a0"}"#))
        #expect(!mentions(""))
    }

    @Test("every type and op of the contract is generated")
    func coverage() {
        var random = FuzzRandom(seed: 1)
        for type in MessageTemplates.types {
            let message = MessageTemplates.message(
                type: type, context: planContext, id: "p1", ref: "r", random: &random)
            #expect(Expectation(bytes: message.bytes).type == type)
        }
        for operation in MessageTemplates.operations {
            let op = MessageTemplates.operation(operation, context: planContext, id: "p1", random: &random)
            #expect(op["type"]?.stringValue?.hasPrefix(operation.prefix(8)) == true)
        }
    }

    @Test("limits: ids of 128 and 129 scalars, titles of 1000 and 1001, a frame of 1 MiB and one byte more")
    func limits() {
        var random = FuzzRandom(seed: 3)
        #expect(HostileStrings.scalars(128, random: &random).unicodeScalars.count == 128)
        #expect(HostileStrings.scalars(1001, random: &random).unicodeScalars.count == 1001)
        let message = Array(#"{"type":"plans","ref":"x"}"#.utf8)
        let exact = MessageSessionGenerator.padded(message, to: Expectation.maxMessageBytes)
        #expect(exact.count == Expectation.maxMessageBytes && Expectation(bytes: exact).ref == "x")
        let over = MessageSessionGenerator.padded(message, to: Expectation.maxMessageBytes + 1)
        #expect(Expectation(bytes: over).closeCode == 1009)
    }

    @Test("the oracle reads what the server reads: refs, ids, depth, UTF-8")
    func oracle() {
        #expect(Expectation(bytes: [0x7B, 0xFF, 0x7D]).closeCode == 1007)
        let long = String(repeating: "é", count: 129)
        #expect(Expectation(bytes: Array(#"{"type":"plans","ref":"\#(long)"}"#.utf8)).ref == nil)
        let propose = Expectation(bytes: Array(#"{"type":"propose","id":"a","ref":"r","id":"b"}"#.utf8))
        #expect(propose.proposalID == "b" && propose.ref == "r")
        #expect(Expectation(bytes: Array(#"{"type":"propose","id":""}"#.utf8)).proposalID == nil)
        let deep =
            #"{"type":"plans","ref":"r","x":"# + String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
            + "}"
        #expect(Expectation(bytes: Array(deep.utf8)).ref == nil)
        #expect(Expectation(bytes: Array(#"{"type":"unsubscribe","plan":"x","ref":"r"}"#.utf8)).ref == nil)
    }
}
