extension StringProtocol {
    /// The terminal cells the text takes (see `TextWidth`).
    var displayWidth: Int { TextWidth.of(self) }
}

extension String {
    /// The longest run of whole clusters from the start that fits in `width` cells.
    func prefix(fittingWidth width: Int) -> String {
        var used = 0
        var result = ""
        for (character, cells) in TextWidth.widths(self) {
            guard used + cells <= width else { break }
            used += cells
            result.append(character)
        }
        return result
    }

    /// The longest run of whole clusters from the end that fits in `width` cells.
    func suffix(fittingWidth width: Int) -> String {
        var used = 0
        var result: [Character] = []
        for (character, cells) in TextWidth.widths(self).reversed() {
            guard used + cells <= width else { break }
            used += cells
            result.append(character)
        }
        return String(result.reversed())
    }

    /// The string cut to `width` cells at a cluster boundary, ending in "…" when it was wider.
    func truncated(to width: Int) -> String {
        guard width > 0 else { return "" }
        guard displayWidth > width else { return self }
        return prefix(fittingWidth: width - 1) + "…"
    }

    /// The string with its start cut instead: "…" and the end that fits in `width` cells.
    func truncatedAtStart(to width: Int) -> String {
        guard width > 0 else { return "" }
        guard displayWidth > width else { return self }
        return "…" + suffix(fittingWidth: width - 1)
    }

    /// The string padded with spaces (or truncated) to exactly `width` cells.
    func padded(to width: Int) -> String {
        let cut = truncated(to: width)
        return cut + String(repeating: " ", count: max(width - cut.displayWidth, 0))
    }

    /// The string without the spaces at its end.
    var withoutTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The string right-aligned in `width` cells.
    func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(width - displayWidth, 0)) + self
    }

    /// The string broken into lines of at most `width` cells at spaces (long words are cut at
    /// cluster boundaries).
    func wrapped(to width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in split(separator: " ", omittingEmptySubsequences: false) {
            var word = String(word)
            while word.displayWidth > width {
                if !line.isEmpty {
                    lines.append(line)
                    line = ""
                }
                var head = word.prefix(fittingWidth: width)
                if head.isEmpty { head = String(word.prefix(1)) }
                lines.append(head)
                word = String(word.dropFirst(head.count))
            }
            if line.isEmpty {
                line = word
            } else if line.displayWidth + 1 + word.displayWidth <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
