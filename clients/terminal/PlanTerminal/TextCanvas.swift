/// A grid of cells with a style each: what a screen shows, without any terminal I/O.
///
/// A cell holds one grapheme cluster. A cluster two cells wide (CJK, fullwidth forms, emoji; see
/// `TextWidth`) takes its cell and the next one, which holds `TextCanvas.continuation`; writing
/// over either half blanks the other, as a terminal does. Text written past an edge is clipped at
/// a cluster boundary, and a wide cluster that does not fit leaves a blank cell.
public struct TextCanvas: Sendable, Hashable {
    /// The number of columns.
    public let width: Int
    /// The number of rows.
    public let height: Int
    private var characters: [Character]
    /// Each cell's style as an index into `styleTable` (two bytes a cell, however rich the
    /// style: a whole-plan `plan chart` holds millions of cells).
    private var styles: [UInt16]
    /// The styles used, `.normal` first.
    private var styleTable: [CellStyle] = [.normal]
    private var styleIndexes: [CellStyle: UInt16] = [.normal: 0]

    /// What the second cell of a wide cluster holds (never drawn, never written by `write`).
    public static let continuation: Character = "\u{0}"

    /// A blank canvas of `width` × `height` cells (negative sizes count as 0).
    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        characters = Array(repeating: " ", count: self.width * self.height)
        styles = Array(repeating: 0, count: self.width * self.height)
    }

    /// The cluster at (`x`, `y`) (`continuation` right of a wide one), or a space outside the canvas.
    public func character(x: Int, y: Int) -> Character {
        guard x >= 0, x < width, y >= 0, y < height else { return " " }
        return characters[y * width + x]
    }

    /// The style at (`x`, `y`), or `.normal` outside the canvas.
    public func style(x: Int, y: Int) -> CellStyle {
        guard x >= 0, x < width, y >= 0, y < height else { return .normal }
        return styleTable[Int(styles[y * width + x])]
    }

    /// Sets the cell at (`x`, `y`) to a cluster, and the next one too when it is wide (a wide
    /// cluster in the last column becomes a space); ignored outside the canvas, and for a cluster
    /// of no width.
    public mutating func set(_ character: Character, x: Int, y: Int, style: CellStyle = .normal) {
        put(character, cells: TextWidth.of(character), x: x, y: y, style: style)
    }

    private mutating func put(_ character: Character, cells: Int, x: Int, y: Int, style: CellStyle) {
        guard x >= 0, x < width, y >= 0, y < height, cells > 0 else { return }
        place(character, cells: cells, x: x, y: y, style: styleIndex(of: style))
    }

    /// `put` inside the canvas, with the style's index already known.
    private mutating func place(_ character: Character, cells: Int, x: Int, y: Int, style: UInt16) {
        let wide = cells > 1 && x + 1 < width
        clear(x: x, y: y)
        if wide { clear(x: x + 1, y: y) }
        let index = y * width + x
        characters[index] = cells > 1 && !wide ? " " : character
        styles[index] = style
        if wide {
            characters[index + 1] = TextCanvas.continuation
            styles[index + 1] = style
        }
    }

    /// The index of `style` in the table, added on first use (a canvas with more than 65,535
    /// styles draws the rest plain).
    private mutating func styleIndex(of style: CellStyle) -> UInt16 {
        if let index = styleIndexes[style] { return index }
        guard styleTable.count <= Int(UInt16.max) else { return 0 }
        let index = UInt16(styleTable.count)
        styleTable.append(style)
        styleIndexes[style] = index
        return index
    }

    /// Blanks the other half of a wide cluster that covers (`x`, `y`).
    private mutating func clear(x: Int, y: Int) {
        let index = y * width + x
        if characters[index] == TextCanvas.continuation, x > 0 {
            characters[index - 1] = " "
        } else if x + 1 < width, characters[index + 1] == TextCanvas.continuation {
            characters[index + 1] = " "
        }
    }

    /// Changes the style of the cells `x..<x+count` on row `y`.
    public mutating func restyle(x: Int, y: Int, count: Int, style: CellStyle) {
        guard y >= 0, y < height else { return }
        let style = styleIndex(of: style)
        for column in max(x, 0)..<max(min(x + count, width), max(x, 0)) { styles[y * width + column] = style }
    }

    /// Writes `text` from (`x`, `y`) rightwards, at most `limit` cells (clipped at the edges and
    /// at cluster boundaries: a wide cluster that does not fit is left out).
    public mutating func write(_ text: String, x: Int, y: Int, style: CellStyle = .normal, limit: Int? = nil) {
        var column = x
        let end = min(limit.map { x + $0 } ?? width, width)
        for (character, cells) in TextWidth.widths(text) where cells > 0 {
            guard column + cells <= end else { break }
            put(character, cells: cells, x: column, y: y, style: style)
            column += cells
        }
    }

    /// Copies another canvas onto this one with its top-left corner at (`x`, `y`).
    public mutating func draw(_ other: TextCanvas, x: Int, y: Int) {
        // Each of the other canvas's styles gets its index here when a cell of it is first placed.
        var indexes = [Int32](repeating: -1, count: other.styleTable.count)
        for row in 0..<other.height where y + row >= 0 && y + row < height {
            let base = row * other.width
            for column in 0..<other.width where x + column >= 0 && x + column < width {
                let character = other.characters[base + column]
                // A continuation is copied with its wide cluster, unless that fell off the left edge.
                let leftAlone = x + column == 0 || column == 0
                if character == TextCanvas.continuation && !leftAlone { continue }
                let otherStyle = Int(other.styles[base + column])
                if indexes[otherStyle] < 0 { indexes[otherStyle] = Int32(styleIndex(of: other.styleTable[otherStyle])) }
                let style = UInt16(indexes[otherStyle])
                if character == TextCanvas.continuation {
                    place(" ", cells: 1, x: x + column, y: y + row, style: style)
                    continue
                }
                let wide = column + 1 < other.width && other.characters[base + column + 1] == TextCanvas.continuation
                place(character, cells: wide ? 2 : 1, x: x + column, y: y + row, style: style)
            }
        }
    }

    /// The rows as strings, trailing spaces removed.
    public var lines: [String] {
        (0..<height).map(line)
    }

    /// The whole canvas as text, one line per row, each ending in a newline.
    public var text: String {
        var text = ""
        for row in 0..<height {
            text += line(row)
            text += "\n"
        }
        return text
    }

    /// Row `row` as a string (wide clusters once), trailing spaces removed.
    private func line(_ row: Int) -> String {
        let start = row * width
        var end = start + width
        while end > start, characters[end - 1] == " " || characters[end - 1] == TextCanvas.continuation { end -= 1 }
        var line = ""
        line.reserveCapacity(end - start)
        for character in characters[start..<end] where character != TextCanvas.continuation { line.append(character) }
        // A cluster that would take the space after it in (a prepended mark) keeps that space,
        // as trimming the whole row's string would.
        if end < start + width, end > start, (String(characters[end - 1]) + " ").count == 1 {
            line = String(characters[start..<(start + width)].lazy.filter { $0 != TextCanvas.continuation })
            while line.last == " " { line.removeLast() }
        }
        return line
    }

    /// The runs of equally styled cells of row `y`, left to right, for a terminal adapter: each
    /// run's text holds its clusters (a wide one once).
    public func runs(y: Int) -> [(x: Int, text: String, style: CellStyle)] {
        guard y >= 0, y < height else { return [] }
        var result: [(x: Int, text: String, style: CellStyle)] = []
        var start = 0
        while start < width {
            let style = styles[y * width + start]
            var end = start + 1
            while end < width, styles[y * width + end] == style { end += 1 }
            let cells = characters[(y * width + start)..<(y * width + end)]
            result.append((start, String(cells.lazy.filter { $0 != TextCanvas.continuation }), styleTable[Int(style)]))
            start = end
        }
        return result
    }
}
