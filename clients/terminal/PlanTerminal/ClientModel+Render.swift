import ChronoSketchCore
import PlanProtocol

extension ClientModel {
    /// The whole screen: heading, view bar, the body of the current view (or help, loading, an
    /// empty-plan message), a form on top, and the footer.
    public func render() -> TextCanvas {
        var canvas = TextCanvas(width: width, height: height)
        drawHeading(into: &canvas)
        drawViewBar(into: &canvas)
        // Body.
        let bodyY = 2
        if showsHelp {
            drawHelp(into: &canvas, y: bodyY)
        } else if planInfo.shown {
            drawPlanInfo(into: &canvas, y: bodyY)
        } else if let dataError {
            canvas.write(dataError.truncated(to: width - 1), x: 1, y: bodyY + 1)
        } else if copy == nil {
            canvas.write(strings.loading, x: 1, y: bodyY + 1)
        } else if mode == .resources {
            drawResources(into: &canvas, y: bodyY)
        } else if mode == .history {
            drawHistory(into: &canvas, y: bodyY)
        } else if outline.count == 0 {
            let empty =
                find.filter.map { find.filter == .critical && find.criticalIDs == nil ? "" : strings.filterEmpty($0) }
                ?? (roleRefusal(.addTask) == nil ? strings.emptyPlan : strings.emptyPlanReadOnly)
            for (offset, line) in empty.wrapped(to: width - 2).enumerated() {
                canvas.write(line, x: 1, y: bodyY + 1 + offset)
            }
        } else {
            drawTasks(into: &canvas, y: bodyY)
        }
        // Form: at the bottom, so that the selected row and its pending marker stay in view; never
        // over the footer (a box taller than the body is cut, saying so with "…").
        if let form, !showsHelp, !planInfo.shown {
            let box = form.canvas(
                width: min(width - 2, 72), strings: strings, maxHeight: height - 1 - bodyY,
                selection: settings.palette.selection)
            canvas.draw(box, x: max((width - box.width) / 2, 0), y: max(height - 1 - box.height, bodyY))
        }
        // Footer.
        // A line being typed (search, date) comes first, then a message, then the search and filter kept.
        let line = findLine
        var footer = line ?? message ?? findStatus ?? (mode == .history ? historyFooter : strings.footerHint)
        if !pending.isEmpty { footer = strings.pendingCount(pending.count) + "  " + footer }
        let style: CellStyle = line != nil ? .normal : message == nil ? .dim : .bold
        canvas.write(footer.truncated(to: width), x: 0, y: height - 1, style: style)
        return canvas
    }

    /// Whether the connection is down (reconnecting or closed).
    var isOffline: Bool {
        switch connection {
        case .reconnecting, .closed: true
        case .connecting, .connected: false
        }
    }

    /// The heading: the title left, connection · version · role · presence right. Offline, a
    /// reversed banner first says so with what waits to be sent.
    private func drawHeading(into canvas: inout TextCanvas) {
        let title = settings.title ?? copy?.snapshot.title ?? strings.defaultTitle
        var status = isOffline ? [] : [strings.connection(connection)]
        if let copy { status.append(strings.version(copy.version)) }
        if roleEnded || role != nil { status.append(strings.headingRole(role)) }
        if !scheduling.pushed.isEmpty { status.append(strings.pushed(scheduling.pushed.count)) }
        if !presence.isEmpty {
            let users = Set(presence.map(\.user)).sorted().joined(separator: ", ")
            status.append(strings.presence(presence.count) + " (" + users + ")")
        }
        var x = 0
        if isOffline {
            let banner = (" " + strings.offlineBanner(connection, queued: pending.count) + " ").truncated(to: width)
            canvas.write(banner, x: 0, y: 0, style: .reverse)
            canvas.restyle(x: 0, y: 0, count: banner.displayWidth, style: .reverse)
            x = banner.displayWidth + 1
        }
        let right = status.joined(separator: " · ").truncated(to: max(width - x - 6, 0))
        let room = width - x - right.displayWidth - 2
        if room >= 4 { canvas.write(title.truncated(to: room), x: x, y: 0, style: .bold) }
        canvas.write(right, x: max(width - right.displayWidth, x), y: 0)
    }

