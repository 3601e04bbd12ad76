import ChronoSketchCore

/// The timeline as text: a pinned name column, three header rows (month, ISO week with its
/// week-year, day or column range) and one line per row with bars, milestone diamonds,
/// "Unscheduled" labels and orthogonal dependency arrows, all clipped to the chart area.
public struct ChartRenderer: Sendable {
    /// The labels' language.
    public let language: PlanLanguage
    /// The width of the pinned name column (without the separator).
    public let nameWidth: Int

    /// A renderer for `language` with a name column `nameWidth` cells wide.
    public init(language: PlanLanguage, nameWidth: Int = 24) {
        self.language = language
        self.nameWidth = max(nameWidth, 4)
    }

    /// Terminal cells per chart column: 3 for single days ("30"), 6 for ranges ("28–31").
    public static func cellsPerColumn(_ zoom: TimelineZoom) -> Int { zoom == .oneDay ? 3 : 6 }

    /// How many chart columns fit beside the names in `width` cells.
    public func visibleColumns(forWidth width: Int, zoom: TimelineZoom) -> Int {
        max((width - nameWidth - 1) / ChartRenderer.cellsPerColumn(zoom), 1)
    }

    /// The number of header rows.
    public static let headerHeight = 3

    /// Draws the chart into `canvas` at (`x`, `y`): headers, then the rows
    /// `firstRow..<firstRow + height - 3`. With a `baseline` (each task's row at a baseline's
    /// version, by id), a task's baseline bar ("▁") or milestone ("◇") is drawn under it: in the
    /// cells its live bar, label and arrows leave empty.
    public func draw(
        rows: [TaskRow], dependencies: [TaskDependency], viewport: ChartViewport, into canvas: inout TextCanvas,
        x: Int = 0, y: Int = 0, height: Int, firstRow: Int = 0, selectedID: String? = nil,
        pendingIDs: Set<String> = [], baseline: [String: TaskRow]? = nil
    ) {
        let cells = ChartRenderer.cellsPerColumn(viewport.axis.zoom)
        let chartWidth = viewport.visibleColumns * cells
        let bodyHeight = max(height - ChartRenderer.headerHeight, 0)
        var chart = TextCanvas(width: chartWidth, height: ChartRenderer.headerHeight + bodyHeight)
        drawHeaders(viewport: viewport, into: &chart)
        let shown = firstRow..<max(firstRow, min(firstRow + bodyHeight, rows.count))
        let names = ListRenderer(language: language)
        let axis = viewport.axis
        let origin = Double(viewport.firstColumn)
        let cellX = { (x: Double) -> Double in (x - origin) * Double(cells) }
        // The cells that hold dates; space after the horizon stays empty.
        let horizonCells = Int((cellX(axis.width)).rounded(.up))
        let limit = min(chartWidth, horizonCells)
        for (offset, index) in shown.enumerated() {
            let row = rows[index]
            let line = ChartRenderer.headerHeight + offset
            switch axis.mark(for: row, language: language) {
            case .bar(let bar):
                let (start, end) = ChartRenderer.cells(of: bar, cellX: cellX, limit: limit)
                let filled = Int(cellX(bar.visibleFilledEndX).rounded())
                guard start < end else { break }
                for cell in start..<end {
                    let isFilled = cell < filled && bar.hasVisibleFill
                    let character: Character = bar.isSummary ? (isFilled ? "▓" : "▒") : (isFilled ? "█" : "░")
                    chart.set(character, x: cell, y: line)
                }
            case .milestone(let milestone):
                let cell = Int(cellX(milestone.x).rounded(.down))
                if cell >= 0, cell < limit { chart.set("◆", x: cell, y: line) }
            case .unscheduled(let label):
                chart.write(label, x: 0, y: line, style: .dim, limit: limit)
            case .outsideHorizon:
                break
            }
        }
        drawArrows(
            axis.dependencyArrows(rows: rows, dependencies: dependencies), rows: shown, limit: limit, cellX: cellX,
            into: &chart)
        if let baseline {
            for (offset, index) in shown.enumerated() {
                guard let old = baseline[rows[index].id] else { continue }
                drawShadow(
                    axis.mark(for: old, language: language), line: ChartRenderer.headerHeight + offset, limit: limit,
                    cellX: cellX, into: &chart)
            }
        }
        // The pinned names, then the chart beside them.
        canvas.write(String(repeating: " ", count: nameWidth), x: x, y: y)
        canvas.write(names.strings.taskColumn.padded(to: nameWidth), x: x, y: y + 2, style: .bold)
        for header in 0..<ChartRenderer.headerHeight { canvas.set("│", x: x + nameWidth, y: y + header) }
        for (offset, index) in shown.enumerated() {
            let row = rows[index]
            let line = y + ChartRenderer.headerHeight + offset
            let selected = row.id == selectedID
            canvas.write(
                names.name(of: row, pending: pendingIDs.contains(row.id)).padded(to: nameWidth), x: x, y: line,
                style: selected ? .reverse : .normal)
            canvas.set("│", x: x + nameWidth, y: line)
        }
        canvas.draw(chart, x: x + nameWidth + 1, y: y)
    }

