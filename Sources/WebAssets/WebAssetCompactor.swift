/// What the server sends of the web client's text files: the same code without what only a reader
/// needs — comments, blank lines, leading indentation and trailing spaces. No build step: the files
/// on disk stay as they are written, and `plan-server` compacts its in-memory copies at start.
///
/// Safe by construction rather than clever: a line break that separates code is never removed (so
/// automatic semicolon insertion sees the same lines), nothing inside a string, template literal,
/// regular expression literal or CSS `url(…)` is touched, and a file it cannot classify — a string,
/// template or regular expression running over a line break, an unbalanced bracket, a `/` whose
/// meaning depends on more than the previous token, a carriage return — is served unchanged.
public enum WebAssetCompactor {
    /// The bytes to serve for a file named `name`: `.js`/`.mjs`, `.css` and `.html` compacted,
    /// anything else (and any file it cannot classify) unchanged.
    public static func compacted(name: String, body: [UInt8]) -> [UInt8] {
        let dot = name.lastIndex(of: ".").map { name[name.index(after: $0)...].lowercased() } ?? ""
        let result: [UInt8]?
        switch dot {
        case "js", "mjs": result = javaScript(body)
        case "css": result = css(body)
        case "html": result = html(body)
        default: result = nil
        }
        return result ?? body
    }

    /// JavaScript without comments, blank lines and the spaces at either end of a line, or nil when
    /// it cannot be classified safely.
    public static func javaScript(_ body: [UInt8]) -> [UInt8]? {
        // `<!--` and `-->` open comments in classic scripts (not modules): not worth telling apart.
        guard plainLines(body), !contains(body, Array("<!--".utf8)), !contains(body, Array("-->".utf8)) else {
            return nil
        }
        var scanner = JavaScriptCompactor(body)
        return scanner.run()
    }

    /// CSS without comments, blank lines and the spaces at either end of a line, or nil when it
    /// cannot be classified safely (a string over a line break, a comment between two tokens it
    /// would join, an unterminated comment, string or `url(`).
    public static func css(_ body: [UInt8]) -> [UInt8]? {
        guard plainLines(body) else { return nil }
        var out = LineWriter()
        var index = 0
        while index < body.count {
            let byte = body[index]
            if byte == .slash, index + 1 < body.count, body[index + 1] == .star {
                guard let end = blockCommentEnd(body, from: index) else { return nil }
                if body[index..<end].contains(.newline) {
                    out.endLine()
                } else if !out.endsInSpace, end < body.count, !isSpace(body[end]) {
                    return nil  // `a/**/b` is two tokens; removing the comment would make one
                }
                index = end
            } else if byte == .quote || byte == .apostrophe {
                guard let end = stringEnd(body, from: index) else { return nil }
                out.append(body[index..<end])
                index = end
            } else if isURLStart(body, at: index) {
                guard let close = body[index...].firstIndex(of: .closeParen),
                    !body[index..<close].contains(.newline)
                else { return nil }
                out.append(body[index...close])
                index = close + 1
            } else {
                out.add(byte)
                index += 1
            }
        }
        return out.finish(lineBreakAtEnd: body.last == .newline)
    }

    /// HTML without blank lines and leading indentation (a line break stays, so the whitespace
    /// between elements collapses to the same single space), or nil when the file holds anything
    /// whose whitespace is kept as written: `<pre>`, `<textarea>`, `<listing>`, `<xmp>`,
    /// `<plaintext>`, inline `<style>` or `<script>` text, or a comment. It assumes, as the web
    /// client's CSS does, that no stylesheet preserves whitespace of text written in the HTML.
    public static func html(_ body: [UInt8]) -> [UInt8]? {
        guard plainLines(body) else { return nil }
        let lower = body.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        for tag in ["<pre", "<textarea", "<listing", "<xmp", "<plaintext", "<style", "<!--"]
        where contains(lower, Array(tag.utf8)) {
            return nil
        }
        var from = 0
        while let open = firstIndex(of: Array("<script".utf8), in: lower, from: from) {
            guard let close = lower[open...].firstIndex(of: .greaterThan),
                lower[(close + 1)...].starts(with: Array("</script>".utf8))
            else { return nil }
            from = close + 1
        }
        var out = LineWriter()
        for byte in body {
            if byte == .newline { out.endLine() } else { out.add(byte) }
        }
        return out.finish(lineBreakAtEnd: body.last == .newline)
    }

