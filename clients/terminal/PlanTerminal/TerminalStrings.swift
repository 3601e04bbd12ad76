import ChronoSketchCore

/// Every label and message the terminal client shows, in English or German.
public struct TerminalStrings: Sendable, Hashable {
    /// The language of the labels.
    public let language: PlanLanguage

    /// The strings of `language`.
    public init(_ language: PlanLanguage) {
        self.language = language
    }

    var de: Bool { language == .german }

    /// The default heading.
    public var defaultTitle: String { de ? "Aufgabenplanung" : "Task Manager" }
    /// The name column's heading.
    public var taskColumn: String { de ? "Aufgabe" : "Task" }
    /// The kind of a task.
    public func kind(_ kind: GanttTaskKind) -> String {
        switch kind {
        case .activity: de ? "Vorgang" : "Activity"
        case .milestone: de ? "Meilenstein" : "Milestone"
        case .summary: de ? "Gruppe" : "Summary"
        }
    }
    /// The list's column headings: kind, dates, progress.
    public var listHeadings: (kind: String, dates: String, progress: String) {
        de ? ("Art", "Termine", "Fortschritt") : ("Kind", "Dates", "Progress")
    }
    /// A date as the list writes it: 2026-09-08 / 08.09.2026.
    public func date(_ date: CivilDate) -> String {
        guard de else { return date.description }
        let (year, month, day) = date.components
        return (day < 10 ? "0" : "") + String(day) + "." + (month < 10 ? "0" : "") + String(month) + "."
            + String(year)
    }
    /// Shown until the first snapshot.
    public var loading: String { de ? "Plan wird geladen …" : "Loading plan…" }
    /// Shown for a plan without tasks.
    public var emptyPlan: String {
        de
            ? "Dieser Plan hat noch keine Aufgaben. Mit „a“ eine Aufgabe hinzufügen."
            : "This plan has no tasks yet. Press “a” to add a task."
    }
    /// Shown for a plan without tasks to someone who may not add one.
    public var emptyPlanReadOnly: String { de ? "Dieser Plan hat noch keine Aufgaben." : "This plan has no tasks yet." }
    /// A row's marker while one of its proposals waits for the server.
    public var pendingMarker: String { de ? "(ausstehend)" : "(pending)" }
    /// The view names.
    public func viewName(_ mode: ViewMode) -> String {
        switch mode {
        case .list: de ? "Liste" : "List"
        case .timeline: de ? "Zeitachse" : "Timeline"
        case .resources: de ? "Ressourcen" : "Resources"
        case .history: de ? "Verlauf" : "History"
        }
    }
    /// The connection state.
    public func connection(_ state: ConnectionState) -> String {
        switch state {
        case .connecting: de ? "verbinde …" : "connecting…"
        case .connected: de ? "verbunden" : "connected"
        case .reconnecting(let reason):
            (de ? "getrennt, neuer Versuch" : "disconnected, reconnecting") + (reason.isEmpty ? "" : " (\(reason))")
        case .closed(let reason): (de ? "getrennt" : "disconnected") + (reason.isEmpty ? "" : " (\(reason))")
        }
    }
    /// "v12".
    public func version(_ version: Int) -> String { "v\(version)" }
    /// "3 here" / "3 anwesend".
    public func presence(_ count: Int) -> String { de ? "\(count) anwesend" : "\(count) here" }
    /// "zoom 4 d".
    public func zoom(_ zoom: TimelineZoom) -> String {
        (de ? "Zoom " : "zoom ") + String(zoom.daysPerColumn) + (de ? " T." : " d")
    }
    /// The footer hint.
    public var footerHint: String {
        de ? "?: Hilfe  Tab: Ansicht  Enter: Details  q: Beenden" : "?: help  Tab: view  Enter: details  q: quit"
    }
    /// A resource view without resources.
    public var noResources: String { de ? "Dieser Plan hat keine Ressourcen." : "This plan has no resources." }
    /// A proposal confirmed.
    public var saved: String { de ? "Gespeichert." : "Saved." }
    /// A proposal confirmed without change.
    public var unchanged: String { de ? "Keine Änderung." : "Nothing changed." }
    /// The data of the copy is invalid.
    public func invalidData(_ reason: String) -> String {
        (de ? "Die Plandaten sind ungültig: " : "The plan data is invalid: ") + reason
    }
    /// A server error message.
    public func serverError(_ message: String) -> String { (de ? "Serverfehler: " : "Server error: ") + message }
    /// No task is selected.
    public var noSelection: String { de ? "Keine Aufgabe ausgewählt." : "No task selected." }
    /// The selected kind does not allow the action.
    public var actionUnavailable: String {
        de ? "Diese Aktion ist für diese Aufgabe nicht verfügbar." : "This action is not available for this task."
    }
    /// The help screen heading.
    public var helpTitle: String { de ? "Tasten" : "Keys" }
    /// Closing the help screen.
    public var helpClose: String {
        de ? "Eine beliebige Taste schließt die Hilfe." : "Press any key to close the help."
    }