    /// The view bar: the views, then the zoom, the horizon and the navigation keys (or the past
    /// version shown). Where the row is short the dates go first, the keys last.
    private func drawViewBar(into canvas: inout TextCanvas) {
        var x = 0
        for view in ViewMode.allCases {
            let name = " " + strings.viewName(view) + " "
            canvas.write(name, x: x, y: 1, style: view == mode ? .reverse : .normal)
            x += name.displayWidth + 1
        }
        if let past = history.past, mode == .list || mode == .timeline {
            let banner = strings.pastBanner(past.version, current: copy?.version)
            canvas.write(banner.truncated(to: max(width - x - 2, 0)), x: x + 2, y: 1, style: .reverse)
            return
        }
        guard mode == .timeline || mode == .resources else { return }
        let horizon = settings.horizon
        let keys =
            (viewport.canMovePrevious ? "◀ [" : "  ") + " t " + (viewport.canMoveNext ? "] ▶" : "  ")
        let zoom = strings.zoom(viewport.axis.zoom)
        let dates = strings.date(horizon.start) + " – " + strings.date(horizon.lastDate)
        let room = width - x - 2
        let candidates = [zoom + "  " + dates + "  " + keys, zoom + "  " + keys, keys]
        let info = candidates.first { $0.displayWidth <= room } ?? keys
        canvas.write(info, x: x + 2, y: 1, style: .dim)
        if let shadow = history.shadow, mode == .timeline {
            let label = strings.shadowLabel(shadow.name, version: shadow.version)
            let at = x + 4 + info.displayWidth
            canvas.write(label.truncated(to: max(width - at, 0)), x: at, y: 1, style: .dim)
        }
    }

    /// The list or the timeline: only the rows on screen are built, and only the arrows that touch
    /// them (those entering from rows above or below included).
    private func drawTasks(into canvas: inout TextCanvas, y: Int) {
        guard let shown = shownCollection else { return }
        let pendingIDs = history.past == nil ? pendingTaskIDs : []
        if mode == .list {
            let window = rows(topRow..<(topRow + bodyHeight - 1))
            ListRenderer(language: settings.language).draw(
                rows: window, into: &canvas, y: y, width: width, height: bodyHeight, selectedID: selectedTask?.id,
                pendingIDs: pendingIDs, emphasis: chartEmphasis(window))
            return
        }
        let window = rows(topRow..<(topRow + bodyHeight - ChartRenderer.headerHeight))
        let arrows = taskViews.arrows(
            of: outline, touching: topRow..<(topRow + window.count), in: shown, axis: viewport.axis)
        ChartRenderer(language: settings.language, nameWidth: nameWidth).draw(
            window: window, firstRow: topRow, arrows: arrows, viewport: viewport, into: &canvas, y: y,
            height: bodyHeight, selectedID: selectedTask?.id, pendingIDs: pendingIDs,
            baseline: history.past == nil ? history.shadow?.rows : nil, emphasis: chartEmphasis(window))
        drawDragGhost(window: window, into: &canvas, y: y)
    }

    /// The chart's emphasis for `window`: the plan calendar, the critical, pushed and late tasks,
    /// today and the colours (for a past version, whose settings and figures are not at hand,
    /// only the colours of the selection and of today).
    func chartEmphasis(_ window: [TaskRow]) -> ChartEmphasis {
        let palette = settings.palette
        guard history.past == nil else { return ChartEmphasis(today: settings.today, palette: palette) }
        return ChartEmphasis(
            calendar: copy?.snapshot.settings.calendar,
            critical: Set(window.lazy.map(\.id).filter { scheduling.isCritical($0) }),
            pushed: scheduling.pushed, late: Set(window.lazy.filter { $0.isLate(today: settings.today) }.map(\.id)),
            today: settings.today, palette: palette)
    }
}

extension TaskRow {
    /// Whether the task is late on `today`: an activity or group whose last day is before today
    /// and that is not done.
    func isLate(today: CivilDate) -> Bool {
        guard let last = lastDate, last < today, let progress else { return false }
        if case .milestone = task.kind { return false }
        return progress < 100
    }
}
