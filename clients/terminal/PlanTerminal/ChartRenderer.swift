import ChronoSketchCore

/// What the chart stresses besides the rows: the plan calendar's non-working days (shaded "·"
/// in empty cells), the critical tasks (their marks in the critical style), the tasks the last
/// version pushed (their marks reversed, for a moment), and with colours (`palette`) late tasks,
/// the done part of bars, the columns of weekends, holidays and today, and the selection.
public struct ChartEmphasis: Sendable, Hashable {
    /// The plan calendar; nil or every day working shades nothing.
    public var calendar: PlanCalendar?
    /// The ids of the critical tasks among the rows drawn.
    public var critical: Set<String>
    /// The ids of the pushed tasks among the rows drawn.
    public var pushed: Set<String>
    /// The ids of the late tasks among the rows drawn (their last day before today, not done).
    public var late: Set<String>
    /// Today, for its column (nil: not marked).
    public var today: CivilDate?
    /// The colours; `.none` draws as before colours.
    public var palette: Palette

    /// Emphasis from its parts.
    public init(
        calendar: PlanCalendar? = nil, critical: Set<String> = [], pushed: Set<String> = [], late: Set<String> = [],
        today: CivilDate? = nil, palette: Palette = .none
    ) {
        self.calendar = calendar
        self.critical = critical
        self.pushed = pushed
        self.late = late
        self.today = today
        self.palette = palette
    }

    /// Nothing stressed.
    public static let none = ChartEmphasis()

    /// The style of a row's mark (`done`: a cell of its bar's done part).
    func style(of id: String, done: Bool = false) -> CellStyle {
        if pushed.contains(id) { return .reverse }
        if critical.contains(id) { return palette.critical }
        if late.contains(id) && palette.depth != .none { return palette.late }
        return done && palette.depth != .none ? palette.done : .normal
    }

    /// Per chart cell (`0..<geometry.limit`), the kind of the day at its middle; empty without
    /// colours (nothing to show then).
    func dayKinds(_ geometry: ChartGeometry, axis: TimeAxis) -> [DayKind] {
        guard palette.depth != .none else { return [] }
        return Self.perCell(geometry, axis: axis) { DayKind.of($0, today: today, calendar: calendar) }
    }

    /// Per chart cell (`0..<geometry.limit`), whether the day at its middle is not worked.
    func nonWorkingCells(_ geometry: ChartGeometry, axis: TimeAxis) -> [Bool] {
        guard let calendar, calendar != .allDaysWorking else { return [] }
        return Self.perCell(geometry, axis: axis) { !calendar.isWorkingDay($0) }
    }

