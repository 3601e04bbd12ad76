/// Reads the frames a client sends (RFC 6455 §5), one step at a time from the bytes received so
/// far, and puts fragmented messages together. Strict, as a server must be: every client frame
/// must be masked, reserved bits must be clear, control frames must be whole and at most 125
/// bytes, lengths must use their shortest form, and fragments must follow each other. A message
/// larger than `maxMessageBytes` is refused as soon as a frame header announces it, whatever
/// length it claims. Text must be UTF-8: a fragment that breaks it fails at once with 1007, not
/// when the message ends (RFC 6455 §8.1). No length read from the network is ever added to another.
///
/// A client (a test's raw socket) reads a server's frames with `sender: .server`: the same rules,
/// except that those frames must not be masked (§5.1).
public struct FrameDecoder: Sendable {
    /// Which side of the connection wrote the frames read.
    public enum Sender: Sendable {
        /// A client: every frame masked (what a server reads).
        case client
        /// A server: no frame masked (what a client reads).
        case server
    }

    /// What a step found.
    public enum Step: Sendable, Equatable {
        /// Not enough bytes for the next frame: read more.
        case needMore
        /// A frame was read (`consumed` bytes) and gave nothing to hand on yet (a fragment).
        case consumed(Int)
        /// A frame was read (`consumed` bytes) and completed `event`.
        case event(Event, consumed: Int)
        /// The peer broke the protocol: close with `code` (1002, 1007, 1009) and `reason`.
        case fail(code: UInt16, reason: String)
    }

    /// A complete message or control frame.
    public enum Event: Sendable, Equatable {
        case text([UInt8])
        case binary([UInt8])
        case ping([UInt8])
        case pong([UInt8])
        /// A close frame's payload (code and reason; maybe empty), for `CloseFrame.problem`.
        case close([UInt8])
        /// One fragment of a message, when fragments are not joined (`joinsFragments` false):
        /// whether it is the message's first and its last, and whether the message is text.
        case fragment([UInt8], first: Bool, last: Bool, text: Bool)
    }

    /// The largest message accepted (fragments together; each fragment when they are not joined).
    public let maxMessageBytes: Int
    /// Whether fragments are put together into one message (else each is handed on as it comes:
    /// a client that receives a 15 MB snapshot in pieces need not hold it whole).
    public let joinsFragments: Bool
    /// Whether text is checked as UTF-8 (a load generator that checks what it reads by other
    /// means may save the work).
    public let checksUTF8: Bool
    /// Whether frames carry a mask (client frames) or must not (server frames).
    private let masked: Bool
    /// The message being put together from fragments, and its opcode (1 text, 2 binary).
    private var message: [UInt8] = []
    private var messageOpcode: UInt8?
    /// The UTF-8 check of the text message being read.
    private var validation = UTF8Validation()

    /// Creates a decoder for one connection, reading what `sender` writes (a server reads a client's).
    public init(maxMessageBytes: Int, sender: Sender = .client, joinsFragments: Bool = true, checksUTF8: Bool = true) {
        self.maxMessageBytes = maxMessageBytes
        self.masked = sender == .client
        self.joinsFragments = joinsFragments
        self.checksUTF8 = checksUTF8
    }

