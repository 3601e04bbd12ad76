/// Checks UTF-8 (RFC 3629: shortest forms only, no surrogates, nothing above U+10FFFF) one chunk
/// at a time, so that a text message is refused as soon as a fragment breaks the rules, not when
/// its last fragment arrives (RFC 6455 §8.1: fail fast). A sequence may be split across chunks.
public struct UTF8Validation: Sendable, Equatable {
    /// Continuation bytes the current sequence still needs.
    private var remaining: UInt8 = 0
    /// The range the next continuation byte must lie in (narrower than 0x80…0xBF right after some
    /// lead bytes: that is where overlong forms, surrogates and values past U+10FFFF are refused).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// A validation at the start of a text.
    public init() {}

    /// Whether the text so far ends at a character boundary (a complete text must).
    public var isAtBoundary: Bool { remaining == 0 }

    /// Reads `bytes`; false as soon as they cannot continue valid UTF-8 (the state is then
    /// meaningless).
    public mutating func consume(_ bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes {
            if remaining == 0 {
                if byte < 0x80 { continue }
                guard start(byte) else { return false }
            } else {
                guard byte >= lower, byte <= upper else { return false }
                remaining -= 1
                lower = 0x80
                upper = 0xBF
            }
        }
        return true
    }

    /// Whether `bytes` are valid UTF-8 as a whole.
    public static func isValid(_ bytes: some Sequence<UInt8>) -> Bool {
        var validation = UTF8Validation()
        return validation.consume(bytes) && validation.isAtBoundary
    }

    /// Starts a multi-byte sequence at lead byte `byte`; false for a byte that cannot lead one.
    private mutating func start(_ byte: UInt8) -> Bool {
        switch byte {
        case 0xC2...0xDF: remaining = 1
        case 0xE0:
            remaining = 2
            lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: remaining = 2
        case 0xED:
            remaining = 2
            upper = 0x9F
        case 0xF0:
            remaining = 3
            lower = 0x90
        case 0xF1...0xF3: remaining = 3
        case 0xF4:
            remaining = 3
            upper = 0x8F
        default: return false
        }
        return true
    }
}
