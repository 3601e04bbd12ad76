import ChronoSketchCore
import PlanProtocol

extension ClientModel {
    /// The whole screen: heading, view bar, the body of the current view (or help, loading, an
    /// empty-plan message), a form on top, and the footer.
    public func render() -> TextCanvas {
        var canvas = TextCanvas(width: width, height: height)
        let strings = strings
        // Heading: title left, connection · version · role · presence right.
        let title = settings.title ?? copy?.snapshot.title ?? strings.defaultTitle
        var status = [strings.connection(connection)]
        if let copy { status.append(strings.version(copy.version)) }
        if roleEnded || role != nil { status.append(strings.headingRole(role)) }
        if !scheduling.pushed.isEmpty { status.append(strings.pushed(scheduling.pushed.count)) }
        if !presence.isEmpty {
            let users = Set(presence.map(\.user)).sorted().joined(separator: ", ")
            status.append(strings.presence(presence.count) + " (" + users + ")")
        }
        let right = status.joined(separator: " · ")
        canvas.write(title.truncated(to: max(width - right.count - 2, 4)), x: 0, y: 0, style: .bold)
        canvas.write(right, x: max(width - right.count, 0), y: 0)
        // View bar.
        var x = 0
        for view in ViewMode.allCases {
            let name = " " + strings.viewName(view) + " "
            canvas.write(name, x: x, y: 1, style: view == mode ? .reverse : .normal)
            x += name.count + 1
        }
        if let past = history.past, mode == .list || mode == .timeline {
            canvas.write(strings.pastBanner(past.version, current: copy?.version), x: x + 2, y: 1, style: .reverse)
        } else if mode == .timeline || mode == .resources {
            let horizon = settings.horizon
            let info =
                strings.zoom(viewport.axis.zoom) + "  " + strings.date(horizon.start) + " – "
                + strings.date(horizon.lastDate) + "  " + (viewport.canMovePrevious ? "◀ [" : "  ") + " t "
                + (viewport.canMoveNext ? "] ▶" : "  ")
            canvas.write(info, x: x + 2, y: 1, style: .dim)
            if let shadow = history.shadow, mode == .timeline {
                canvas.write(
                    strings.shadowLabel(shadow.name, version: shadow.version), x: x + 4 + info.count, y: 1, style: .dim)
            }
        }
        // Body.
        let bodyY = 2
        if showsHelp {
            drawHelp(into: &canvas, y: bodyY)
        } else if let dataError {
            canvas.write(dataError, x: 1, y: bodyY + 1)
        } else if copy == nil {
            canvas.write(strings.loading, x: 1, y: bodyY + 1)
        } else if mode == .resources {
            drawResources(into: &canvas, y: bodyY)
        } else if mode == .history {
            drawHistory(into: &canvas, y: bodyY)
        } else if outline.count == 0 {
            let empty = roleRefusal(.addTask) == nil ? strings.emptyPlan : strings.emptyPlanReadOnly
            canvas.write(empty, x: 1, y: bodyY + 1)
        } else {
            drawTasks(into: &canvas, y: bodyY)
        }
        // Form.
        if let form, !showsHelp {
            let box = form.canvas(width: min(width - 2, 72), strings: strings)
            // At the bottom, so that the selected row and its pending marker stay in view.
            canvas.draw(box, x: max((width - box.width) / 2, 0), y: max(height - 1 - box.height, bodyY))
        }
        // Footer.
        var footer = message ?? (mode == .history ? strings.historyFooterHint : strings.footerHint)
        if !pending.isEmpty {
            footer = "⋯ \(pending.count) " + (settings.language == .german ? "ausstehend" : "pending") + "  " + footer
        }
        canvas.write(footer.truncated(to: width), x: 0, y: height - 1, style: message == nil ? .dim : .bold)
        return canvas
    }

