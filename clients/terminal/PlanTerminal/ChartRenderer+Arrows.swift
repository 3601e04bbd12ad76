import ChronoSketchCore

/// Where a chart's cells fall for one viewport: column units to cells, the cells that hold dates,
/// and the cells each mark covers.
struct ChartGeometry {
    /// Terminal cells per chart column.
    let cellsPerColumn: Int
    /// The first visible column.
    let origin: Double
    /// The cells that hold dates: `0..<limit` (space after the horizon stays empty).
    let limit: Int

    init(viewport: ChartViewport) {
        cellsPerColumn = ChartRenderer.cellsPerColumn(viewport.axis.zoom)
        origin = Double(viewport.firstColumn)
        let horizonCells = Int(((viewport.axis.width - origin) * Double(cellsPerColumn)).rounded(.up))
        limit = max(min(viewport.visibleColumns * cellsPerColumn, horizonCells), 0)
    }

    /// A position in column units as a cell offset from the chart's left edge.
    func cellX(_ x: Double) -> Double { (x - origin) * Double(cellsPerColumn) }

    /// The cells a bar covers, clipped to the chart (at least one when it is visible at all).
    func cells(of bar: ChartBar) -> Range<Int> {
        let start = max(Int((cellX(bar.visibleStartX) + 1e-9).rounded(.down)), 0)
        let end = min(max(Int((cellX(bar.visibleEndX) - 1e-9).rounded(.up)), start + 1), limit)
        return start..<max(start, end)
    }

    /// The cell of a milestone's diamond (possibly outside the chart).
    func cell(ofMilestoneAt x: Double) -> Int { Int(cellX(x).rounded(.down)) }

    /// The cells a row's mark shows in: its bar, its diamond, or its "Unscheduled" label.
    func occupied(by mark: ChartMark) -> Range<Int> {
        switch mark {
        case .bar(let bar): return cells(of: bar)
        case .milestone(let milestone):
            let cell = cell(ofMilestoneAt: milestone.x)
            return cell >= 0 && cell < limit ? cell..<(cell + 1) : 0..<0
        case .unscheduled(let label): return 0..<min(label.displayWidth, limit)
        case .outsideHorizon: return 0..<0
        }
    }

    /// The cell an arrow leaves from: right after its predecessor's bar (unclipped) or diamond;
    /// right before it for an arrow that leaves the start.
    func exitCell(of arrow: DependencyArrow) -> Int {
        if arrow.fromStart {
            return arrow.fromMilestone
                ? cell(ofMilestoneAt: arrow.fromX) - 1 : Int((cellX(arrow.fromX) + 1e-9).rounded(.down)) - 1
        }
        return arrow.fromMilestone
            ? cell(ofMilestoneAt: arrow.fromX) + 1 : Int((cellX(arrow.fromX) - 1e-9).rounded(.up))
    }

    /// The cell of an arrow's head: right before its successor's bar (unclipped) or diamond;
    /// right after it for an arrow that arrives at the end.
    func entryCell(of arrow: DependencyArrow) -> Int {
        if arrow.toEnd {
            return arrow.toMilestone
                ? cell(ofMilestoneAt: arrow.toX) + 1 : Int((cellX(arrow.toX) - 1e-9).rounded(.up))
        }
        return arrow.toMilestone
            ? cell(ofMilestoneAt: arrow.toX) - 1 : Int((cellX(arrow.toX) + 1e-9).rounded(.down)) - 1
    }
}

