/// Writes PostgreSQL array literals (`{"a","b",NULL}`) for passing many values as one text
/// parameter, to be expanded with `unnest($n::type[])`.
enum PGArrayLiteral {
    /// The literal of `values`, every element quoted and escaped; nil becomes NULL.
    static func make(_ values: [String?]) -> String {
        var literal = "{"
        literal.reserveCapacity(values.count * 16)
        for (index, value) in values.enumerated() {
            if index > 0 { literal.append(",") }
            guard let value else {
                literal.append("NULL")
                continue
            }
            literal.append("\"")
            for character in value.unicodeScalars {
                if character == "\"" || character == "\\" { literal.unicodeScalars.append("\\") }
                literal.unicodeScalars.append(character)
            }
            literal.append("\"")
        }
        literal.append("}")
        return literal
    }

    /// The literal of non-optional `values`.
    static func make(_ values: [String]) -> String {
        make(values.map { Optional($0) })
    }
}
