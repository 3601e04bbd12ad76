import ChronoSketchCore

/// What a chart stresses in its rows: the selection, the tasks with a proposal on the way, a
/// baseline's shadows and the emphasis (see `ChartRenderer.draw`).
struct ChartLooks {
    var selectedID: String?
    var pendingIDs: Set<String> = []
    var baseline: [String: TaskRow]?
    var emphasis: ChartEmphasis = .none
}

/// A part of a chart to draw: some consecutive rows of the row order the arrows use, in a
/// chart `lines` rows high (below its headers when it has them; lines past the rows stay blank).
struct ChartPart {
    /// The part's rows: `firstRow..<firstRow + rows.count` of the order.
    var rows: ArraySlice<TaskRow>
    var firstRow: Int
    var lines: Int
    var headers: Bool
    var looks: ChartLooks
}

extension ChartRenderer {
    /// The rows `writeText` draws at a time, unless told otherwise.
    public static let textBandRows = 500

    /// The chart as plain text: headers and every row, `width` cells wide (nil: the whole horizon),
    /// with a baseline's shadow when `baseline` is given (see `draw`).
    public func text(
        rows: [TaskRow], dependencies: [TaskDependency], horizon: ChartHorizon, zoom: TimelineZoom,
        width: Int? = nil, baseline: [String: TaskRow]? = nil
    ) -> String {
        var text = ""
        writeText(
            rows: rows, dependencies: dependencies, horizon: horizon, zoom: zoom, width: width, baseline: baseline
        ) { text += $0 }
        return text
    }

    /// `text(rows:…)` handed to `write` a band of `bandRows` rows at a time (the headers with the
    /// first): the arrows are routed once over the whole chart, on what each row shows and where
    /// earlier arrows run (a range of cells per row, not a grid), and only one band's cells are
    /// held at a time, so a chart of 100,000 rows takes no more memory than one of 500. The
    /// text is the same whatever the band.
    public func writeText(
        rows: [TaskRow], dependencies: [TaskDependency], horizon: ChartHorizon, zoom: TimelineZoom,
        width: Int? = nil, baseline: [String: TaskRow]? = nil, bandRows: Int = ChartRenderer.textBandRows,
        write: (String) -> Void
    ) {
        let axis = TimeAxis(horizon: horizon, zoom: zoom)
        let columns = width.map { visibleColumns(forWidth: $0, zoom: zoom) } ?? axis.columnCount
        let viewport = ChartViewport(axis: axis, visibleColumns: min(columns, axis.columnCount))
        let total = nameWidth + 1 + viewport.visibleColumns * ChartRenderer.cellsPerColumn(zoom)
        let routed = route(
            viewport.axis.dependencyArrows(rows: rows, dependencies: dependencies), rows: rows, firstRow: 0,
            viewport: viewport)
        let band = max(bandRows, 1)
        var start = 0
        repeat {
            let end = min(start + band, rows.count)
            let part = ChartPart(
                rows: rows[start..<end], firstRow: start, lines: end - start, headers: start == 0,
                looks: ChartLooks(baseline: baseline))
            var canvas = TextCanvas(width: total, height: (part.headers ? ChartRenderer.headerHeight : 0) + part.lines)
            draw(part, routed: routed, viewport: viewport, into: &canvas, x: 0, y: 0)
            write(canvas.text)
            start = end
        } while start < rows.count
    }
}