/// Routes a chart's dependency arrows around what the rows show, and draws them.
///
/// An arrow leaves its predecessor's end rightwards (a start leftwards), runs along rows and
/// columns, and arrives from the left at its successor's start (from the right at an end; an
/// arrow between two starts or two ends runs down the first free column beyond both). It never crosses a bar, diamond or label of any other row: a column it
/// runs down is free in every row it passes, a row it turns on is free where it runs along it. It
/// runs down right after the predecessor when it can; otherwise it turns on a row between the two
/// (the nearest to the successor, preferably where no other arrow runs); without one, it goes back
/// along its own predecessor's row (under its own bar) to a free column before the successor.
/// Rows outside the window and cells outside the chart show nothing, so a route may run there
/// (drawn only as far as it is visible): an arrow from a row above or below the window is routed
/// like any other, and where every column before a successor is taken, the arrow comes in from
/// the chart's left edge.
struct ArrowRouter {
    /// One straight line of a route, from one cell to another (both included).
    enum Segment: Hashable {
        /// Along `row` from cell `from` to cell `to`.
        case horizontal(row: Int, from: Int, to: Int)
        /// Down or up the column `cell` from row `from` to row `to`.
        case vertical(cell: Int, from: Int, to: Int)
    }

    /// An arrow's way: where it leaves, where its head is, and the lines between.
    struct Route: Hashable {
        let arrow: DependencyArrow
        let exit: Int
        let head: Int
        let segments: [Segment]
        /// Whether the first segment (back along the predecessor's own row, under its bar, to a
        /// column outside the chart) is left undrawn: drawn, it would only look like a line
        /// coming into the bar from the left.
        var hidesWayBack = false

        /// Every (row, cell) the route passes, including those outside the window and the chart.
        var cells: [(row: Int, cell: Int)] {
            segments.flatMap { segment -> [(row: Int, cell: Int)] in
                switch segment {
                case .horizontal(let row, let from, let to): ArrowRouter.span(from, to).map { (row, $0) }
                case .vertical(let cell, let from, let to): ArrowRouter.span(from, to).map { ($0, cell) }
                }
            }
        }
    }

    /// The ways a line leaves a cell.
    struct Direction: OptionSet {
        let rawValue: UInt8
        static let up = Direction(rawValue: 1)
        static let down = Direction(rawValue: 2)
        static let left = Direction(rawValue: 4)
        static let right = Direction(rawValue: 8)
    }

    /// The rows shown, as indexes of the row order the arrows use.
    let window: Range<Int>
    /// The chart's cells with dates.
    let limit: Int
    /// Each shown row's occupied cells.
    let occupied: [Range<Int>]
    /// The cells of each shown row where the routes drawn so far run (compact: a plan's whole
    /// chart is routed at once, and only the rows being written are painted).
    private var lines: LineOccupancy

    init(window: Range<Int>, limit: Int, occupied: [Range<Int>]) {
        self.window = window
        self.limit = max(limit, 0)
        self.occupied = occupied
        lines = LineOccupancy(rows: window.count)
    }

    static func span(_ from: Int, _ to: Int) -> [Int] {
        from <= to ? Array(from...to) : Array((to...from).reversed())
    }

    // MARK: Routing

    /// The way of `arrow` (its rows are indexes of the order `window` is a part of).
    func route(_ arrow: DependencyArrow, geometry: ChartGeometry) -> Route {
        let (from, to) = (arrow.fromRow, arrow.toRow)
        let exit = geometry.exitCell(of: arrow)
        let head = geometry.entryCell(of: arrow)
        // Away from the predecessor's mark (leftwards from a start), and from the head away
        // from the successor's mark (rightwards from an end).
        let (out, back) = (arrow.fromStart ? -1 : 1, arrow.toEnd ? 1 : -1)
        func path(_ down: Int, turn: Int?, _ last: Int) -> Route {
            var segments: [Segment] = [.horizontal(row: from, from: exit, to: down)]
            if let turn {
                segments += [
                    .vertical(cell: down, from: from, to: turn), .horizontal(row: turn, from: down, to: last),
                    .vertical(cell: last, from: turn, to: to),
                ]
            } else {
                segments.append(.vertical(cell: down, from: from, to: to))
            }
            segments.append(.horizontal(row: to, from: last, to: head))
            return Route(arrow: arrow, exit: exit, head: head, segments: segments)
        }
        let between = ArrowRouter.between(from, to)
        if out == back {
            // Both ends on the same side (start to start, end to end): down the first free column
            // beyond both.
            let column = freeColumn(from: out > 0 ? max(exit, head) : min(exit, head), step: out, rows: between)
            return path(column, turn: nil, column)
        }
        if (exit - head) * out <= 0 {
            let column = freeColumn(from: exit, step: out, rows: between)
            if (column - head) * out <= 0 { return path(column, turn: nil, column) }
        }
        for avoidingLines in [true, false] {
            for turn in turnRows(between, nearestTo: to) {
                let down = freeColumn(from: exit, step: out, rows: ArrowRouter.between(from, turn))
                let last = freeColumn(from: head, step: back, rows: ArrowRouter.between(turn, to))
                let along = min(down, last)...max(down, last)
                guard isFree(row: turn, cells: along), !avoidingLines || hasNoLines(row: turn, cells: along) else {
                    continue
                }
                return path(down, turn: turn, last)
            }
        }
        // Back along the predecessor's own row, down a free column before the successor.
        let column = freeColumn(from: head, step: back, rows: between)
        var wayBack = path(column, turn: nil, column)
        wayBack.hidesWayBack = back < 0 ? column < 0 && column < exit : column >= limit && column > exit
        return wayBack
    }

