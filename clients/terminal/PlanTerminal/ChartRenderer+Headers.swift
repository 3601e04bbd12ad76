import ChronoSketchCore

extension ChartRenderer {
    /// Draws the three header rows; returns the visible years ("2026", "2026–2027") when a month
    /// label had to leave its year out (a narrow section at a coarse zoom), for the corner above
    /// the names: the year is never missing from the month header.
    @discardableResult
    func drawHeaders(viewport: ChartViewport, into chart: inout TextCanvas) -> String? {
        let axis = viewport.axis
        let cells = ChartRenderer.cellsPerColumn(axis.zoom)
        let visible = viewport.visibleColumnRange
        let origin = Double(viewport.firstColumn)
        let width = chart.width
        let sectionRows = [
            axis.monthSections(language: language, overlapping: visible),
            axis.weekSections(language: language, overlapping: visible),
        ]
        var years: [Int] = []
        var yearLeftOut = false
        for (line, sections) in sectionRows.enumerated() {
            for section in sections {
                let start = Int(((section.startX - origin) * Double(cells)).rounded())
                let end = min(Int(((section.endX - origin) * Double(cells)).rounded()), width)
                guard end > max(start, 0) else { continue }
                var labelStart = max(start, 0)
                if start > 0 {
                    chart.set("▏", x: start, y: line, style: .dim)
                    labelStart += 1
                }
                // The label stays at the visible left edge of its section, with one cell to spare.
                let label = section.label.fitting(end - labelStart - 1)
                if let label { chart.write(label, x: labelStart, y: line, style: line == 0 ? .bold : .normal) }
                if case .month(let year, _) = section.period {
                    years.append(year)
                    if label?.contains(String(year)) != true { yearLeftOut = true }
                }
            }
        }
        for column in axis.columns(in: visible) {
            let start = (column.index - viewport.firstColumn) * cells
            // Two-day columns are too narrow for most ranges: each is named by its first day.
            let label = cells < 6 ? AxisLabel([column.label.shortest]) : column.label
            if let text = label.fitting(cells - 1) { chart.write(text, x: start, y: 2) }
        }
        guard yearLeftOut, let first = years.min(), let last = years.max() else { return nil }
        return first == last ? String(first) : String(first) + "–" + String(last)
    }
}
