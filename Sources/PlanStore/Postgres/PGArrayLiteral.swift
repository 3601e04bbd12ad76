/// Writes PostgreSQL array literals (`{"a","b",NULL}`) for passing many values as one text
/// parameter, to be expanded with `unnest($n::type[])`: for the short values of other types
/// (versions, flags, times). Arrays of text and JSON travel in binary (`PGValue.array`).
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
            var utf8 = value
            utf8.withUTF8 { appendEscaped($0, to: &literal) }
            literal.append(UInt8(ascii: "\""))
        }
        literal.append(UInt8(ascii: "}"))
        return String(decoding: literal, as: UTF8.self)
    }

    /// Appends `bytes` with a backslash before each quote and backslash, copying the runs between
    /// them whole (a quote or backslash is never part of a multi-byte UTF-8 sequence).
    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to literal: inout [UInt8]) {
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "\\") {
            literal.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            literal.append(UInt8(ascii: "\\"))
            start = index
        }
        literal.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    /// The literal of non-optional `values`.
    static func make(_ values: [String]) -> String {
        make(values.map { Optional($0) })
    }
}