    /// The list or the timeline: only the rows on screen are built, and only the arrows that touch
    /// them (those entering from rows above or below included).
    private func drawTasks(into canvas: inout TextCanvas, y: Int) {
        guard let shown = shownCollection else { return }
        let pendingIDs = history.past == nil ? pendingTaskIDs : []
        if mode == .list {
            ListRenderer(language: settings.language).draw(
                rows: rows(topRow..<(topRow + bodyHeight - 1)), into: &canvas, y: y, width: width, height: bodyHeight,
                selectedID: selectedTask?.id, pendingIDs: pendingIDs)
            return
        }
        let window = rows(topRow..<(topRow + bodyHeight - ChartRenderer.headerHeight))
        let arrows = taskViews.arrows(
            of: outline, touching: topRow..<(topRow + window.count), in: shown, axis: viewport.axis)
        ChartRenderer(language: settings.language, nameWidth: nameWidth).draw(
            window: window, firstRow: topRow, arrows: arrows, viewport: viewport, into: &canvas, y: y,
            height: bodyHeight, selectedID: selectedTask?.id, pendingIDs: pendingIDs,
            baseline: history.past == nil ? history.shadow?.rows : nil, emphasis: chartEmphasis(window))
    }

    /// The chart's emphasis for `window`: the plan calendar, the critical and the pushed tasks
    /// (none for a past version, whose settings and figures are not at hand).
    private func chartEmphasis(_ window: [TaskRow]) -> ChartEmphasis {
        guard history.past == nil else { return .none }
        return ChartEmphasis(
            calendar: copy?.snapshot.settings.calendar,
            critical: Set(window.lazy.map(\.id).filter { scheduling.isCritical($0) }),
            pushed: scheduling.pushed)
    }

    /// Every key, for the help screen.
    public var helpLines: [String] {
        let de = settings.language == .german
        var lines = [
            (de ? "q            Beenden" : "q            quit"),
            (de ? "? h          Hilfe" : "? h          help"),
            (de
                ? "Tab v        Ansicht wechseln (Liste, Zeitachse, Ressourcen)"
                : "Tab v        switch view (list, timeline, resources)"),
            (de
                ? "↑ ↓ j k      Auswahl bewegen; Bild↑ Bild↓ Pos1 Ende"
                : "↑ ↓ j k      move the selection; PgUp PgDn Home End"),
            (de
                ? "Leertaste    Gruppe auf-/zuklappen (Liste: ← zu, → auf)"
                : "Space        collapse/expand a group (list: ← collapse, → expand)"),
            (de
                ? "← [  → ]     Zeitachse: vorherige/nächste halbe Breite"
                : "← [  → ]     timeline: previous/next half width"),
            (de ? "t            Heute" : "t            today"),
            (de
                ? "+ -          Zoom (1, 2, 4, 6, 8 Tage je Spalte)"
                : "+ -          zoom (1, 2, 4, 6, 8 days per column)"),
            (de
                ? "Enter i      Details der Aufgabe und ihre Aktionen"
                : "Enter i      the selected task's details and its actions"),
        ]
        for action in TaskAction.allCases where !action.isEntryAction && action != .info {
            lines.append(String(action.key) + "            " + action.title(settings.language))
        }
        lines.append(
            de
                ? "M            nach einem Planungskonflikt: auf das früheste Datum verschieben"
                : "M            after a schedule conflict: move to the earliest date")
        lines += strings.historyKeyLines
        lines.append(de ? "Ressourcen:" : "Resources:")
        lines += strings.resourceKeyLines
        lines.append(
            de
                ? "Formulare: Tab/↑↓ Feld, ←→ Wert, Enter Speichern, Esc Schließen"
                : "Forms: Tab/↑↓ field, ←→ value, Enter on Save, Esc close")
        return lines
    }

    private func drawHelp(into canvas: inout TextCanvas, y: Int) {
        canvas.write(strings.helpTitle, x: 1, y: y, style: .bold)
        for (offset, line) in helpLines.enumerated() { canvas.write(line, x: 1, y: y + 1 + offset) }
        canvas.write(strings.helpClose, x: 1, y: y + 2 + helpLines.count, style: .dim)
    }
}
