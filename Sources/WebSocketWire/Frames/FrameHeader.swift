/// Server frame headers (RFC 6455 §5.2): FIN set, no mask, the length in its shortest form.
public enum FrameHeader {
    /// Opcodes the server sends.
    public enum Opcode: UInt8, Sendable {
        case continuation = 0
        case text = 1
        case close = 8
        case ping = 9
        case pong = 10
    }

    /// The longest header (a 64-bit length).
    public static let maxSize = 10

    /// The header of a whole frame of `length` payload bytes, written to the `maxSize` bytes
    /// before `end` (`end - size ..< end`); returns its size.
    public static func write(opcode: Opcode, length: Int, before end: UnsafeMutablePointer<UInt8>) -> Int {
        let bytes = make(opcode: opcode, length: length)
        (end - bytes.count).update(from: bytes, count: bytes.count)
        return bytes.count
    }

    /// The header bytes of a frame of `length` payload bytes; `final` false for a fragment that
    /// more fragments follow.
    public static func make(opcode: Opcode, length: Int, final: Bool = true) -> [UInt8] {
        make(first: (final ? 0x80 : 0) | opcode.rawValue, length: length, maskBit: 0)
    }

    /// The first byte, then the length in its shortest form with `maskBit` (0 or 0x80) in its first byte.
    static func make(first: UInt8, length: Int, maskBit: UInt8) -> [UInt8] {
        if length < 126 { return [first, maskBit | UInt8(length)] }
        if length <= 0xFFFF { return [first, maskBit | 126, UInt8(length >> 8), UInt8(length & 0xFF)] }
        var bytes: [UInt8] = [first, maskBit | 127]
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: length >> shift)) }
        return bytes
    }
}
