import Glibc

/// The byte patterns viewers scan for.
enum Needles {
    // The server writes `type` first; starting at `{` (rarer than `"`) keeps memchr's hits few.
    static let type = Array("{\"type\":\"".utf8)
    static let confirmed = Array("{\"type\":\"confirmed\"".utf8)
    static let snapshot = Array("{\"type\":\"snapshot\"".utf8)
    static let resumed = Array("{\"type\":\"resumed\"".utf8)
    static let version = Array("\"version\":".utf8)
    static let mutation = Array("\"mutation\":{\"id\":\"".utf8)
    static let sent = Array("sent=".utf8)
}

/// `,` `{` `}` `]` and white space: what separates batched messages.
@inline(__always) func isTrailing(_ byte: UInt8) -> Bool {
    switch byte {
    case 44, 123, 125, 93, 32, 10, 13, 9: true
    default: false
    }
}

/// Folds bytes into a running hash, eight at a time (a multiply-xorshift per word).
func streamHash(_ seed: UInt64, _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64 {
    guard let base = buffer.baseAddress else { return seed }
    var hash = seed ^ UInt64(range.count)
    var index = range.lowerBound
    while index + 8 <= range.upperBound {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
        hash ^= hash >> 29
        index += 8
    }
    while index < range.upperBound {
        hash = (hash ^ UInt64(base[index])) &* 0x100_0000_01b3
        index += 1
    }
    return hash
}

/// FNV-1a's starting value: the editors' FNV-1a split of the ids starts there, and so does every
/// viewer's stream hash (`streamHash`, a word-wise mix of its own that only shares the seed).
let fnvOffsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

func find(_ needle: [UInt8], in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard let base = buffer.baseAddress, start + needle.count <= buffer.count else { return nil }
    // glibc's memchr is vectorized: the byte scan is most of a viewer's work per frame.
    let first = Int32(needle[0])
    var index = start
    while index + needle.count <= buffer.count {
        guard let hit = memchr(base + index, first, buffer.count - needle.count + 1 - index) else { return nil }
        index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        if starts(buffer, at: index, with: needle) { return index }
        index += 1
    }
    return nil
}

func starts(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int, with prefix: [UInt8]) -> Bool {
    guard index + prefix.count <= buffer.count else { return false }
    for offset in 0..<prefix.count where buffer[index + offset] != prefix[offset] { return false }
    return true
}

/// The integer right after the first `key` at or after `start`.
func number(after key: [UInt8], in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard let found = find(key, in: buffer, from: start) else { return nil }
    var index = found + key.count
    var value = 0
    var digits = 0
    while index < buffer.count, buffer[index] >= 48, buffer[index] <= 57 {
        value = value * 10 + Int(buffer[index] - 48)
        digits += 1
        index += 1
    }
    return digits > 0 ? value : nil
}
