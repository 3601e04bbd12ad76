import ChronoSketchCore

extension ClientModel {
    /// The resources view: the sidebar (its title and the load state above the resources), the
    /// time headers, and one row per resource with as many lines as its lanes need.
    func drawResources(into canvas: inout TextCanvas, y: Int) {
        let rows = resourceRows
        guard !rows.isEmpty else {
            canvas.write(strings.noResources, x: 1, y: y + 1)
            return
        }
        let renderer = ChartRenderer(language: settings.language, nameWidth: nameWidth)
        let geometry = ResourceChartGeometry(viewport: viewport)
        var chart = TextCanvas(width: geometry.width, height: bodyHeight)
        renderer.drawHeaders(viewport: viewport, into: &chart)
        drawLoadState(into: &canvas, y: y)
        var line = ChartRenderer.headerHeight
        var emptyLine: Int?
        var bars = 0
        for index in visibleResourceRows {
            let resource = rows[index]
            let lanes = lanes(of: resource)
            let collapsed = resources.collapsed.contains(resource.id)
            canvas.write(
                ((collapsed ? "▸ " : "") + resource.label).padded(to: nameWidth), x: 0, y: y + line,
                style: index == selectedIndex ? settings.palette.selection : .normal)
            for lane in 0..<lanes.laneCount { canvas.set("│", x: nameWidth, y: y + line + lane) }
            if collapsed {
                chart.write(strings.collapsedResource, x: 1, y: line, style: .dim)
            } else {
                drawLanes(lanes, of: resource, into: &chart, y: line)
                drawBookingGhost(lanes, of: resource, into: &chart, y: line)
                bars += lanes.placements.count
                emptyLine = emptyLine ?? line
            }
            line += lanes.laneCount
        }
        // A page without an entry in the columns shown says so, rather than blank rows.
        let columns = viewport.axis.columns(in: viewport.visibleColumnRange)
        if bars == 0, case .idle = resources.planner.state, resources.query != nil, let emptyLine,
            let first = columns.first, let last = columns.last
        {
            let text = strings.noEntries(from: first.firstDate, to: last.lastDate)
            chart.write(text.truncated(to: chart.width - 2), x: 1, y: emptyLine, style: .dim)
        }
        for header in 0..<ChartRenderer.headerHeight { canvas.set("│", x: nameWidth, y: y + header) }
        let emphasis = ChartEmphasis(
            calendar: copy?.snapshot.settings.calendar, today: settings.today, palette: settings.palette)
        ChartRenderer.colourDays(
            emphasis.dayKinds(ChartGeometry(viewport: viewport), axis: viewport.axis), palette: emphasis.palette,
            lines: ChartRenderer.headerHeight..<line, into: &chart)
        canvas.draw(chart, x: nameWidth + 1, y: y)
    }

    /// The sidebar's top: the title, then "Loading…" or the failure and how to retry.
    private func drawLoadState(into canvas: inout TextCanvas, y: Int) {
        canvas.write(strings.viewName(.resources).truncated(to: nameWidth), x: 0, y: y, style: .bold)
        switch resources.planner.state {
        case .idle:
            break
        case .loading:
            canvas.write(("⋯ " + strings.loadingEntries).truncated(to: nameWidth), x: 0, y: y + 1, style: .dim)
        case .failed:
            canvas.write(("! " + strings.loadFailedShort).truncated(to: nameWidth), x: 0, y: y + 1, style: .bold)
            canvas.write(strings.retryHint.truncated(to: nameWidth), x: 0, y: y + 2, style: .reverse)
        }
    }

    private func drawLanes(_ lanes: ResourceLanes, of resource: TimelineResource, into chart: inout TextCanvas, y: Int)
    {
        let selected = selectedEntry
        let byAssignment = Dictionary(
            resources.entries(of: resource.id).map { ($0.assignment.id, $0) }, uniquingKeysWith: { first, _ in first })
        for placement in lanes.placements {
            guard let assigned = byAssignment[placement.item.id] else { continue }
            let item = placement.item
            let line = y + placement.lane
            let style: CellStyle = assigned == selected ? settings.palette.selection : .normal
            for cell in item.start..<item.end { chart.set("█", x: cell, y: line, style: style) }
            let title = barTitle(assigned.entry)
            if item.titleInside {
                chart.write(title, x: item.start + 1, y: line, style: .reverse)
            } else {
                chart.write(title.truncated(to: item.titleWidth), x: item.end + 1, y: line, style: .dim)
            }
        }
    }
}
