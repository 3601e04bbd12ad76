import ChronoSketchCore

/// The words of the search, the filter, the "go to" keys, the pickers, the mouse and the
/// configuration file.
extension TerminalStrings {
    /// "3 of 41", "no match" (with the query when it is given: "no match for “x”").
    public func matchCount(_ current: Int?, of count: Int, query: String) -> String {
        guard count > 0 else {
            if query.isEmpty { return de ? "kein Treffer" : "no match" }
            return de ? "kein Treffer für „\(query)“" : "no match for “\(query)”"
        }
        let position = current.map { String($0 + 1) } ?? "–"
        return de ? "\(position) von \(count)" : "\(position) of \(count)"
    }
    /// The search line's keys.
    public var searchHint: String {
        de ? "Enter: behalten · Esc: zurück · ↓↑: nächster/voriger" : "Enter: keep · Esc: back · ↓↑: next/previous"
    }
    /// `n` or `N` without a match.
    public func noMatch(_ query: String) -> String {
        de ? "Kein Treffer für „\(query)“." : "No match for “\(query)”."
    }
    /// The date line's prompt.
    public var goToDatePrompt: String { de ? "Gehe zu Datum (JJJJ-MM-TT, TT.MM.JJJJ): " : "Go to date (YYYY-MM-DD): " }
    /// The footer after `g`.
    public var goPrefixHint: String {
        de
            ? "g …  g: erste Zeile · 0–9: ein Datum (2026-10-01, 01.10.2026) · andere Taste: nichts"
            : "g …  g: first row · 0–9: a date (2026-10-01) · any other key: nothing"
    }
    /// A date line that names no date.
    public func notADate(_ text: String) -> String {
        de ? "„\(text)“ ist kein Datum (JJJJ-MM-TT oder TT.MM.JJJJ)." : "“\(text)” is not a date (YYYY-MM-DD)."
    }
    /// A date outside the timeline's horizon (shown at its nearest edge).
    public func outsideHorizon(_ date: CivilDate, from start: CivilDate, to last: CivilDate) -> String {
        de
            ? "\(self.date(date)) liegt außerhalb der Zeitachse (\(self.date(start)) – \(self.date(last)))."
            : "\(self.date(date)) is outside the timeline (\(self.date(start)) – \(self.date(last)))."
    }
    /// `f` on a task without dates.
    public func noBar(_ title: String) -> String {
        de ? "„\(title)“ hat keine Termine: kein Balken." : "“\(title)” has no dates: no bar."
    }
    /// A filter's name.
    public func filterName(_ filter: TaskFilter) -> String {
        switch filter {
        case .mine: de ? "meine" : "mine"
        case .late: de ? "verspätet" : "late"
        case .unscheduled: de ? "ohne Termin" : "unscheduled"
        case .critical: de ? "kritisch" : "critical"
        }
    }
    /// The filter line (after `F`).
    public func filterChoices(_ current: TaskFilter?) -> String {
        let choices = TaskFilter.allCases.map { String($0.key) + " " + filterName($0) }.joined(separator: " · ")
        let now = current.map { de ? " (jetzt: \(filterName($0)))" : " (now: \(filterName($0)))" } ?? ""
        return (de ? "Nur zeigen: " : "Show only: ") + choices + (de ? " · x alle" : " · x all") + now
    }
    /// The filter on, with the rows it shows.
    public func filterStatus(_ filter: TaskFilter, rows: Int) -> String {
        de
            ? "Filter: \(filterName(filter)) (\(rows) Zeilen; F x: aus)"
            : "filter: \(filterName(filter)) (\(rows) rows; F x: off)"
    }
    /// The critical filter before the figures arrived.
    public var filterWaiting: String {
        de ? "Filter: kritisch – der kritische Pfad wird geladen …" : "filter: critical – loading the critical path…"
    }
    /// A filter that keeps no task.
    public func filterEmpty(_ filter: TaskFilter) -> String {
        switch filter {
        case .mine:
            de
                ? "Keine Aufgabe, die Sie geändert haben (in den Versionen, die der Client kennt). F x: Filter aus."
                : "No task you changed (in the versions the client holds). F x: filter off."
        case .late: de ? "Keine verspätete Aufgabe. F x: Filter aus." : "No late task. F x: filter off."
        case .unscheduled: de ? "Jede Aufgabe hat Termine. F x: Filter aus." : "Every task has dates. F x: filter off."
        case .critical: de ? "Keine kritische Aufgabe. F x: Filter aus." : "No critical task. F x: filter off."
        }
    }
    /// Search and filter keys for the help.
    public var findKeyLines: [String] {
        de
            ? [
                "/            Titel suchen (beim Tippen; Enter behält, Esc zurück); n N nächster/voriger",
                "F            Filter: m meine · l verspätet · u ohne Termin · c kritisch · x aus",
                "gg G         erste / letzte Zeile; Strg-D Strg-U halbe Seite",
                "g<Datum>     zu einem Datum: g, eine Ziffer öffnet die Zeile (2026-10-01, 01.10.2026)",
                "f            zum Balken der Aufgabe",
                "Maus         Klick wählt (auch eine Buchung), Rad rollt, Balken oder Buchung ziehen verschiebt",
            ]
            : [
                "/            search titles (as you type; Enter keeps, Esc returns); n N next/previous",
                "F            filter: m mine · l late · u unscheduled · c critical · x off",
                "gg G         first / last row; Ctrl-D Ctrl-U half a page",
                "g<date>      go to a date: g, then a digit opens the line (2026-10-01)",
                "f            go to the selected task's bar",
                "mouse        click selects (a booking too), wheel scrolls, drag a bar or booking to move it",
            ]
    }
}

extension TerminalStrings {
    /// The forms' keys for the help: fields, values, line editing, pickers.
    public var formKeyLines: [String] {
        de
            ? [
                "Formulare: Tab/↑↓ Feld, Enter Speichern, Esc Schließen; Auswahl: ←→ Wert",
                "  Text: ←→ Cursor, Pos1/Ende Strg-A/E, Strg-W Wort, Strg-U bis Anfang, Strg-K bis Ende,",
                "  Entf; Umschalt-←→ Datum, Zeit oder Zahl um eins; Suchfelder: tippen grenzt ein, Enter wählt",
                "  mehrere (Ressourcen): Enter hakt an/ab, Rücktaste bei leerer Suche entfernt die letzte",
            ]
            : [
                "Forms: Tab/↑↓ field, Enter on Save, Esc close; choices: ←→ value",
                "  Text: ←→ cursor, Home/End Ctrl-A/E, Ctrl-W word, Ctrl-U to start, Ctrl-K to end, Delete;",
                "  Shift-←→ a date, time or number by one; pickers: type to narrow, Enter picks",
                "  several (resources): Enter ticks/unticks, Backspace on an empty query removes the last",
            ]
    }
}
