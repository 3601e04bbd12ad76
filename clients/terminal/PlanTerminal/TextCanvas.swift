/// How a cell is drawn on a terminal; plain text output ignores it.
public enum CellStyle: UInt8, Sendable, Hashable {
    /// Ordinary text.
    case normal
    /// Headings and the selected view's name.
    case bold
    /// The selected row, the focused form field.
    case reverse
    /// Secondary text: labels such as "Unscheduled", disabled actions.
    case dim
    /// The critical path's bars and diamonds (red where the terminal has colours).
    case critical
}

/// A grid of characters with a style per cell: what a screen shows, without any terminal I/O.
///
/// Every `Character` takes one cell; text written past an edge is clipped.
public struct TextCanvas: Sendable, Hashable {
    /// The number of columns.
    public let width: Int
    /// The number of rows.
    public let height: Int
    private var characters: [Character]
    private var styles: [CellStyle]

    /// A blank canvas of `width` × `height` cells (negative sizes count as 0).
    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        characters = Array(repeating: " ", count: self.width * self.height)
        styles = Array(repeating: .normal, count: self.width * self.height)
    }

    /// The character at (`x`, `y`), or a space outside the canvas.
    public func character(x: Int, y: Int) -> Character {
        guard x >= 0, x < width, y >= 0, y < height else { return " " }
        return characters[y * width + x]
    }

    /// The style at (`x`, `y`), or `.normal` outside the canvas.
    public func style(x: Int, y: Int) -> CellStyle {
        guard x >= 0, x < width, y >= 0, y < height else { return .normal }
        return styles[y * width + x]
    }

    /// Sets one cell; ignored outside the canvas.
    public mutating func set(_ character: Character, x: Int, y: Int, style: CellStyle = .normal) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        characters[y * width + x] = character
        styles[y * width + x] = style
    }

    /// Changes the style of the cells `x..<x+count` on row `y`.
    public mutating func restyle(x: Int, y: Int, count: Int, style: CellStyle) {
        guard y >= 0, y < height else { return }
        for column in max(x, 0)..<max(min(x + count, width), max(x, 0)) { styles[y * width + column] = style }
    }

    /// Writes `text` from (`x`, `y`) rightwards, at most `limit` cells (clipped at the edges).
    public mutating func write(_ text: String, x: Int, y: Int, style: CellStyle = .normal, limit: Int? = nil) {
        var column = x
        let end = limit.map { x + $0 } ?? width
        for character in text {
            guard column < end else { break }
            set(character, x: column, y: y, style: style)
            column += 1
        }
    }

    /// Copies another canvas onto this one with its top-left corner at (`x`, `y`).
    public mutating func draw(_ other: TextCanvas, x: Int, y: Int) {
        for row in 0..<other.height {
            for column in 0..<other.width {
                set(
                    other.character(x: column, y: row), x: x + column, y: y + row, style: other.style(x: column, y: row)
                )
            }
        }
    }

    /// The rows as strings, trailing spaces removed.
    public var lines: [String] {
        (0..<height).map { row in
            var line = String(characters[(row * width)..<(row * width + width)])
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The whole canvas as text, one line per row, each ending in a newline.
    public var text: String {
        lines.map { $0 + "\n" }.joined()
    }

    /// The runs of equally styled cells of row `y`, left to right, for a terminal adapter.
    public func runs(y: Int) -> [(x: Int, text: String, style: CellStyle)] {
        guard y >= 0, y < height else { return [] }
        var result: [(x: Int, text: String, style: CellStyle)] = []
        var start = 0
        while start < width {
            let style = styles[y * width + start]
            var end = start + 1
            while end < width, styles[y * width + end] == style { end += 1 }
            result.append((start, String(characters[(y * width + start)..<(y * width + end)]), style))
            start = end
        }
        return result
    }
}

extension String {
    /// The string cut to `width` characters, ending in "…" when it was longer.
    func truncated(to width: Int) -> String {
        guard width > 0 else { return "" }
        guard count > width else { return self }
        return String(prefix(width - 1)) + "…"
    }

    /// The string padded with spaces (or truncated) to exactly `width` characters.
    func padded(to width: Int) -> String {
        let cut = truncated(to: width)
        return cut + String(repeating: " ", count: max(width - cut.count, 0))
    }

    /// The string without the spaces at its end.
    var withoutTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The string right-aligned in `width` characters.
    func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(width - count, 0)) + self
    }
}