    /// The cells a bar covers, `start..<end`, clipped to the chart.
    private static func cells(of bar: ChartBar, cellX: (Double) -> Double, limit: Int) -> (Int, Int) {
        let start = max(Int((cellX(bar.visibleStartX) + 1e-9).rounded(.down)), 0)
        return (start, min(max(Int((cellX(bar.visibleEndX) - 1e-9).rounded(.up)), start + 1), limit))
    }

    /// A baseline's mark in the cells of `line` that show nothing.
    private func drawShadow(
        _ mark: ChartMark, line: Int, limit: Int, cellX: (Double) -> Double, into chart: inout TextCanvas
    ) {
        switch mark {
        case .bar(let bar):
            let (start, end) = ChartRenderer.cells(of: bar, cellX: cellX, limit: limit)
            for cell in start..<max(start, end) where chart.character(x: cell, y: line) == " " {
                chart.set("▁", x: cell, y: line, style: .dim)
            }
        case .milestone(let milestone):
            let cell = Int(cellX(milestone.x).rounded(.down))
            if cell >= 0, cell < limit, chart.character(x: cell, y: line) == " " {
                chart.set("◇", x: cell, y: line, style: .dim)
            }
        case .unscheduled, .outsideHorizon:
            break
        }
    }

    /// The chart as plain text: headers and every row, `width` cells wide (nil: the whole horizon),
    /// with a baseline's shadow when `baseline` is given (see `draw`).
    public func text(
        rows: [TaskRow], dependencies: [TaskDependency], horizon: ChartHorizon, zoom: TimelineZoom,
        width: Int? = nil, baseline: [String: TaskRow]? = nil
    ) -> String {
        let axis = TimeAxis(horizon: horizon, zoom: zoom)
        let columns = width.map { visibleColumns(forWidth: $0, zoom: zoom) } ?? axis.columnCount
        let viewport = ChartViewport(axis: axis, visibleColumns: min(columns, axis.columnCount))
        let total = nameWidth + 1 + viewport.visibleColumns * ChartRenderer.cellsPerColumn(zoom)
        var canvas = TextCanvas(width: total, height: ChartRenderer.headerHeight + rows.count)
        draw(
            rows: rows, dependencies: dependencies, viewport: viewport, into: &canvas,
            height: ChartRenderer.headerHeight + rows.count, baseline: baseline)
        return canvas.text
    }

    // MARK: Headers

    func drawHeaders(viewport: ChartViewport, into chart: inout TextCanvas) {
        let axis = viewport.axis
        let cells = ChartRenderer.cellsPerColumn(axis.zoom)
        let visible = viewport.visibleColumnRange
        let origin = Double(viewport.firstColumn)
        let width = chart.width
        let sectionRows = [
            axis.monthSections(language: language, overlapping: visible),
            axis.weekSections(language: language, overlapping: visible),
        ]
        for (line, sections) in sectionRows.enumerated() {
            for section in sections {
                let start = Int(((section.startX - origin) * Double(cells)).rounded())
                let end = min(Int(((section.endX - origin) * Double(cells)).rounded()), width)
                var labelStart = max(start, 0)
                if start > 0 {
                    chart.set("▏", x: start, y: line, style: .dim)
                    labelStart += 1
                }
                // The label stays at the visible left edge of its section, with one cell to spare.
                if let label = section.label.fitting(end - labelStart - 1) {
                    chart.write(label, x: labelStart, y: line, style: line == 0 ? .bold : .normal)
                }
            }
        }
        for column in axis.columns(in: visible) {
            let start = (column.index - viewport.firstColumn) * cells
            if let label = column.label.fitting(cells - 1) { chart.write(label, x: start, y: 2) }
        }
    }

    // MARK: Arrows

    private struct Direction: OptionSet {
        let rawValue: UInt8
        static let up = Direction(rawValue: 1)
        static let down = Direction(rawValue: 2)
        static let left = Direction(rawValue: 4)
        static let right = Direction(rawValue: 8)
    }

