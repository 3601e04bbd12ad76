/// What a frame-level case needs to know about its target.
public struct FrameContext: Sendable {
    /// The `Host` header value (`127.0.0.1:PORT`).
    public var host: String
    /// A valid token, for cases that say `hello` first.
    public var token: String
    /// The plan the cases subscribe to.
    public var plan: String

    /// Creates a context.
    public init(host: String, token: String, plan: String) {
        self.host = host
        self.token = token
        self.plan = plan
    }
}

/// One frame-level case: a connection, a handshake, optionally a valid `hello`, then writes.
public struct FrameCase: Sendable {
    /// What the case does, for the report.
    public var label: String
    /// The upgrade request.
    public var handshake: Handshake
    /// Whether a valid `hello` frame precedes the fuzzed frames.
    public var helloFirst: Bool
    /// The writes after the handshake (and hello), each one `send` of possibly several frames.
    public var writes: [[UInt8]]
}

/// Generates frame-level cases: lengths at every boundary, fragment sequences, control frames,
/// reserved bits, unknown opcodes, unmasked frames, close payloads, invalid UTF-8, garbage.
public enum FrameCaseGenerator {
    /// Payload lengths at every boundary of the header encoding and of the server's limits.
    public static let boundaryLengths: [UInt64] = [
        0, 1, 125, 126, 127, 65535, 65536, 1 << 20, (1 << 20) + 1, 1 << 31, 1 << 32, (1 << 63) - 1, 1 << 63,
        UInt64.max,
    ]

    /// The longest payload a case really sends (a little over `maxMessageBytes`).
    public static let largestSentPayload: UInt64 = (1 << 20) + 1

    /// Case `index` of the run with `seed`.
    public static func make(seed: UInt64, index: Int, context: FrameContext) -> FrameCase {
        var random = FuzzRandom(seed: seed, stream: .frames, case: index)
        return make(random: &random, context: context)
    }

    /// A case from `random`.
    public static func make(random: inout FuzzRandom, context: FrameContext) -> FrameCase {
        let kind = random.int(0...10)
        if kind == 0 {
            let handshake = HandshakeGenerator.make(host: context.host, random: &random)
            return FrameCase(
                label: "handshake: \(handshake.label)", handshake: handshake, helloFirst: handshake.mustUpgrade,
                writes: [])
        }
        let helloFirst = random.chance(0.5)
        let (label, pieces) = pieces(kind: kind, random: &random, context: context)
        var writes = random.chance(0.3) ? [pieces.flatMap { $0 }] : pieces
        if random.chance(0.1), let last = writes.last, last.count > 2 {
            writes[writes.count - 1] = Array(last.prefix(random.int(1...last.count - 1)))
        }
        return FrameCase(
            label: (helloFirst ? "after hello: " : "before hello: ") + label,
            handshake: HandshakeGenerator.valid(host: context.host), helloFirst: helloFirst, writes: writes)
    }

    /// The label and the bytes of each piece (a frame, or raw garbage) of a case of `kind`.
    static func pieces(kind: Int, random: inout FuzzRandom, context: FrameContext) -> (String, [[UInt8]]) {
        if kind == 10, random.chance(0.2) {
            let garbage = random.bytes(random.int(1...400))
            return ("\(garbage.count) bytes of raw garbage", [garbage])
        }
        let (label, frames) = frames(kind: kind, random: &random, context: context)
        return (label, frames.map(\.bytes))
    }

    static func frames(kind: Int, random: inout FuzzRandom, context: FrameContext) -> (String, [WebSocketFrame]) {
        switch kind {
        case 1: return lengthBoundary(random: &random)
        case 2, 3: return fragments(random: &random, context: context)
        case 4:
            var frame = randomFrame(random: &random, context: context)
            frame.reserved = UInt8(random.int(1...7))
            return ("reserved bits \(frame.reserved) on opcode \(frame.opcode)", [frame])
        case 5:
            let opcode = random.pick([3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] as [UInt8])
            return (
                "unknown opcode \(opcode)", [WebSocketFrame(opcode: opcode, payload: random.bytes(random.int(0...200)))]
            )
        case 6:
            var frame = randomFrame(random: &random, context: context)
            frame.mask = nil
            return ("unmasked opcode \(frame.opcode)", [frame])
        case 7: return pings(random: &random)
        case 8: return closeFrame(random: &random)
        case 9:
            let payload = random.chance(0.5) ? random.bytes(random.int(1...300)) : invalidUTF8Message(random: &random)
            return (
                "text of \(payload.count) random bytes",
                [WebSocketFrame(opcode: WebSocketFrame.Opcode.text, payload: payload)]
            )
        default:
            let frames = (0..<random.int(1...8)).map { _ in randomFrame(random: &random, context: context) }
            return (
                "soup of \(frames.count) frames: \(frames.map { String($0.opcode) }.joined(separator: ","))", frames
            )
        }
    }

