extension ArrowRouter.Route {
    /// The first and last rows the route passes (every row it draws in lies between them).
    var rowSpan: ClosedRange<Int> { min(arrow.fromRow, arrow.toRow)...max(arrow.fromRow, arrow.toRow) }

    /// Calls `body` for every cell of `rows` (row indexes of the arrows' order) and `0..<limit`
    /// the route draws a line in, with the ways the line leaves it there (a cell can come more
    /// than once; its ways are the union).
    func forEachLineCell(
        rows: Range<Int>, limit: Int, _ body: (_ row: Int, _ cell: Int, _ direction: ArrowRouter.Direction) -> Void
    ) {
        func mark(_ row: Int, _ cell: Int, _ direction: ArrowRouter.Direction) {
            guard rows.contains(row), cell >= 0, cell < limit else { return }
            body(row, cell, direction)
        }
        mark(arrow.fromRow, exit, arrow.fromStart ? .right : .left)
        for segment in segments.dropFirst(hidesWayBack ? 1 : 0) {
            switch segment {
            case .horizontal(let row, let from, let to):
                guard from != to, rows.contains(row) else { continue }
                let step = to > from ? 1 : -1
                mark(row, from, step > 0 ? .right : .left)
                for cell in stride(from: from + step, to: to, by: step) { mark(row, cell, [.left, .right]) }
                mark(row, to, step > 0 ? .left : .right)
            case .vertical(let cell, let from, let to):
                guard from != to, cell >= 0, cell < limit else { continue }
                let step = to > from ? 1 : -1
                mark(from, cell, step > 0 ? .down : .up)
                for row in ArrowRouter.between(from, to).clamped(to: rows) { mark(row, cell, [.up, .down]) }
                mark(to, cell, step > 0 ? .up : .down)
            }
        }
    }
}

extension ArrowRouter {
    /// Draws `routes` (in routing order) as far as they fall in `rows` (indexes of the arrows'
    /// order; the first at line `top` of `chart`): their lines into the chart's empty cells, then
    /// their heads (over lines, never over a mark; the first head drawn in a cell stays). Only a
    /// grid of those rows is built, so a long chart can be painted a band of rows at a time.
    static func paint(_ routes: [Route], rows: Range<Int>, limit: Int, into chart: inout TextCanvas, top: Int) {
        guard limit > 0, !rows.isEmpty else { return }
        let touching = routes.filter { $0.rowSpan.overlaps(rows) }
        var lines = [Direction](repeating: [], count: rows.count * limit)
        for route in touching {
            route.forEachLineCell(rows: rows, limit: limit) { row, cell, direction in
                lines[(row - rows.lowerBound) * limit + cell].formUnion(direction)
            }
        }
        for offset in 0..<rows.count {
            for cell in 0..<limit {
                let direction = lines[offset * limit + cell]
                guard !direction.isEmpty, chart.character(x: cell, y: top + offset) == " " else { continue }
                chart.set(ArrowRouter.boxCharacter(direction.rawValue), x: cell, y: top + offset, style: .dim)
            }
        }
        for route in touching where rows.contains(route.arrow.toRow) && route.head >= 0 && route.head < limit {
            let line = top + route.arrow.toRow - rows.lowerBound
            let existing = chart.character(x: route.head, y: line)
            if existing == " " || ArrowRouter.isBoxCharacter(existing) {
                chart.set(route.arrow.toEnd ? "◀" : "▶", x: route.head, y: line)
            }
        }
    }

    private static let boxCharacters: [Character] = [
        " ", "│", "│", "│", "─", "┘", "┐", "┤", "─", "└", "┌", "├", "─", "┴", "┬", "┼",
    ]

    private static func boxCharacter(_ bits: UInt8) -> Character { boxCharacters[Int(bits & 15)] }

    static func isBoxCharacter(_ character: Character) -> Bool {
        character != " " && boxCharacters.contains(character)
    }
}
