/// One RFC 6455 frame as the fuzzer writes it: every header field is free, including a
/// declared payload length that differs from the payload actually sent.
public struct WebSocketFrame: Sendable, Hashable {
    /// How the payload length is written in the header.
    public enum LengthEncoding: Sendable, Hashable {
        /// The shortest form (7 bits, then 16, then 64), as RFC 6455 requires.
        case minimal
        /// Always the 16-bit extended form (126), truncating larger lengths.
        case bits16
        /// Always the 64-bit extended form (127), even for small lengths.
        case bits64
    }

    /// Opcodes of RFC 6455 §5.2.
    public enum Opcode {
        /// A continuation frame.
        public static let continuation: UInt8 = 0x0
        /// A text frame.
        public static let text: UInt8 = 0x1
        /// A binary frame.
        public static let binary: UInt8 = 0x2
        /// A close frame.
        public static let close: UInt8 = 0x8
        /// A ping.
        public static let ping: UInt8 = 0x9
        /// A pong.
        public static let pong: UInt8 = 0xA
    }

    /// The FIN bit.
    public var fin: Bool
    /// RSV1…RSV3 as the low three bits.
    public var reserved: UInt8
    /// The opcode (4 bits).
    public var opcode: UInt8
    /// The payload bytes sent after the header (unmasked here; masked on the wire when `mask` is set).
    public var payload: [UInt8]
    /// The masking key, or nil for an unmasked frame.
    public var mask: [UInt8]?
    /// The length written in the header; nil writes `payload.count`.
    public var declaredLength: UInt64?
    /// How the length is written.
    public var lengthEncoding: LengthEncoding

    /// A frame; by default final, masked with a fixed key, with its true length.
    public init(
        opcode: UInt8, payload: [UInt8] = [], fin: Bool = true, reserved: UInt8 = 0,
        mask: [UInt8]? = [0x37, 0xFA, 0x21, 0x3D], declaredLength: UInt64? = nil,
        lengthEncoding: LengthEncoding = .minimal
    ) {
        self.opcode = opcode
        self.payload = payload
        self.fin = fin
        self.reserved = reserved
        self.mask = mask
        self.declaredLength = declaredLength
        self.lengthEncoding = lengthEncoding
    }

    /// A final, masked text frame.
    public static func text(_ text: String) -> WebSocketFrame {
        WebSocketFrame(opcode: Opcode.text, payload: Array(text.utf8))
    }

    /// The bytes on the wire.
    public var bytes: [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | (reserved & 0x07) << 4 | (opcode & 0x0F)]
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        let length = declaredLength ?? UInt64(payload.count)
        let encoding: LengthEncoding =
            lengthEncoding == .minimal
            ? (length < 126 ? .minimal : length <= 0xFFFF ? .bits16 : .bits64) : lengthEncoding
        switch encoding {
        case .minimal:
            bytes.append(maskBit | UInt8(length))
        case .bits16:
            bytes += [maskBit | 126, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
        case .bits64:
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: length >> shift))
            }
        }
        guard let mask, mask.count == 4 else { return bytes + payload }
        bytes += mask
        let header = bytes.count
        bytes += payload
        let key = (mask[0], mask[1], mask[2], mask[3])
        bytes.withUnsafeMutableBufferPointer { buffer in
            var index = header
            while index < buffer.count {
                let offset = (index - header) & 3
                buffer[index] ^= offset == 0 ? key.0 : offset == 1 ? key.1 : offset == 2 ? key.2 : key.3
                index += 1
            }
        }
        return bytes
    }
}
