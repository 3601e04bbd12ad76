/// The JavaScript half of `WebAssetCompactor`: a tokenizer that knows just enough of the language
/// to tell code from the contents of strings, template literals and regular expression literals,
/// and comments from both.
///
/// A `/` that is neither `//` nor `/*` starts a regular expression where an expression may start
/// and is division after a value: the previous token decides (a name, number, literal, `)` of a
/// call or `]` is a value; a punctuator, `(`, `${`, a keyword such as `return` or `typeof`, or `)`
/// closing the condition of `if`, `while`, `for` or `with` is not). After `}` or `++`/`--` the
/// previous token does not decide; such a `/` is taken as division only when no other `/` follows
/// on its line (a regular expression needs a closing one there), else the file is left unchanged.
struct JavaScriptCompactor {
    /// What the previous token lets a `/` be.
    enum Previous {
        case operand  // an expression may start: a `/` opens a regular expression
        case value  // a `/` is division
        case either  // `}`, `++`, `--`: the token alone does not tell
    }

    /// Why a bracket was opened.
    enum Bracket: Equatable {
        case brace, substitution, bracket
        case paren(condition: Bool)
    }

    /// Keywords after which an expression starts (so a `/` opens a regular expression).
    static let operandKeywords: Set<String> = [
        "return", "typeof", "instanceof", "in", "new", "delete", "void", "throw", "case", "do", "else",
        "yield", "await", "extends",
    ]
    /// Keywords whose parenthesised condition is followed by a statement, not a value.
    static let conditionKeywords: Set<String> = ["if", "while", "for", "with"]

    private let body: [UInt8]
    private var index = 0
    private var out = LineWriter()
    private var previous = Previous.operand
    private var brackets: [Bracket] = []
    /// The previous token's word (for `if (…)`), nil for anything else.
    private var word: String?
    /// Whether the previous token was `.` or `?.` (a keyword after it is a property name).
    private var afterDot = false

    init(_ body: [UInt8]) { self.body = body }

    /// The compacted text, or nil when the file cannot be classified safely.
    mutating func run() -> [UInt8]? {
        while index < body.count {
            guard step() else { return nil }
        }
        return brackets.isEmpty ? out.finish(lineBreakAtEnd: body.last == .newline) : nil
    }

    /// Reads one token (or comment, or space); false when the file cannot be compacted.
    private mutating func step() -> Bool {
        let byte = body[index]
        let next = index + 1 < body.count ? body[index + 1] : 0
        switch byte {
        case .newline, .space, .tab:
            out.add(byte)
            index += 1
            return true
        case .slash where next == .slash:
            while index < body.count, body[index] != .newline { index += 1 }
            return true
        case .slash where next == .star:
            guard let end = WebAssetCompactor.blockCommentEnd(body, from: index) else { return false }
            if body[index..<end].contains(.newline) { out.endLine() } else { out.add(.space) }
            index = end
            return true
        case .slash:
            return slash()
        case .quote, .apostrophe:
            guard let end = WebAssetCompactor.stringEnd(body, from: index) else { return false }
            token(body[index..<end], .value)
            return true
        case .backtick:
            index += 1
            return template(from: index - 1)
        default:
            return punctuatorOrWord(byte, next: next)
        }
    }

    /// A `/` that opens no comment: a regular expression or division.
    private mutating func slash() -> Bool {
        var isRegularExpression = previous == .operand
        if previous == .either {
            let lineEnd = body[(index + 1)...].firstIndex(of: .newline) ?? body.count
            guard !body[(index + 1)..<lineEnd].contains(.slash) else { return false }
            isRegularExpression = false
        }
        guard isRegularExpression else {
            token(body[index...index], .operand)
            return true
        }
        var end = index + 1
        var inClass = false
        while end < body.count {
            let byte = body[end]
            end += 1
            switch byte {
            case .newline: return false
            case .backslash:
                guard end < body.count, body[end] != .newline else { return false }
                end += 1
            case UInt8(ascii: "["): inClass = true
            case UInt8(ascii: "]"): inClass = false
            case .slash where !inClass:
                token(body[index..<end], .value)  // the flags follow as a word
                return true
            default: break
            }
        }
        return false
    }

    /// A template literal from its backtick at `start` (or its part after a substitution's `}`),
    /// up to its closing backtick or the next `${`.
    private mutating func template(from start: Int) -> Bool {
        while index < body.count {
            let byte = body[index]
            if byte == .newline { return false }
            if byte == .backslash {
                guard index + 1 < body.count, body[index + 1] != .newline else { return false }
                index += 2
                continue
            }
            if byte == .backtick {
                index += 1
                out.append(body[start..<index])
                setPrevious(.value)
                return true
            }
            if byte == UInt8(ascii: "$"), index + 1 < body.count, body[index + 1] == UInt8(ascii: "{") {
                index += 2
                out.append(body[start..<index])
                brackets.append(.substitution)
                setPrevious(.operand)
                return true
            }
            index += 1
        }
        return false
    }

    /// Brackets, words, numbers and the other punctuators.
    private mutating func punctuatorOrWord(_ byte: UInt8, next: UInt8) -> Bool {
        let start = index
        switch byte {
        case UInt8(ascii: "{"):
            brackets.append(.brace)
        case UInt8(ascii: "("):
            let isCondition = !afterDot && word.map { Self.conditionKeywords.contains($0) } == true
            brackets.append(.paren(condition: isCondition))
        case UInt8(ascii: "["):
            brackets.append(.bracket)
        case UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "]"):
            return close(byte)
        case .backslash:
            return false  // a Unicode escape in a name: not worth classifying
        default:
            if WebAssetCompactor.isWordByte(byte) { return name() }
            if byte < 0x20 { return false }  // a form feed or another control character
            if (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && next == byte {
                index += 2
                token(body[start..<index], .either)
                return true
            }
        }
        index += 1
        token(body[start..<index], .operand)
        afterDot = byte == UInt8(ascii: ".")
        return true
    }

    /// A closing bracket; `}` of a substitution goes back into its template literal.
    private mutating func close(_ byte: UInt8) -> Bool {
        guard let open = brackets.popLast() else { return false }
        let start = index
        index += 1
        switch (byte, open) {
        case (UInt8(ascii: "}"), .substitution): return template(from: start)
        case (UInt8(ascii: "}"), .brace): token(body[start..<index], .either)
        case (UInt8(ascii: "]"), .bracket): token(body[start..<index], .value)
        case (UInt8(ascii: ")"), .paren(let condition)): token(body[start..<index], condition ? .operand : .value)
        default: return false
        }
        return true
    }

    /// A name, keyword or number.
    private mutating func name() -> Bool {
        let start = index
        while index < body.count, WebAssetCompactor.isWordByte(body[index]) { index += 1 }
        let text = String(decoding: body[start..<index], as: UTF8.self)
        let isOperator = !afterDot && Self.operandKeywords.contains(text)
        out.append(body[start..<index])
        setPrevious(isOperator ? .operand : .value)
        word = text
        return true
    }

    private mutating func token(_ bytes: ArraySlice<UInt8>, _ kind: Previous) {
        out.append(bytes)
        index = max(index, bytes.endIndex)
        setPrevious(kind)
    }

    private mutating func setPrevious(_ kind: Previous) {
        previous = kind
        word = nil
        afterDot = false
    }
}