    /// The localized reason of a rejection code.
    public func rejection(_ code: RejectionCode) -> String {
        switch code {
        case .staleTask:
            de
                ? "Die Aufgabe wurde inzwischen geändert oder entfernt."
                : "The task was changed or removed in the meantime."
        case .duplicateID: de ? "Diese ID gibt es schon." : "This id is already in use."
        case .blankID: de ? "Die ID darf nicht leer sein." : "The id must not be blank."
        case .identityChanged: de ? "Die ID einer Aufgabe kann nicht geändert werden." : "A task's id cannot change."
        case .invalidProgress: de ? "Der Fortschritt muss zwischen 0 und 100 liegen." : "Progress must be 0 to 100."
        case .invalidSchedule: de ? "Der Zeitraum ist ungültig." : "The dates are not valid."
        case .invalidHierarchy:
            de
                ? "Diese Gruppe ist nicht möglich (keine Gruppe oder ein Zyklus)."
                : "That group is not possible (not a summary, or a cycle)."
        case .invalidDependency: de ? "Diese Abhängigkeit ist nicht erlaubt." : "That dependency is not allowed."
        case .duplicateDependency: de ? "Diese Abhängigkeit gibt es schon." : "That dependency already exists."
        case .dependencyCycle: de ? "Die Abhängigkeit ergäbe einen Zyklus." : "The dependency would form a cycle."
        case .staleDependency: de ? "Die Abhängigkeit gibt es nicht mehr." : "The dependency no longer exists."
        case .staleEntry: de ? "Der Eintrag wurde inzwischen geändert." : "The entry was changed in the meantime."
        case .staleAssignment:
            de ? "Die Zuordnung wurde inzwischen geändert." : "The assignment was changed in the meantime."
        case .unknownResource: de ? "Diese Ressource gibt es nicht." : "That resource does not exist."
        case .invalidInterval: de ? "Der Zeitraum ist ungültig." : "The interval is not valid."
        case .forbidden: de ? "Keine Berechtigung zum Bearbeiten." : "You may not edit this plan."
        case .rateLimited: de ? "Zu viele Änderungen; bitte kurz warten." : "Too many changes; wait a moment."
        case .badMessage: de ? "Der Vorschlag war fehlerhaft." : "The proposal was malformed."
        case .unknownPlan: de ? "Diesen Plan gibt es nicht." : "This plan does not exist."
        case .tooLarge: de ? "Die Änderung ist zu groß." : "The change is too large."
        case .unavailable: de ? "Der Server ist gerade nicht verfügbar." : "The server is unavailable right now."
        case .notUndoable: de ? "Das lässt sich nicht rückgängig machen." : "That cannot be undone."
        case .historyUnavailable:
            de ? "Diese Version ist nicht mehr im Verlauf." : "That version is no longer in the history."
        case .staleBaseline: de ? "Diese Basislinie gibt es nicht mehr." : "That baseline no longer exists."
        case .scheduleConflict:
            de
                ? "Eine Abhängigkeit erlaubt diesen Termin nicht."
                : "A dependency does not allow that date."
        case .staleSettings:
            de
                ? "Die Planungseinstellungen wurden inzwischen geändert."
                : "The scheduling settings were changed in the meantime."
        case .invalidCalendar: de ? "Dieser Kalender ist ungültig." : "That calendar is not valid."
        }
    }
    /// "Rejected: …".
    public func rejected(_ code: RejectionCode) -> String { (de ? "Abgelehnt: " : "Rejected: ") + rejection(code) }
}
