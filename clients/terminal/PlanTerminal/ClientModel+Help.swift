import ChronoSketchCore

/// The help screen: the keys the session's role may use (protocol.md §11: a viewer gets no key
/// that proposes, only an owner the settings), scrolled with ↑↓ PgUp PgDn Home End where the
/// terminal is short; any other key closes it.
extension ClientModel {
    /// The keys the role allows, for the help screen.
    public var helpLines: [String] {
        let de = settings.language == .german
        let edits = roleRefusal() == nil
        var lines = [
            (de ? "q            Beenden" : "q            quit"),
            (de ? "? h          Hilfe" : "? h          help"),
            (de
                ? "Tab v        Ansicht wechseln (Liste, Zeitachse, Ressourcen, Verlauf)"
                : "Tab v        switch view (list, timeline, resources, history)"),
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
            (de ? "w            Sprache: English / Deutsch" : "w            language: English / Deutsch"),
            (de
                ? "Enter i      Details der Aufgabe und ihre Aktionen"
                : "Enter i      the selected task's details and its actions"),
        ]
        lines += strings.findKeyLines.filter { settings.config.mouse || !$0.hasPrefix(de ? "Maus" : "mouse") }
        for action in TaskAction.allCases
        where !action.isEntryAction && action != .info && action != .baseline && roleRefusal(action) == nil {
            lines.append(String(action.key) + "            " + action.title(settings.language))
        }
        if edits {
            lines.append(
                de
                    ? "M            nach einem Planungskonflikt: auf das früheste Datum verschieben"
                    : "M            after a schedule conflict: move to the earliest date")
        }
        lines.append(strings.planInfoKeyLine)
        lines += strings.historyKeyLines(edits: edits)
        lines.append(de ? "Ressourcen:" : "Resources:")
        lines += strings.resourceKeyLines.filter { line in
            TaskAction.entryActions.allSatisfy { action in
                roleRefusal(action) == nil || !line.hasPrefix(String(action.key) + " ")
            }
        }
        if edits {
            lines += strings.formKeyLines
        }
        let bound = settings.config.bindings.bound
        if !bound.isEmpty {
            let keys = bound.map { KeyName.name($0.key).padded(to: 12) + " " + $0.action.rawValue }
            lines = [strings.boundKeysHeading] + keys + lines
        }
        return lines
    }

    /// The help lines as the screen shows them: a line wider than the screen goes on below its
    /// key, indented like the other descriptions.
    public var helpRows: [String] {
        let indent = String(repeating: " ", count: 13)
        return helpLines.flatMap { line -> [String] in
            let wrapped = line.wrapped(to: width - 2)
            guard let first = wrapped.first, line.hasPrefix(first), wrapped.count > 1 else { return wrapped }
            let rest = String(line.dropFirst(first.count)).drop { $0 == " " }
            return [first] + String(rest).wrapped(to: width - 2 - indent.count).map { indent + $0 }
        }
    }

    /// How many help lines fit between the title and the closing line.
    var helpPage: Int { max(height - 5, 1) }

    /// A key while the help is open: scrolling keys scroll, any other closes it.
    mutating func pressInHelp(_ key: Key) {
        let last = max(helpRows.count - helpPage, 0)
        switch key {
        case .up, .character("k"): helpTop -= 1
        case .down, .character("j"): helpTop += 1
        case .pageUp: helpTop -= helpPage
        case .pageDown, .character(" "): helpTop += helpPage
        case .home: helpTop = 0
        case .end: helpTop = last
        case .mouse(let event) where event.kind == .wheelUp: helpTop -= ClientModel.wheelRows
        case .mouse(let event) where event.kind == .wheelDown: helpTop += ClientModel.wheelRows
        case .mouse: return
        default:
            showsHelp = false
            helpTop = 0
            return
        }
        helpTop = min(max(helpTop, 0), last)
    }

    func drawHelp(into canvas: inout TextCanvas, y: Int) {
        canvas.write(strings.helpTitle, x: 1, y: y, style: .bold)
        let lines = helpRows
        let shown = helpTop..<min(helpTop + helpPage, lines.count)
        for (offset, line) in lines[shown].enumerated() {
            canvas.write(line.truncated(to: width - 2), x: 1, y: y + 1 + offset)
        }
        let close =
            shown.count < lines.count ? strings.helpScroll(shown, of: lines.count) : strings.helpClose
        canvas.write(close.truncated(to: width - 2), x: 1, y: y + 1 + shown.count, style: .dim)
    }

    /// The language key: English ↔ German, for every label from the next frame on (a form open
    /// keeps the words it opened with).
    mutating func switchLanguage() {
        settings.language = settings.language == .german ? .english : .german
        message = strings.languageSwitched
    }
}