    /// Reads the next frame from the start of `bytes`.
    public mutating func step(_ bytes: UnsafeRawBufferPointer) -> Step {
        guard bytes.count >= 2 else { return .needMore }
        let first = bytes[0]
        let second = bytes[1]
        let final = first & 0x80 != 0
        let opcode = first & 0x0F
        guard first & 0x70 == 0 else { return .fail(code: 1002, reason: "reserved bits set") }
        guard [0, 1, 2, 8, 9, 10].contains(opcode) else { return .fail(code: 1002, reason: "unknown opcode \(opcode)") }
        guard (second & 0x80 != 0) == masked else {
            return .fail(
                code: 1002, reason: masked ? "client frames must be masked" : "server frames must not be masked")
        }
        let isControl = opcode & 0x08 != 0
        let header: (length: UInt64, size: Int)
        switch readLength(bytes, short: second & 0x7F) {
        case .needMore: return .needMore
        case .fail(let reason): return .fail(code: 1002, reason: reason)
        case .length(let length, let size): header = (length, size)
        }
        if isControl {
            guard final else { return .fail(code: 1002, reason: "a control frame must not be fragmented") }
            guard header.length <= 125 else {
                return .fail(code: 1002, reason: "a control frame holds at most 125 bytes")
            }
        } else {
            if opcode == 0, messageOpcode == nil {
                return .fail(code: 1002, reason: "a continuation without a message")
            }
            if opcode != 0, messageOpcode != nil {
                return .fail(code: 1002, reason: "a new message before the fragmented one ended")
            }
            // message.count never exceeds the limit, so the subtraction cannot go below zero.
            guard header.length <= UInt64(maxMessageBytes - message.count) else {
                return .fail(code: 1009, reason: "message larger than \(maxMessageBytes) bytes")
            }
        }
        let length = Int(header.length)  // at most maxMessageBytes or 125 here
        let start = header.size + (masked ? 4 : 0)
        let total = start + length
        guard bytes.count >= total else { return .needMore }
        var payload: [UInt8]
        if !masked {
            payload = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<total]))
        } else {
            payload = [UInt8](repeating: 0, count: length)
            unmask(bytes, at: header.size, into: &payload)
        }
        switch opcode {
        case 8: return .event(.close(payload), consumed: total)
        case 9: return .event(.ping(payload), consumed: total)
        case 10: return .event(.pong(payload), consumed: total)
        default: return data(opcode: opcode, payload: payload, final: final, consumed: total)
        }
    }

    /// The payload after the 4-byte mask at `maskStart`, unmasked into `payload`.
    private func unmask(_ bytes: UnsafeRawBufferPointer, at maskStart: Int, into payload: inout [UInt8]) {
        let mask = (bytes[maskStart], bytes[maskStart + 1], bytes[maskStart + 2], bytes[maskStart + 3])
        let start = maskStart + 4
        for index in 0..<payload.count {
            payload[index] = bytes[start + index] ^ ClientFrame.maskByte(mask, at: index)
        }
    }

    private mutating func data(opcode: UInt8, payload: [UInt8], final: Bool, consumed: Int) -> Step {
        if opcode != 0 {
            messageOpcode = opcode
            validation = UTF8Validation()
        }
        let isText = messageOpcode == 1
        if isText, checksUTF8, !validation.consume(payload) || (final && !validation.isAtBoundary) {
            return .fail(code: 1007, reason: "a text message that is not UTF-8")
        }
        if message.isEmpty && final && opcode != 0 {
            messageOpcode = nil
            return .event(isText ? .text(payload) : .binary(payload), consumed: consumed)
        }
        if !joinsFragments {
            if final { messageOpcode = nil }
            return .event(.fragment(payload, first: opcode != 0, last: final, text: isText), consumed: consumed)
        }
        message += payload
        guard final else { return .consumed(consumed) }
        let complete = message
        message = []
        messageOpcode = nil
        return .event(isText ? .text(complete) : .binary(complete), consumed: consumed)
    }

    private enum Length {
        case needMore
        case fail(String)
        case length(UInt64, headerSize: Int)
    }

    /// The payload length and the header's size before the mask (2, 4 or 10 bytes).
    private func readLength(_ bytes: UnsafeRawBufferPointer, short: UInt8) -> Length {
        switch short {
        case 126:
            guard bytes.count >= 4 else { return .needMore }
            let length = UInt64(bytes[2]) << 8 | UInt64(bytes[3])
            guard length >= 126 else { return .fail("a length not in its shortest form") }
            return .length(length, headerSize: 4)
        case 127:
            guard bytes.count >= 10 else { return .needMore }
            var length: UInt64 = 0
            for index in 2..<10 { length = length << 8 | UInt64(bytes[index]) }
            guard length >> 63 == 0 else { return .fail("the length's most significant bit is set") }
            guard length > 0xFFFF else { return .fail("a length not in its shortest form") }
            return .length(length, headerSize: 10)
        default:
            return .length(UInt64(short), headerSize: 2)
        }
    }
}
