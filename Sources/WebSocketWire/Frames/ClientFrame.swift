/// Client frames (RFC 6455 §5.3): masked, the length in its shortest form. What a client writes,
/// and what `FrameDecoder` reads on the server.
public enum ClientFrame {
    /// A frame of any opcode (a raw value, so that binary frames and unknown opcodes can be sent
    /// too); `final` false for a fragment that more fragments follow.
    public static func make(
        opcode: UInt8, _ payload: some Collection<UInt8>, final: Bool = true,
        mask: (UInt8, UInt8, UInt8, UInt8) = (0x5A, 0x17, 0xC3, 0x2E)
    ) -> [UInt8] {
        var bytes = FrameHeader.make(first: (final ? 0x80 : 0) | (opcode & 0x0F), length: payload.count, maskBit: 0x80)
        bytes.reserveCapacity(bytes.count + 4 + payload.count)
        bytes += [mask.0, mask.1, mask.2, mask.3]
        for (index, byte) in payload.enumerated() {
            bytes.append(byte ^ maskByte(mask, at: index))
        }
        return bytes
    }

    /// The byte of a 4-byte masking key that masks (or unmasks) the payload byte at `index`.
    @inline(__always)
    static func maskByte(_ mask: (UInt8, UInt8, UInt8, UInt8), at index: Int) -> UInt8 {
        switch index & 3 {
        case 0: mask.0
        case 1: mask.1
        case 2: mask.2
        default: mask.3
        }
    }
}
