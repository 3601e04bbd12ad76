/// A block of addresses in CIDR notation: `10.0.0.0/8`, `::1/128`, or one address alone (`/32`
/// for IPv4, `/128` for IPv6). An IPv4 block covers those addresses however they come (plain or
/// IPv4-mapped); `0.0.0.0/0` is every IPv4 address, `::/0` every address.
public struct AddressRange: Hashable, Sendable, CustomStringConvertible {
    /// The first address of the block.
    public let base: IPAddress
    /// The bits that are fixed, counted over the 128 bits (an IPv4 `/8` is 104 of them).
    public let prefixBits: Int

    /// Parses `text`.
    /// - Throws: `AddressRangeError` saying what is wrong: not an address, a prefix out of range,
    ///   or bits set beyond the prefix (`10.0.0.1/8`, which is ambiguous).
    public init(parsing text: some StringProtocol) throws(AddressRangeError) {
        let text = String(text)
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else {
            throw AddressRangeError("\"\(text)\" is not an IP address or a CIDR block (such as 10.0.0.0/8 or ::1/128)")
        }
        let isIPv4 = !parts[0].contains(":")
        let width = isIPv4 ? 32 : 128
        var prefix = width
        if parts.count == 2 {
            guard (1...3).contains(parts[1].count), parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(parts[1]), value <= width
            else {
                throw AddressRangeError("\"\(text)\": the prefix length must be a number from 0 to \(width)")
            }
            prefix = value
        }
        base = address
        prefixBits = prefix + (128 - width)
        guard AddressRange.masked(address, bits: prefixBits) == address else {
            let masked = AddressRange.masked(address, bits: prefixBits)
            throw AddressRangeError(
                "\"\(text)\" has address bits set beyond its /\(prefix) prefix (did you mean \(masked)/\(prefix)?)")
        }
    }

    /// Whether `address` lies in the block.
    public func contains(_ address: IPAddress) -> Bool {
        AddressRange.masked(address, bits: prefixBits) == base
    }

    /// The block as CIDR text (IPv4 blocks with their IPv4 prefix).
    public var description: String {
        base.isIPv4 && prefixBits >= 96 ? "\(base)/\(prefixBits - 96)" : "\(base)/\(prefixBits)"
    }

    /// `address` with every bit after the first `bits` cleared.
    static func masked(_ address: IPAddress, bits: Int) -> IPAddress {
        func mask(_ bits: Int) -> UInt64 {
            bits <= 0 ? 0 : bits >= 64 ? .max : ~(UInt64.max >> UInt64(bits))
        }
        return IPAddress(high: address.high & mask(bits), low: address.low & mask(bits - 64))
    }
}

/// Why an address block (or a list of them) could not be read.
public struct AddressRangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the text.
    public let message: String
    /// The message.
    public var description: String { message }

    init(_ message: String) {
        self.message = message
    }
}

/// The proxies whose word on a connection's client is taken (`--trusted-proxy`): from a peer in
/// one of these blocks, a PROXY protocol header or `X-Forwarded-For` names the client; from any
/// other peer both are ignored (anyone can write them). Empty: no peer is trusted.
public struct TrustedProxies: Sendable, Equatable {
    /// The blocks, in the order given.
    public let ranges: [AddressRange]

    /// No trusted proxy.
    public init() {
        ranges = []
    }

    /// Parses a comma-separated list of blocks, such as `127.0.0.1/32,10.0.0.0/8,::1/128`
    /// (spaces around an entry are allowed).
    /// - Throws: `AddressRangeError` naming the first entry that is not a block, or an empty entry.
    public init(parsing list: some StringProtocol) throws(AddressRangeError) {
        var ranges: [AddressRange] = []
        for entry in list.split(separator: ",", omittingEmptySubsequences: false) {
            let entry = entry.trimmingSpaces
            guard !entry.isEmpty else {
                throw AddressRangeError("\"\(list)\" has an empty entry (CIDR blocks are separated by single commas)")
            }
            ranges.append(try AddressRange(parsing: entry))
        }
        self.ranges = ranges
    }

    /// Whether no peer is trusted.
    public var isEmpty: Bool { ranges.isEmpty }

    /// Whether `address` is a trusted proxy's.
    public func contains(_ address: IPAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The address of a peer given as text (as the socket reports it), when it is a trusted proxy.
    public func trusted(_ peer: String) -> IPAddress? {
        guard !ranges.isEmpty, let address = IPAddress(peer), contains(address) else { return nil }
        return address
    }

    /// The client of a request that came from `peer` with these `X-Forwarded-For` elements (every
    /// such field's comma-separated entries, in order): the right-most entry that is not itself a
    /// trusted proxy. Each proxy appends the address it was connected from, so the entries right
    /// of the client's were written by proxies we trust, and those left of it by anyone. When
    /// `peer` is not trusted, it is the client and the header is ignored; an entry that is not an
    /// address stops the walk at the trusted proxy that passed it on; when every entry is trusted
    /// (or there is none), the left-most trusted one is the client.
    public func client(of peer: IPAddress, forwardedFor elements: [String]) -> IPAddress {
        var client = peer
        for element in elements.reversed() {
            guard contains(client), let address = TrustedProxies.forwardedAddress(element) else { break }
            client = address
        }
        return client
    }

    /// The address of one `X-Forwarded-For` entry: `192.0.2.1`, `2001:db8::1`, and with a port or
    /// in brackets as some proxies write them (`192.0.2.1:4711`, `[2001:db8::1]:4711`).
    static func forwardedAddress(_ element: String) -> IPAddress? {
        var text = Substring(element)
        if text.first == "[" {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let after = text[text.index(after: close)...]
            guard after.isEmpty || isPort(after.dropFirst()) && after.first == ":" else { return nil }
            text = text[text.index(after: text.startIndex)..<close]
            return text.contains(":") ? IPAddress.parseIPv6(text) : nil
        }
        if let colon = text.firstIndex(of: ":"), text.contains("."), !text[text.index(after: colon)...].contains(":") {
            // IPv4 with a port.
            guard isPort(text[text.index(after: colon)...]) else { return nil }
            text = text[..<colon]
        }
        return IPAddress(text)
    }

    private static func isPort(_ text: Substring) -> Bool {
        (1...5).contains(text.count) && text.allSatisfy { $0.isASCII && $0.isNumber } && Int(text)! <= 65535
    }
}