    private func drawArrows(
        _ arrows: [DependencyArrow], rows shown: Range<Int>, limit: Int, cellX: (Double) -> Double,
        into chart: inout TextCanvas
    ) {
        guard !arrows.isEmpty else { return }
        var lines: [Int: [Int: Direction]] = [:]  // row index → cell → directions
        var heads: [(row: Int, cell: Int, head: Character)] = []
        func mark(_ row: Int, _ cell: Int, _ direction: Direction) {
            lines[row, default: [:]][cell, default: []].formUnion(direction)
        }
        func vertical(_ cell: Int, from: Int, to: Int) {
            guard from != to else { return }
            let step = to > from ? 1 : -1
            mark(from, cell, step > 0 ? .down : .up)
            var row = from + step
            while row != to {
                mark(row, cell, [.up, .down])
                row += step
            }
            mark(to, cell, step > 0 ? .up : .down)
        }
        func horizontal(_ row: Int, from: Int, to: Int) {
            guard from != to else { return }
            let step = to > from ? 1 : -1
            mark(row, from, step > 0 ? .right : .left)
            var cell = from + step
            while cell != to {
                mark(row, cell, [.left, .right])
                cell += step
            }
            mark(row, to, step > 0 ? .left : .right)
        }
        for arrow in arrows {
            let fromCell =
                arrow.fromMilestone
                ? Int(cellX(arrow.fromX).rounded(.down)) + 1 : Int(cellX(arrow.fromX).rounded())
            let toCell =
                arrow.toMilestone ? Int(cellX(arrow.toX).rounded(.down)) - 1 : Int(cellX(arrow.toX).rounded()) - 1
            mark(arrow.fromRow, fromCell, .left)
            if toCell >= fromCell {
                vertical(fromCell, from: arrow.fromRow, to: arrow.toRow)
                horizontal(arrow.toRow, from: fromCell, to: toCell)
            } else {
                // The successor starts on or before the predecessor's end: down (or up) from the
                // end, back left on a row between them, then on to the successor. The turn takes
                // the row nearest to the successor whose cells along the way back show nothing
                // (no bar, label or other arrow), so that its corners stay readable; without one
                // (no row between, or all taken), the row next to the successor.
                let step = arrow.toRow > arrow.fromRow ? 1 : -1
                let between = stride(from: arrow.toRow - step, to: arrow.fromRow, by: -step)
                let turn =
                    between.first { row in
                        isFree(row: row, cells: toCell...fromCell, shown: shown, limit: limit, in: chart)
                            && (toCell...fromCell).allSatisfy { lines[row]?[$0] == nil }
                    } ?? arrow.toRow - step
                vertical(fromCell, from: arrow.fromRow, to: turn)
                horizontal(turn, from: fromCell, to: toCell)
                vertical(toCell, from: turn, to: arrow.toRow)
            }
            heads.append((arrow.toRow, toCell, "▶"))
        }
        for (row, cells) in lines where shown.contains(row) {
            let line = ChartRenderer.headerHeight + row - shown.lowerBound
            for (cell, direction) in cells where cell >= 0 && cell < limit && chart.character(x: cell, y: line) == " " {
                chart.set(ChartRenderer.boxCharacter(direction.rawValue), x: cell, y: line, style: .dim)
            }
        }
        for head in heads where shown.contains(head.row) && head.cell >= 0 && head.cell < limit {
            let line = ChartRenderer.headerHeight + head.row - shown.lowerBound
            let existing = chart.character(x: head.cell, y: line)
            if existing == " " || ChartRenderer.isBoxCharacter(existing) { chart.set(head.head, x: head.cell, y: line) }
        }
    }

    /// Whether the cells of a row show nothing (rows out of view and cells outside the chart count
    /// as empty: nothing of them is drawn).
    private func isFree(row: Int, cells: ClosedRange<Int>, shown: Range<Int>, limit: Int, in chart: TextCanvas) -> Bool
    {
        guard shown.contains(row) else { return true }
        let line = ChartRenderer.headerHeight + row - shown.lowerBound
        return cells.allSatisfy { $0 < 0 || $0 >= limit || chart.character(x: $0, y: line) == " " }
    }

    private static let boxCharacters: [Character] = [
        " ", "│", "│", "│", "─", "┘", "┐", "┤", "─", "└", "┌", "├", "─", "┴", "┬", "┼",
    ]

    private static func boxCharacter(_ bits: UInt8) -> Character { boxCharacters[Int(bits & 15)] }

    private static func isBoxCharacter(_ character: Character) -> Bool {
        character != " " && boxCharacters.contains(character)
    }
}
