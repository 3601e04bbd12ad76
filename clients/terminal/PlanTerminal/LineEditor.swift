/// One line of text being edited, with a cursor: the keys of a shell's line editor (←/→, Home/End,
/// Ctrl-A/Ctrl-E, Ctrl-W, Ctrl-U, Ctrl-K, Backspace and Delete at the cursor), each on whole
/// grapheme clusters, so that a wide character, an emoji sequence or a letter with its accents
/// moves and goes as one. A pure value: every text field, the search line, the date line and the
/// pickers' query edit through it.
public struct LineEditor: Sendable, Hashable {
    /// The text.
    public private(set) var text: String
    /// The cursor: the number of grapheme clusters (`Character`s) before it.
    public private(set) var cursor: Int

    /// `text` with the cursor after its `cursor` first clusters (clamped); at its end by default.
    public init(_ text: String = "", cursor: Int? = nil) {
        self.text = text
        let count = text.count
        self.cursor = min(max(cursor ?? count, 0), count)
    }

    /// What a key did.
    public enum Outcome: Sendable, Hashable {
        /// The text changed.
        case edited
        /// Only the cursor moved (or could not: at an end).
        case moved
        /// Not a line-editing key: the caller's.
        case unhandled
    }

    /// Applies a key: a printable character is inserted at the cursor; the editing keys edit;
    /// any other key is left to the caller (`.unhandled`).
    @discardableResult
    public mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .character(let character):
            insert(String(character))
            return .edited
        case .left: cursor = max(cursor - 1, 0)
        case .right: cursor = min(cursor + 1, text.count)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = text.count
        case .backspace: return deleteBackward()
        case .delete, .control("d"): return deleteForward()
        case .control("w"): return deleteWordBackward()
        case .control("u"): return replace(0..<cursor, with: "")
        case .control("k"): return replace(cursor..<text.count, with: "")
        default: return .unhandled
        }
        return .moved
    }

    /// Inserts `string` at the cursor, which moves behind it. (A combining mark typed after a
    /// letter joins its cluster: the cursor stays behind the cluster.)
    public mutating func insert(_ string: String) {
        _ = replace(cursor..<cursor, with: string)
    }

    /// Replaces the whole text, the cursor at its end.
    public mutating func set(_ text: String) {
        self = LineEditor(text)
    }

    private mutating func deleteBackward() -> Outcome {
        guard cursor > 0 else { return .moved }
        return replace((cursor - 1)..<cursor, with: "")
    }

    private mutating func deleteForward() -> Outcome {
        guard cursor < text.count else { return .moved }
        return replace(cursor..<(cursor + 1), with: "")
    }

    /// Ctrl-W: the white space before the cursor, then the word before it (as a shell's
    /// `unix-word-rubout`: a word is what lies between white space).
    private mutating func deleteWordBackward() -> Outcome {
        let characters = Array(text.prefix(cursor))
        var start = characters.count
        while start > 0 && characters[start - 1].isWhitespace { start -= 1 }
        while start > 0 && !characters[start - 1].isWhitespace { start -= 1 }
        return replace(start..<cursor, with: "")
    }

    /// Replaces the clusters `range` with `string`; the cursor goes behind the replacement.
    private mutating func replace(_ range: Range<Int>, with string: String) -> Outcome {
        guard !range.isEmpty || !string.isEmpty else { return .moved }
        let before = String(text.prefix(range.lowerBound))
        let after = String(text.dropFirst(range.upperBound))
        text = before + string + after
        cursor = (before + string).count
        return .edited
    }

    /// The line as drawn in `width` cells: the text with a bar `▏` at the cursor, cut (at cluster
    /// boundaries, with "…") so that the cursor stays in view with as much of the text around it
    /// as fits.
    public func display(width: Int) -> String {
        let width = max(width, 1)
        let before = String(text.prefix(cursor))
        let after = String(text.dropFirst(cursor))
        let marked = before + "▏" + after
        if marked.displayWidth <= width { return marked }
        // The cursor and the text before it fit: the text after it is cut.
        if (before + "▏").displayWidth < width { return marked.truncated(to: width) }
        // Otherwise the start goes, keeping a little of what follows the cursor in view.
        let room = max(width - min(after.displayWidth, width / 3), 1)
        let left = (before + "▏").truncatedAtStart(to: room)
        return left + after.truncated(to: width - left.displayWidth)
    }
}
