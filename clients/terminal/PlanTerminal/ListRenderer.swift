import ChronoSketchCore

/// The hierarchical list: one line per visible row with disclosure, kind, dates and progress.
public struct ListRenderer: Sendable {
    /// The labels' language.
    public let strings: TerminalStrings

    /// A renderer for `language`.
    public init(language: PlanLanguage) {
        strings = TerminalStrings(language)
    }

    /// The width of the dates column: two dates and " – ".
    var datesWidth: Int { 2 * 10 + 3 }
    /// The width of the kind column.
    var kindWidth: Int { 11 }
    /// The width of the progress column.
    var progressWidth: Int { 11 }

    /// The name cell of a row: indentation, disclosure (▾ expanded, ▸ collapsed), title and a
    /// pending marker.
    func name(of row: TaskRow, pending: Bool) -> String {
        let disclosure = row.task.kind.isSummary ? (row.isCollapsed ? "▸ " : "▾ ") : "  "
        let indent = String(repeating: "  ", count: row.depth)
        return indent + disclosure + row.task.title + (pending ? " " + strings.pendingMarker : "")
    }

    /// The dates cell: "start – lastDate", one date for a milestone, or "Unscheduled".
    func dates(of row: TaskRow) -> String {
        guard let start = row.start, let last = row.lastDate else { return strings.language.unscheduledLabel }
        if case .milestone = row.task.kind { return strings.date(start) }
        return strings.date(start) + " – " + strings.date(last)
    }

    /// The progress cell: the activity's progress or the summary's derived mean, rounded; blank
    /// for a milestone.
    func progress(of row: TaskRow) -> String {
        guard let progress = row.progress else { return "" }
        return String(Int(progress.rounded())) + " %"
    }

    /// Draws the heading line and the rows `firstRow..<firstRow + height - 1` into `canvas` at
    /// (`x`, `y`), `width` cells wide, marking `selectedID` and the ids with pending proposals;
    /// with colours (`emphasis.palette`), a critical task's name, a late task's dates and a done
    /// task's progress in their colours.
    public func draw(
        rows: [TaskRow], into canvas: inout TextCanvas, x: Int = 0, y: Int = 0, width: Int, height: Int,
        firstRow: Int = 0, selectedID: String? = nil, pendingIDs: Set<String> = [], emphasis: ChartEmphasis = .none
    ) {
        guard height > 0 else { return }
        let nameWidth = max(width - kindWidth - datesWidth - progressWidth - 3, 8)
        let headings = strings.listHeadings
        let heading =
            strings.taskColumn.padded(to: nameWidth) + " " + headings.kind.padded(to: kindWidth) + " "
            + headings.dates.padded(to: datesWidth) + " " + headings.progress.leftPadded(to: progressWidth)
        canvas.write(heading, x: x, y: y, style: .bold, limit: width)
        for (offset, index) in (firstRow..<min(firstRow + height - 1, rows.count)).enumerated() {
            let row = rows[index]
            let line =
                name(of: row, pending: pendingIDs.contains(row.id)).padded(to: nameWidth) + " "
                + strings.kind(row.task.kind).padded(to: kindWidth) + " " + dates(of: row).padded(to: datesWidth) + " "
                + progress(of: row).leftPadded(to: progressWidth)
            let selected = row.id == selectedID
            let palette = emphasis.palette
            canvas.write(line, x: x, y: y + 1 + offset, style: selected ? palette.selection : .normal, limit: width)
            if selected {
                canvas.restyle(x: x, y: y + 1 + offset, count: width, style: palette.selection)
            } else if palette.depth != .none {
                colourStatus(of: row, emphasis: emphasis, into: &canvas, x: x, y: y + 1 + offset, nameWidth: nameWidth)
            }
        }
    }

    /// A row's status by colour: the name of a critical task, the dates of a late one, the
    /// progress of a done one.
    private func colourStatus(
        of row: TaskRow, emphasis: ChartEmphasis, into canvas: inout TextCanvas, x: Int, y: Int, nameWidth: Int
    ) {
        let palette = emphasis.palette
        if emphasis.critical.contains(row.id) { canvas.restyle(x: x, y: y, count: nameWidth, style: palette.critical) }
        let datesX = x + nameWidth + 1 + kindWidth + 1
        if emphasis.late.contains(row.id) { canvas.restyle(x: datesX, y: y, count: datesWidth, style: palette.late) }
        if let progress = row.progress, progress >= 100 {
            canvas.restyle(x: datesX + datesWidth + 1, y: y, count: progressWidth, style: palette.done)
        }
    }

    /// The whole list as plain text, `width` columns wide; with `predecessors` (the titles of a
    /// row's predecessors), a last column names them (`plan show`: the one place a script or a
    /// screen reader sees the dependencies).
    public func text(
        rows: [TaskRow], width: Int = 100, slack: ((TaskRow) -> String)? = nil,
        predecessors: ((TaskRow) -> [String])? = nil
    ) -> String {
        var canvas = TextCanvas(width: width, height: rows.count + 1)
        draw(rows: rows, into: &canvas, width: width, height: rows.count + 1)
        guard predecessors != nil || slack != nil else { return canvas.text }
        let lines = canvas.lines
        // The optional columns after the list: slack (the server's figures), then predecessors.
        var heading = lines[0].padded(to: width)
        if slack != nil { heading += "  " + strings.slackColumn.padded(to: ListRenderer.slackWidth) }
        if predecessors != nil { heading += "  " + strings.predecessorsColumn }
        var text = heading.withoutTrailingSpaces + "\n"
        for (row, line) in zip(rows, lines.dropFirst()) {
            var rowText = line.padded(to: width)
            if let slack { rowText += "  " + slack(row).padded(to: ListRenderer.slackWidth) }
            if let predecessors { rowText += "  " + predecessors(row).joined(separator: ", ") }
            text += rowText.withoutTrailingSpaces + "\n"
        }
        return text
    }

    /// The width of the slack column of `plan show`.
    static let slackWidth = 14
}