    /// `value` of the day at the middle of each chart cell (`0..<geometry.limit`).
    private static func perCell<Value>(
        _ geometry: ChartGeometry, axis: TimeAxis, _ value: (CivilDate) -> Value
    ) -> [Value] {
        (0..<max(geometry.limit, 0)).map { cell in
            value(axis.date(atX: geometry.origin + (Double(cell) + 0.5) / Double(geometry.cellsPerColumn)))
        }
    }
}

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

    /// Terminal cells per chart column: 3 for single days ("30"), 4 for two days (labelled by
    /// their first, "29"), 6 for longer ranges ("28–31"). Each zoom has its own scale: 3, 2, 1.5,
    /// 1 and 0.75 cells per day.
    public static func cellsPerColumn(_ zoom: TimelineZoom) -> Int {
        switch zoom {
        case .oneDay: 3
        case .twoDays: 4
        default: 6
        }
    }

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
        pendingIDs: Set<String> = [], baseline: [String: TaskRow]? = nil, emphasis: ChartEmphasis = .none
    ) {
        let bodyHeight = max(height - ChartRenderer.headerHeight, 0)
        let shown = firstRow..<max(firstRow, min(firstRow + bodyHeight, rows.count))
        draw(
            window: Array(rows[shown]), firstRow: shown.lowerBound,
            arrows: viewport.axis.dependencyArrows(rows: rows, dependencies: dependencies), viewport: viewport,
            into: &canvas, x: x, y: y, height: height, selectedID: selectedID, pendingIDs: pendingIDs,
            baseline: baseline, emphasis: emphasis)
    }

    /// Draws the chart of a window of rows: `window` holds the rows `firstRow..<firstRow +
    /// window.count` of some row order (the rest of it is neither built nor looked at), and
    /// `arrows` the dependency arrows between rows of that order (by its indexes) that touch the
    /// window: arrows that enter it from rows above or below are drawn as far as they are visible.
    /// Otherwise as `draw(rows:dependencies:…)`.
    public func draw(
        window: [TaskRow], firstRow: Int, arrows: [DependencyArrow], viewport: ChartViewport,
        into canvas: inout TextCanvas, x: Int = 0, y: Int = 0, height: Int, selectedID: String? = nil,
        pendingIDs: Set<String> = [], baseline: [String: TaskRow]? = nil, emphasis: ChartEmphasis = .none
    ) {
        let bodyHeight = max(height - ChartRenderer.headerHeight, 0)
        let window = Array(window.prefix(bodyHeight))
        let routed = route(arrows, rows: window, firstRow: firstRow, viewport: viewport)
        let part = ChartPart(
            rows: window[...], firstRow: firstRow, lines: bodyHeight, headers: true,
            looks: ChartLooks(selectedID: selectedID, pendingIDs: pendingIDs, baseline: baseline, emphasis: emphasis))
        draw(part, routed: routed, viewport: viewport, into: &canvas, x: x, y: y)
    }

    /// Draws a part of a chart whose arrows `routed` holds (routed over a window of rows that
    /// includes the part's): its headers when it has them, then its rows, each line as the
    /// chart of the whole window draws it.
    func draw(
        _ part: ChartPart, routed: (router: ArrowRouter, routes: [ArrowRouter.Route]), viewport: ChartViewport,
        into canvas: inout TextCanvas, x: Int, y: Int
    ) {
        let top = part.headers ? ChartRenderer.headerHeight : 0
        var chart = TextCanvas(
            width: viewport.visibleColumns * ChartRenderer.cellsPerColumn(viewport.axis.zoom), height: top + part.lines)
        let years = part.headers ? drawHeaders(viewport: viewport, into: &chart) : nil
        let geometry = ChartGeometry(viewport: viewport)
        let emphasis = part.looks.emphasis
        for (offset, row) in part.rows.enumerated() {
            drawMark(
                viewport.axis.mark(for: row, language: language), line: top + offset, geometry: geometry, id: row.id,
                emphasis: emphasis, into: &chart)
        }
        let rows = part.firstRow..<(part.firstRow + part.rows.count)
        ArrowRouter.paint(routed.routes, rows: rows, limit: routed.router.limit, into: &chart, top: top)
        drawLabels(of: routed.routes, rows: rows, top: top, router: routed.router, into: &chart)
        if let baseline = part.looks.baseline {
            for (offset, row) in part.rows.enumerated() {
                guard let old = baseline[row.id] else { continue }
                drawShadow(
                    viewport.axis.mark(for: old, language: language), line: top + offset, geometry: geometry,
                    into: &chart)
            }
        }
        let nonWorking = emphasis.nonWorkingCells(geometry, axis: viewport.axis)
        for (cell, shaded) in nonWorking.enumerated() where shaded {
            for line in top..<(top + part.rows.count) where chart.character(x: cell, y: line) == " " {
                chart.set("·", x: cell, y: line, style: .dim)
            }
        }
        ChartRenderer.colourDays(
            emphasis.dayKinds(geometry, axis: viewport.axis), palette: emphasis.palette, labels: part.headers,
            lines: top..<(top + part.rows.count), into: &chart)
        drawNames(part, years: years, into: &canvas, x: x, y: y)
        canvas.draw(chart, x: x + nameWidth + 1, y: y)
    }

    /// The pinned name column of a part (with its header lines when it has them) and its separator.
    private func drawNames(_ part: ChartPart, years: String?, into canvas: inout TextCanvas, x: Int, y: Int) {
        let names = ListRenderer(language: language)
        var top = y
        if part.headers {
            canvas.write((years ?? "").padded(to: nameWidth), x: x, y: y, style: .bold)
            canvas.write(names.strings.taskColumn.padded(to: nameWidth), x: x, y: y + 2, style: .bold)
            for header in 0..<ChartRenderer.headerHeight { canvas.set("│", x: x + nameWidth, y: y + header) }
            top += ChartRenderer.headerHeight
        }
        for (offset, row) in part.rows.enumerated() {
            let line = top + offset
            let selected = row.id == part.looks.selectedID
            canvas.write(
                names.name(of: row, pending: part.looks.pendingIDs.contains(row.id)).padded(to: nameWidth), x: x,
                y: line, style: selected ? part.looks.emphasis.palette.selection : .normal)
            canvas.set("│", x: x + nameWidth, y: line)
        }
    }

    /// Colours the columns of weekends, holidays and today (`kinds`, per cell): the day labels of
    /// the header's last row (when the chart has `labels`), and the empty or shaded cells of
    /// `lines`. Nothing without colours.
    static func colourDays(
        _ kinds: [DayKind], palette: Palette, labels: Bool = true, lines: Range<Int>, into chart: inout TextCanvas
    ) {
        for (cell, kind) in kinds.enumerated() where kind != .workday {
            if labels {
                let label = chart.style(x: cell, y: headerHeight - 1)
                chart.restyle(x: cell, y: headerHeight - 1, count: 1, style: palette.dayLabel(kind, base: label))
            }
            for line in lines {
                switch chart.character(x: cell, y: line) {
                case " ": chart.restyle(x: cell, y: line, count: 1, style: CellStyle().on(palette.background(kind)))
                case "·": chart.restyle(x: cell, y: line, count: 1, style: palette.dayLabel(kind, base: .dim))
                default: break
                }
            }
        }
    }

    /// The routes of `arrows` around the marks of `rows` (the rows `firstRow..<firstRow +
    /// rows.count` of the arrows' order), each one routed after those before it (it prefers rows
    /// where they do not run), and the router that knows where they run.
    func route(_ arrows: [DependencyArrow], rows: some Collection<TaskRow>, firstRow: Int, viewport: ChartViewport)
        -> (router: ArrowRouter, routes: [ArrowRouter.Route])
    {
        let geometry = ChartGeometry(viewport: viewport)
        var router = ArrowRouter(
            window: firstRow..<(firstRow + rows.count), limit: geometry.limit,
            occupied: rows.map { geometry.occupied(by: viewport.axis.mark(for: $0, language: language)) })
        var routes: [ArrowRouter.Route] = []
        routes.reserveCapacity(arrows.count)
        for arrow in arrows {
            let route = router.route(arrow, geometry: geometry)
            router.draw(route)
            routes.append(route)
        }
        return (router, routes)
    }

    /// The routes `draw(window:firstRow:arrows:…)` draws for a chart `height` cells high.
    func routes(
        window: [TaskRow], firstRow: Int, arrows: [DependencyArrow], viewport: ChartViewport, height: Int
    ) -> [ArrowRouter.Route] {
        route(
            arrows, rows: window.prefix(max(height - ChartRenderer.headerHeight, 0)), firstRow: firstRow,
            viewport: viewport
        )
        .routes
    }

    /// A row's bar, diamond or label.
    private func drawMark(
        _ mark: ChartMark, line: Int, geometry: ChartGeometry, id: String, emphasis: ChartEmphasis,
        into chart: inout TextCanvas
    ) {
        let style = emphasis.style(of: id)
        switch mark {
        case .bar(let bar):
            let cells = geometry.cells(of: bar)
            let filled = Int(geometry.cellX(bar.visibleFilledEndX).rounded())
            let doneStyle = emphasis.style(of: id, done: true)
            for cell in cells {
                let isFilled = cell < filled && bar.hasVisibleFill
                let character: Character = bar.isSummary ? (isFilled ? "▓" : "▒") : (isFilled ? "█" : "░")
                chart.set(character, x: cell, y: line, style: isFilled ? doneStyle : style)
            }
        case .milestone(let milestone):
            let cell = geometry.cell(ofMilestoneAt: milestone.x)
            if cell >= 0, cell < geometry.limit { chart.set("◆", x: cell, y: line, style: style) }
        case .unscheduled(let label):
            chart.write(label, x: 0, y: line, style: .dim, limit: geometry.limit)
        case .outsideHorizon:
            break
        }
    }

    /// Each typed or lagged arrow's label on its successor's row, beside the successor's mark
    /// (after it, else before it) where every cell it needs shows nothing; left out otherwise.
    /// Only those of successors in `rows` (indexes of the arrows' order; the first at line `top`).
    private func drawLabels(
        of routes: [ArrowRouter.Route], rows: Range<Int>, top: Int, router: ArrowRouter,
        into chart: inout TextCanvas
    ) {
        for route in routes {
            guard rows.contains(route.arrow.toRow),
                let text = TerminalStrings(language).dependencyLabel(route.arrow.dependency)
            else { continue }
            let line = top + route.arrow.toRow - rows.lowerBound
            let mark = router.occupied[route.arrow.toRow - router.window.lowerBound]
            let near = min(mark.lowerBound, route.head)
            let far = max(mark.upperBound, route.head + 1)
            for start in [far + 1, near - 1 - text.displayWidth] {
                let cells = start..<(start + text.displayWidth)
                guard start >= 0, cells.upperBound <= router.limit,
                    cells.allSatisfy({ chart.character(x: $0, y: line) == " " })
                else { continue }
                chart.write(text, x: start, y: line, style: .dim)
                break
            }
        }
    }

    /// A baseline's mark in the cells of `line` that show nothing.
    private func drawShadow(_ mark: ChartMark, line: Int, geometry: ChartGeometry, into chart: inout TextCanvas) {
        switch mark {
        case .bar(let bar):
            for cell in geometry.cells(of: bar) where chart.character(x: cell, y: line) == " " {
                chart.set("▁", x: cell, y: line, style: .dim)
            }
        case .milestone(let milestone):
            let cell = geometry.cell(ofMilestoneAt: milestone.x)
            if cell >= 0, cell < geometry.limit, chart.character(x: cell, y: line) == " " {
                chart.set("◇", x: cell, y: line, style: .dim)
            }
        case .unscheduled, .outsideHorizon:
            break
        }
    }
}
