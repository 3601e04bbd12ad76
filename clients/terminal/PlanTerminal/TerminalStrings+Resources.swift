import ChronoSketchCore

extension TerminalStrings {
    private var german: Bool { language == .german }

    /// A date and time as the resources view writes it: 2026-09-08 09:00 / 08.09.2026 09:00.
    public func dateTime(_ time: LocalDateTime) -> String {
        let text = time.description
        return date(time.date) + " " + String(text.suffix(5))
    }
    /// A length in minutes: "27 h", "1 h 30 min" / "27 Std.", "1 Std. 30 Min.".
    public func duration(minutes: Int) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        let h = german ? " Std." : " h"
        let m = german ? " Min." : " min"
        if hours == 0 { return String(rest) + m }
        return String(hours) + h + (rest == 0 ? "" : " " + String(rest) + m)
    }
    /// The resources view while its watch's first page has not arrived.
    public var loadingEntries: String { german ? "Lädt …" : "Loading…" }
    /// The resources view after a failed load (short, in the sidebar).
    public var loadFailedShort: String { german ? "Laden fehlgeschlagen" : "Load failed" }
    /// How to retry a failed load.
    public var retryHint: String { german ? "R: Erneut versuchen" : "R: Retry" }
    /// A failed load, with its reason.
    public func loadFailed(_ reason: String) -> String {
        (german ? "Einträge nicht geladen: " : "Entries not loaded: ") + reason
            + (german ? ". R: erneut versuchen." : ". R: retry.")
    }
    /// Why a page was refused (seed 003's validation), in the user's language.
    public func pageProblem(_ error: TimelinePageError) -> String {
        guard german else { return error.description }
        switch error {
        case .duplicateID(let kind, let id):
            let what =
                switch kind {
                case .entry: "den Eintrag"
                case .assignment: "die Zuordnung"
                case .resource: "die Ressource"
                }
            return "die Seite enthält \(what) „\(id)“ zweimal"
        case .entryOutsideQuery(let entryID): return "Eintrag „\(entryID)“ liegt nicht im abgefragten Zeitraum"
        case .unknownEntry(let assignmentID, let entryID):
            return "Zuordnung „\(assignmentID)“ nennt Eintrag „\(entryID)“, den die Seite nicht enthält"
        case .unrequestedResource(let assignmentID, let resourceID):
            return "Zuordnung „\(assignmentID)“ nennt Ressource „\(resourceID)“, die nicht abgefragt wurde"
        }
    }
    /// A collapsed resource's row.
    public var collapsedResource: String {
        german ? "(zugeklappt, nicht geladen; Leertaste klappt auf)" : "(collapsed, not loaded; Space expands)"
    }
    /// No entry is selected in the resources view.
    public var noEntrySelected: String { german ? "Kein Eintrag ausgewählt." : "No entry selected." }
    /// A draft time that is not a `LocalDateTime`.
    public var notATime: String {
        german ? "Ungültiger Zeitpunkt (JJJJ-MM-TTTHH:MM)." : "Not a time (YYYY-MM-DDTHH:MM)."
    }
    /// A draft whose end is not after its start.
    public var endNotAfterStart: String {
        german ? "Das Ende muss nach dem Beginn liegen." : "The end must be after the start."
    }
    /// A new entry without a resource.
    public var noResourceChosen: String {
        german ? "Mindestens eine Ressource wählen (Leertaste)." : "Choose at least one resource (Space)."
    }
    /// A blank title.
    public var titleEmpty: String { german ? "Der Titel ist leer." : "The title is empty." }
    /// Form labels of the entry forms.
    public var entryLabels: (title: String, start: String, end: String, resource: String, resources: String) {
        german
            ? ("Titel", "Beginn", "Ende", "Ressource", "Ressourcen")
            : ("Title", "Start", "End", "Resource", "Resources")
    }
    /// The details' label for the length.
    public var durationLabel: String { german ? "Dauer" : "Length" }
    /// Asks before removing an entry.
    public func confirmRemove(_ title: String) -> String {
        german
            ? "„\(title)“ mit allen Zuordnungen entfernen? Speichern entfernt."
            : "Remove “\(title)” with all its assignments? Save removes it."
    }
    /// The details' list of actions.
    public var entryActionsHeading: String { german ? "Aktionen:" : "Actions:" }

    /// The resources view's keys, for the help screen.
    public var resourceKeyLines: [String] {
        var lines = TaskAction.entryActions.map { action in
            (action == .entryDetails ? "Enter i" : String(action.key)).padded(to: 13) + action.title(language)
        }
        lines.append(german ? "n            nächster Eintrag der Ressource" : "n            next entry of the resource")
        lines.append(
            german
                ? "Leertaste    Ressource zu-/aufklappen (zugeklappt: nicht geladen)"
                : "Space        collapse/expand a resource (collapsed: not loaded)")
        lines.append(german ? "R            Laden erneut versuchen" : "R            retry loading")
        return lines
    }
}