    /// The rows strictly between two rows.
    static func between(_ a: Int, _ b: Int) -> Range<Int> {
        (min(a, b) + 1)..<max(max(a, b), min(a, b) + 1)
    }

    /// The rows an arrow may turn on, nearest to `row` first: every shown row of `between`, and
    /// one row for each part of it outside the window (all of them are alike: empty).
    private func turnRows(_ between: Range<Int>, nearestTo row: Int) -> [Int] {
        guard !between.isEmpty else { return [] }
        let shown = between.clamped(to: window)
        var rows: [Int]
        if shown.isEmpty {
            rows = [between.lowerBound]
        } else {
            rows = Array(shown)
            if between.lowerBound < shown.lowerBound { rows.insert(shown.lowerBound - 1, at: 0) }
            if shown.upperBound < between.upperBound { rows.append(shown.upperBound) }
        }
        return row > between.lowerBound ? rows.reversed() : rows
    }

    /// The first column from `start` on (rightwards for `step` 1, leftwards for -1) that is free in
    /// every one of `rows`. Columns outside the chart are free.
    private func freeColumn(from start: Int, step: Int, rows: Range<Int>) -> Int {
        let shown = rows.clamped(to: window)
        var column = start
        while column >= 0 && column < limit {
            guard let blocker = shown.first(where: { occupied[$0 - window.lowerBound].contains(column) }) else {
                return column
            }
            let cells = occupied[blocker - window.lowerBound]
            column = step > 0 ? cells.upperBound : cells.lowerBound - 1
        }
        return column
    }

    /// Whether `row` shows nothing in `cells` (rows outside the window, cells outside the chart do).
    private func isFree(row: Int, cells: ClosedRange<Int>) -> Bool {
        guard window.contains(row), let shown = clip(cells) else { return true }
        let taken = occupied[row - window.lowerBound]
        return taken.isEmpty || !(taken.lowerBound <= shown.upperBound && shown.lowerBound < taken.upperBound)
    }

    /// Whether no arrow drawn so far runs in `cells` of `row`.
    private func hasNoLines(row: Int, cells: ClosedRange<Int>) -> Bool {
        guard window.contains(row), let shown = clip(cells) else { return true }
        return lines.isFree(row: row - window.lowerBound, cells: shown)
    }

    private func clip(_ cells: ClosedRange<Int>) -> ClosedRange<Int>? {
        let lower = max(cells.lowerBound, 0)
        let upper = min(cells.upperBound, limit - 1)
        return lower <= upper ? lower...upper : nil
    }

    // MARK: Drawing

    /// Adds a route to the lines later routes avoid turning on.
    mutating func draw(_ route: Route) {
        let lower = window.lowerBound
        route.forEachLineCell(rows: window, limit: limit) { row, cell, _ in lines.insert(row: row - lower, cell: cell) }
    }
}
