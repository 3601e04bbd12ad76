/// Writes PostgreSQL array literals (`{"a","b",NULL}`) for passing many values as one text
/// parameter, to be expanded with `unnest($n::type[])`.
enum PGArrayLiteral {
    /// The literal of `values`, every element quoted and escaped; nil becomes NULL.
    static func make(_ values: [String?]) -> String {
        var literal: [UInt8] = [UInt8(ascii: "{")]
        literal.reserveCapacity(values.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 })
        for (index, value) in values.enumerated() {
            if index > 0 { literal.append(UInt8(ascii: ",")) }
            guard let value else {
                literal.append(contentsOf: "NULL".utf8)
                continue
            }
            literal.append(UInt8(ascii: "\""))
            // Byte by byte: a quote or backslash is never part of a multi-byte UTF-8 sequence.
            for byte in value.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { literal.append(UInt8(ascii: "\\")) }
                literal.append(byte)
            }
            literal.append(UInt8(ascii: "\""))
        }
        literal.append(UInt8(ascii: "}"))
        return String(decoding: literal, as: UTF8.self)
    }

    /// The literal of non-optional `values`.
    static func make(_ values: [String]) -> String {
        make(values.map { Optional($0) })
    }
}