    /// Whether the text has no carriage returns and no U+2028/U+2029 (which JavaScript counts as
    /// line breaks): every line ends in `\n` alone.
    static func plainLines(_ body: [UInt8]) -> Bool {
        if body.contains(.carriageReturn) { return false }
        for index in body.indices.dropLast(2) where body[index] == 0xE2 && body[index + 1] == 0x80 {
            if body[index + 2] == 0xA8 || body[index + 2] == 0xA9 { return false }
        }
        return true
    }

    /// The index after the `*/` closing the comment that starts at `start`, or nil.
    static func blockCommentEnd(_ body: [UInt8], from start: Int) -> Int? {
        var index = start + 2
        while index + 1 < body.count {
            if body[index] == .star, body[index + 1] == .slash { return index + 2 }
            index += 1
        }
        return nil
    }

    /// The index after the string that opens at `start` (its quote), or nil when it runs over a
    /// line break (escaped or not) or the end.
    static func stringEnd(_ body: [UInt8], from start: Int) -> Int? {
        let quote = body[start]
        var index = start + 1
        while index < body.count {
            let byte = body[index]
            if byte == .newline { return nil }
            if byte == .backslash {
                guard index + 1 < body.count, body[index + 1] != .newline else { return nil }
                index += 2
                continue
            }
            if byte == quote { return index + 1 }
            index += 1
        }
        return nil
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == .space || byte == .tab || byte == .newline }

    private static func isURLStart(_ body: [UInt8], at index: Int) -> Bool {
        guard index + 4 <= body.count, body[index] | 0x20 == UInt8(ascii: "u") else { return false }
        let lower = body[index..<index + 4].map { $0 | 0x20 }
        guard lower == Array("url(".utf8).map({ $0 | 0x20 }) else { return false }
        guard index == 0 || !isWordByte(body[index - 1]) else { return false }
        // `url("…")` is a function with a string, which the string rule keeps; only the unquoted
        // form is a token of its own, in which `/*` is no comment.
        let next = body[(index + 4)...].first { $0 != .space && $0 != .tab && $0 != .newline }
        return next != .quote && next != .apostrophe
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95
            || byte == 36 || byte >= 0x80
    }

    private static func contains(_ text: [UInt8], _ part: [UInt8]) -> Bool {
        firstIndex(of: part, in: text, from: 0) != nil
    }

    private static func firstIndex(of part: [UInt8], in text: [UInt8], from: Int) -> Int? {
        guard text.count >= part.count, from <= text.count - part.count else { return nil }
        for index in from...(text.count - part.count) where text[index..<index + part.count].elementsEqual(part) {
            return index
        }
        return nil
    }
}

/// The output of a compactor, one line at a time: spaces and tabs at either end of a line are
/// dropped, and a line left empty is not written.
struct LineWriter {
    private var output: [UInt8] = []
    private var line: [UInt8] = []

    /// Whether the current line is empty so far or ends in a space or tab.
    var endsInSpace: Bool { line.last.map { $0 == .space || $0 == .tab } ?? true }

    mutating func add(_ byte: UInt8) {
        if byte == .newline { endLine() } else { line.append(byte) }
    }

    mutating func append(_ bytes: ArraySlice<UInt8>) { line.append(contentsOf: bytes) }

    mutating func endLine() {
        let isBlank = { (byte: UInt8) in byte == .space || byte == .tab }
        guard let first = line.firstIndex(where: { !isBlank($0) }), let last = line.lastIndex(where: { !isBlank($0) })
        else {
            line.removeAll(keepingCapacity: true)
            return
        }
        output.append(contentsOf: line[first...last])
        output.append(.newline)
        line.removeAll(keepingCapacity: true)
    }

    /// The text written; it ends in a line break when `lineBreakAtEnd` (as the original did).
    mutating func finish(lineBreakAtEnd: Bool) -> [UInt8] {
        endLine()
        if !lineBreakAtEnd, output.last == .newline { output.removeLast() }
        return output
    }
}

extension UInt8 {
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let slash = UInt8(ascii: "/")
    static let star = UInt8(ascii: "*")
    static let backslash = UInt8(ascii: "\\")
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let backtick = UInt8(ascii: "`")
    static let closeParen = UInt8(ascii: ")")
    static let greaterThan = UInt8(ascii: ">")
}
