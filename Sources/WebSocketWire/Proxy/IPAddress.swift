/// An IPv4 or IPv6 address as 128 bits; an IPv4 address is held as its IPv4-mapped IPv6 form
/// (`::ffff:a.b.c.d`), so that `10.0.0.2` and `::ffff:10.0.0.2` are one address (a dual-stack
/// socket reports IPv4 peers that way). Parsed strictly: dotted quads of decimal numbers 0–255
/// without leading zeros (`010.0.0.1` could be read as octal), IPv6 in RFC 4291 text form (at
/// most one `::`, an embedded IPv4 tail), no zone (`%eth0`), no brackets, no port.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// The first and last 64 bits, most significant first.
    public let high: UInt64
    /// The last 64 bits.
    public let low: UInt64

    /// The address of these 128 bits.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The IPv4 address of these 32 bits (as IPv4-mapped IPv6).
    public init(ipv4 bits: UInt32) {
        self.init(high: 0, low: 0xffff_0000_0000 | UInt64(bits))
    }

    /// The address of 4 (IPv4) or 16 (IPv6) bytes in network order; nil for any other count.
    public init?(bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        switch bytes.count {
        case 4:
            self.init(ipv4: bytes.reduce(0) { $0 << 8 | UInt32($1) })
        case 16:
            self.init(
                high: bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) },
                low: bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) })
        default:
            return nil
        }
    }

    /// Parses an IPv4 or IPv6 address in text form; nil when it is not one.
    public init?(_ text: some StringProtocol) {
        let text = Substring(text)
        if text.contains(":") {
            guard let address = IPAddress.parseIPv6(text) else { return nil }
            self = address
        } else {
            guard let bits = IPAddress.parseIPv4(text) else { return nil }
            self.init(ipv4: bits)
        }
    }

    /// Whether it is an IPv4 address (or IPv4-mapped IPv6, the same thing here).
    public var isIPv4: Bool { high == 0 && low >> 32 == 0xffff }

    /// The address as text: IPv4 dotted (IPv4-mapped addresses too), IPv6 as RFC 5952 says
    /// (lowercase, no leading zeros, the longest run of two or more zero groups as `::`).
    public var description: String {
        if isIPv4 {
            let bits = UInt32(truncatingIfNeeded: low)
            return [24, 16, 8, 0].map { String((bits >> UInt32($0)) & 0xff) }.joined(separator: ".")
        }
        let groups = (0..<8).map { index -> UInt16 in
            let word = index < 4 ? high : low
            return UInt16(truncatingIfNeeded: word >> UInt64(48 - 16 * (index % 4)))
        }
        // The longest run of zero groups (the first of equal ones), compressed when at least 2 long.
        var best = (start: -1, length: 0)
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            let start = index
            while index < 8, groups[index] == 0 { index += 1 }
            if index - start > best.length { best = (start, index - start) }
        }
        let hex = groups.map { String($0, radix: 16) }
        guard best.length >= 2 else { return hex.joined(separator: ":") }
        let head = hex[..<best.start].joined(separator: ":")
        let tail = hex[(best.start + best.length)...].joined(separator: ":")
        return head + "::" + tail
    }

    /// The 32 bits of a dotted quad, strictly: four decimal numbers 0–255 without leading zeros.
    static func parseIPv4(_ text: Substring) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bits: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCIIDigit),
                part.count == 1 || part.first != "0", let value = UInt32(part), value <= 255
            else { return nil }
            bits = bits << 8 | value
        }
        return bits
    }

    /// An IPv6 address: groups of 1–4 hex digits, at most one `::`, optionally a dotted quad as
    /// the last 32 bits.
    static func parseIPv6(_ text: Substring) -> IPAddress? {
        guard text.count <= 45 else { return nil }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        guard var front = groups(halves[0], lastMayBeIPv4: halves.count == 1) else { return nil }
        var back: [UInt16] = []
        if halves.count == 2 {
            guard let groups = groups(halves[1], lastMayBeIPv4: true) else { return nil }
            back = groups
            // `::` stands for at least one group of zeros.
            guard front.count + back.count <= 7 else { return nil }
            front += [UInt16](repeating: 0, count: 8 - front.count - back.count)
        }
        let all = front + back
        guard all.count == 8 else { return nil }
        let high = all[0..<4].reduce(UInt64(0)) { $0 << 16 | UInt64($1) }
        let low = all[4..<8].reduce(UInt64(0)) { $0 << 16 | UInt64($1) }
        return IPAddress(high: high, low: low)
    }

    /// The groups of one side of `::` (empty text: none); a dotted quad at the end counts as two.
    private static func groups(_ text: Substring, lastMayBeIPv4: Bool) -> [UInt16]? {
        guard !text.isEmpty else { return [] }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        var groups: [UInt16] = []
        for (index, part) in parts.enumerated() {
            if index == parts.count - 1, lastMayBeIPv4, part.contains(".") {
                guard let bits = parseIPv4(part) else { return nil }
                groups += [UInt16(bits >> 16), UInt16(truncatingIfNeeded: bits)]
            } else {
                guard (1...4).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isHexDigit }),
                    let value = UInt16(part, radix: 16)
                else { return nil }
                groups.append(value)
            }
        }
        return groups
    }
}

extension Substring {
    /// The parts between each `separator` (a string of several characters), empty ones kept.
    fileprivate func components(separatedBy separator: String) -> [Substring] {
        var parts: [Substring] = []
        var rest = self[...]
        while let range = rest.firstRange(of: separator) {
            parts.append(rest[..<range.lowerBound])
            rest = rest[range.upperBound...]
        }
        parts.append(rest)
        return parts
    }
}

extension Character {
    /// 0–9 only (not other scripts' digits).
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