    static func lengthBoundary(random: inout FuzzRandom) -> (String, [WebSocketFrame]) {
        let length = random.pick(boundaryLengths)
        let opcode = random.pick([0x1, 0x1, 0x2, 0x9, 0xA, 0x8, 0x0] as [UInt8])
        let matching = length <= largestSentPayload && random.chance(0.7)
        let sent = matching ? Int(length) : random.int(0...Int(min(length, 1024)))
        var payload = [UInt8](repeating: UInt8(ascii: " "), count: sent)
        if opcode == 0x1, sent >= 2 {
            payload[0] = UInt8(ascii: "{")
            payload[sent - 1] = UInt8(ascii: "}")
        }
        let encoding = random.pick([.minimal, .minimal, .bits64, .bits16] as [WebSocketFrame.LengthEncoding])
        let frame = WebSocketFrame(opcode: opcode, payload: payload, declaredLength: length, lengthEncoding: encoding)
        return ("opcode \(opcode) declaring \(length) bytes (\(encoding)), sending \(sent)", [frame])
    }

    static func fragments(random: inout FuzzRandom, context: FrameContext) -> (String, [WebSocketFrame]) {
        let message = Array(validMessage(random: &random, context: context).utf8)
        var frames: [WebSocketFrame] = []
        var parts: [String] = []
        let startWithContinuation = random.chance(0.15)
        let pieces = random.int(2...6)
        let cuts = ([0, message.count] + (1..<pieces).map { _ in random.int(0...message.count) }).sorted()
        for piece in 0..<pieces {
            let bytes = Array(message[cuts[piece]..<cuts[piece + 1]])
            let opcode =
                piece == 0 && !startWithContinuation ? WebSocketFrame.Opcode.text : WebSocketFrame.Opcode.continuation
            frames.append(WebSocketFrame(opcode: opcode, payload: bytes, fin: piece == pieces - 1))
            parts.append(opcode == 0 ? "cont(\(bytes.count))" : "text(\(bytes.count))")
            if random.chance(0.25) {
                let control = random.pick(
                    [WebSocketFrame.Opcode.ping, WebSocketFrame.Opcode.pong, 0x1, 0x2] as [UInt8])
                frames.append(WebSocketFrame(opcode: control, payload: random.bytes(random.int(0...20))))
                parts.append("op\(control)")
            }
        }
        if random.chance(0.3) {
            // A continuation at a length boundary, after a started message: the overflow pattern.
            let length = random.pick(boundaryLengths)
            let sent = random.int(0...Int(min(length, 256)))
            frames[frames.count - 1].fin = false
            frames.append(
                WebSocketFrame(
                    opcode: 0, payload: random.bytes(sent), fin: random.chance(0.5), declaredLength: length,
                    lengthEncoding: .bits64))
            parts.append("cont declaring \(length), sending \(sent)")
        }
        return ("fragments: " + parts.joined(separator: " "), frames)
    }

    static func pings(random: inout FuzzRandom) -> (String, [WebSocketFrame]) {
        let count = random.int(1...20)
        let size = random.pick([0, 1, 125, 126, 200])
        let fin = random.chance(0.9)
        let frames = (0..<count).map { _ in
            WebSocketFrame(opcode: WebSocketFrame.Opcode.ping, payload: random.bytes(size), fin: fin)
        }
        return ("\(count) pings of \(size) bytes\(fin ? "" : ", FIN=0")", frames)
    }

    static func closeFrame(random: inout FuzzRandom) -> (String, [WebSocketFrame]) {
        let code = random.pick([0, 999, 1000, 1001, 1004, 1005, 1006, 1007, 1015, 1016, 2999, 3000, 4999, 5000, 65535])
        var payload: [UInt8] = [UInt8(code >> 8), UInt8(code & 0xFF)]
        let shape = random.int(0...4)
        switch shape {
        case 0: payload = []
        case 1: payload = [UInt8(code >> 8)]
        case 2: payload += [0xFF, 0xFE, 0xC0, 0xAF]
        case 3: payload += [UInt8](repeating: UInt8(ascii: "r"), count: random.pick([1, 123, 124]))
        default: break
        }
        let label = ["empty", "one byte", "invalid UTF-8 reason", "long reason", "plain"][shape]
        return (
            "close \(code), \(label) (\(payload.count) bytes)",
            [WebSocketFrame(opcode: WebSocketFrame.Opcode.close, payload: payload)]
        )
    }

    static func randomFrame(random: inout FuzzRandom, context: FrameContext) -> WebSocketFrame {
        let opcode = UInt8(random.int(0...15))
        let payload =
            random.chance(0.5)
            ? Array(validMessage(random: &random, context: context).utf8) : random.bytes(random.int(0...130))
        return WebSocketFrame(opcode: opcode, payload: payload, fin: random.chance(0.8))
    }

    static func validMessage(random: inout FuzzRandom, context: FrameContext) -> String {
        random.pick([
            #"{"type":"hello","token":"\#(context.token)","client":"fuzz/1"}"#,
            #"{"type":"subscribe","plan":"\#(context.plan)","ref":"f"}"#,
            #"{"type":"query","plan":"\#(context.plan)","query":{"start":"2026-09-01T00:00","end":"2026-10-01T00:00","resourceIDs":[]},"ref":"q"}"#,
            #"{"type":"unsubscribe","plan":"\#(context.plan)"}"#,
        ])
    }

    static func invalidUTF8Message(random: inout FuzzRandom) -> [UInt8] {
        let bad = random.pick(
            [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80]] as [[UInt8]])
        return Array(#"{"type":"subscribe","plan":""#.utf8) + bad + Array(#""}"#.utf8)
    }
}
