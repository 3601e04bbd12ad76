/// One fuzzed message and how it goes on the wire.
public struct FuzzedMessage: Sendable {
    /// How the message is framed.
    public enum Delivery: Sendable, Hashable {
        /// One final text frame.
        case text
        /// One binary frame (the contract answers `badMessage`).
        case binary
        /// Text split into this many fragments (a text frame and continuations).
        case fragmented(Int)
    }

    /// The payload bytes.
    public var bytes: [UInt8]
    /// The framing.
    public var delivery: Delivery
    /// The template and the mutations applied.
    public var log: [String]
}

/// The messages of one session: valid templates of every type and op, most of them mutated.
public enum MessageSessionGenerator {
    /// Whether session `index` of the run with `seed` says `hello` first.
    public static func isAuthenticated(seed: UInt64, index: Int) -> Bool {
        var random = FuzzRandom(seed: seed, stream: .messages, case: index)
        return random.chance(0.8)
    }

    /// The messages of session `index`, formed from `context` (the plan as the session found it).
    /// An unauthenticated session has one message. With `allowNUL` false no string holds NUL
    /// (the known NUL bug stays out of a bounded run).
    public static func make(seed: UInt64, index: Int, context: PlanContext, allowNUL: Bool) -> [FuzzedMessage] {
        var random = FuzzRandom(seed: seed, stream: .messages, case: index)
        let authenticated = random.chance(0.8)
        let count = authenticated ? random.int(1...12) : 1
        var messages: [FuzzedMessage] = []
        for number in 0..<count {
            let id = "fz-\(String(seed, radix: 16))-\(index)-\(number)"
            let message = make(random: &random, context: context, id: id, ref: "r\(number)", allowNUL: allowNUL)
            messages.append(message)
            // A message that closes the connection ends the session.
            if Expectation(bytes: message.bytes).closeCode != nil { break }
        }
        return messages
    }

    /// One message: a template, mutated most of the time.
    static func make(
        random: inout FuzzRandom, context: PlanContext, id: String, ref: String, allowNUL: Bool
    ) -> FuzzedMessage {
        let type = random.chance(0.45) ? "propose" : random.pick(MessageTemplates.types)
        var template = MessageTemplates.message(type: type, context: context, id: id, ref: ref, random: &random)
        var log = ["\(type) \(template["op"]?["type"]?.stringValue ?? "")"]
        if random.chance(0.75) {
            template = MessageMutator.mutate(
                template, count: random.int(1...3), allowNUL: allowNUL, random: &random, log: &log)
        }
        var bytes = template.bytes
        if random.chance(0.08) { bytes = MessageMutator.mutateBytes(bytes, random: &random, log: &log) }
        if !allowNUL, bytes.contains(0) { bytes = bytes.filter { $0 != 0 } }
        if random.chance(0.015) {
            let size = random.pick([Expectation.maxMessageBytes, Expectation.maxMessageBytes + 1])
            bytes = padded(bytes, to: size)
            log.append("padded to \(size) bytes")
        }
        var delivery = FuzzedMessage.Delivery.text
        if random.chance(0.03) {
            delivery = .binary
        } else if random.chance(0.1) {
            delivery = .fragmented(random.int(2...4))
        }
        return FuzzedMessage(bytes: bytes, delivery: delivery, log: log)
    }

    /// `bytes` (an object) grown to exactly `size` bytes with a padding member; others unchanged.
    static func padded(_ bytes: [UInt8], to size: Int) -> [UInt8] {
        guard bytes.first == UInt8(ascii: "{"), bytes.count > 2 else { return bytes }
        let head = Array(#"{"padding":""#.utf8)
        let tail = Array(#"","#.utf8)
        let fill = size - head.count - tail.count - (bytes.count - 1)
        guard fill >= 0 else { return bytes }
        return head + [UInt8](repeating: UInt8(ascii: "x"), count: fill) + tail + bytes.dropFirst()
    }

    /// The frames that deliver `message`.
    public static func frames(_ message: FuzzedMessage) -> [WebSocketFrame] {
        switch message.delivery {
        case .text: return [WebSocketFrame(opcode: WebSocketFrame.Opcode.text, payload: message.bytes)]
        case .binary: return [WebSocketFrame(opcode: WebSocketFrame.Opcode.binary, payload: message.bytes)]
        case .fragmented(let pieces):
            let size = max(1, (message.bytes.count + pieces - 1) / pieces)
            let chunks = stride(from: 0, to: max(1, message.bytes.count), by: size).map {
                Array(message.bytes[$0..<min($0 + size, message.bytes.count)])
            }
            return chunks.enumerated().map { index, chunk in
                WebSocketFrame(
                    opcode: index == 0 ? WebSocketFrame.Opcode.text : WebSocketFrame.Opcode.continuation,
                    payload: chunk,
                    fin: index == chunks.count - 1)
            }
        }
    }
}
