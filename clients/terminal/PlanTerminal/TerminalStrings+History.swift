import ChronoSketchCore
import PlanProtocol

extension TerminalStrings {
    /// A `history` or `fetch` the server refused.
    public func historyError(_ code: ProtocolErrorCode) -> String {
        switch code {
        case .historyUnavailable:
            de ? "Diese Version ist nicht (mehr) im Verlauf." : "That version is not in the history (any more)."
        default: (de ? "Verlauf nicht lesbar: " : "The history could not be read: ") + code.rawValue
        }
    }
    /// While the history is read.
    public var historyLoading: String { de ? "Der Verlauf wird geladen …" : "Loading the history…" }
    /// No own change to undo.
    public var nothingToUndo: String {
        de ? "Keine eigene Änderung zum Rückgängigmachen." : "Nothing of yours to undo."
    }
    /// No undo to redo.
    public var nothingToRedo: String { de ? "Nichts zum Wiederherstellen." : "Nothing to redo." }
    /// An undo sent.
    public func undoing(_ version: Int) -> String {
        de ? "v\(version) wird rückgängig gemacht …" : "Undoing v\(version)…"
    }
    /// An undo confirmed.
    public func undone(_ version: Int, now: Int) -> String {
        de ? "v\(version) rückgängig gemacht (jetzt v\(now))." : "Undid v\(version) (now v\(now))."
    }
    /// A redo sent: the undo of an undo, named by the version it brings back.
    public func redoing(_ version: Int) -> String {
        de ? "v\(version) wird wiederhergestellt …" : "Redoing v\(version)…"
    }
    /// A redo confirmed.
    public func redone(_ version: Int, now: Int) -> String {
        de ? "v\(version) wiederhergestellt (jetzt v\(now))." : "Redid v\(version) (now v\(now))."
    }
    /// An undo rejected: who changed it since, when known.
    public func notUndone(_ version: Int, _ code: RejectionCode, changedBy: (user: String, version: Int)?) -> String {
        let head = de ? "v\(version) nicht rückgängig gemacht: " : "v\(version) not undone: "
        guard let changedBy else { return head + rejection(code) }
        return head
            + (de
                ? "seitdem von \(changedBy.user) geändert (v\(changedBy.version))."
                : "changed since by \(changedBy.user) (v\(changedBy.version)).")
    }
    /// A past version asked for.
    public func loadingVersion(_ version: Int) -> String {
        de ? "Version \(version) wird geladen …" : "Loading version \(version)…"
    }
    /// Editing refused while a past version is shown.
    public func readOnly(_ version: Int) -> String {
        de
            ? "Nur lesen: das ist Version \(version). Esc führt zum aktuellen Plan zurück."
            : "Read-only: this is version \(version). Esc returns to the live plan."
    }
    /// The banner over a past version.
    public func pastBanner(_ version: Int, current: Int?) -> String {
        let of = current.map { de ? " von \($0)" : " of \($0)" } ?? ""
        return de
            ? "VERSION \(version)\(of) · NUR LESEN · Esc: aktuell" : "VERSION \(version)\(of) · READ-ONLY · Esc: live"
    }
    /// Back from a past version.
    public var backToLive: String { de ? "Aktueller Plan." : "The live plan." }
    /// B without baselines.
    public var noBaselines: String {
        de ? "Dieser Plan hat keine Basislinien (b setzt eine)." : "This plan has no baselines (b sets one)."
    }
    /// The shadow turned off.
    public var shadowOff: String { de ? "Keine Basislinie gezeigt." : "No baseline shown." }
    /// A baseline shown as the shadow.
    public func shadowOn(_ name: String, version: Int) -> String {
        (de ? "Basislinie „\(name)“ (v\(version)) als Schatten ▁" : "Baseline “\(name)” (v\(version)) as the shadow ▁")
    }
    /// The view bar's note of the shadow.
    public func shadowLabel(_ name: String, version: Int) -> String {
        (de ? "Basislinie ▁ " : "baseline ▁ ") + name + " (v\(version))"
    }
    /// The shadow's baseline was removed.
    public func shadowEnded(_ name: String) -> String {
        de ? "Die Basislinie „\(name)“ wurde entfernt." : "The baseline “\(name)” was removed."
    }
    /// The history view's column headings.
    public var historyHeadings: (version: String, time: String, user: String, change: String) {
        de ? ("Version", "Zeit", "Wer", "Änderung") : ("Version", "Time", "Who", "Change")
    }
    /// Below the last entry.
    /// `oldest`: the oldest version listed (below `logStart` for a log kept only in part).
    public func historyEnd(logStart: Int?, more: Bool, oldest: Int? = nil) -> String {
        if more { return de ? "… ältere Versionen: ↓ lädt weitere" : "… older versions: ↓ loads more" }
        if let logStart, let oldest, oldest < logStart {
            return de
                ? "Anfang des Verlaufs; die Versionen vor v\(logStart) sind nicht mehr lesbar"
                : "Start of the history; the versions before v\(logStart) are no longer kept"
        }
        return de ? "Anfang des Verlaufs (v\(logStart ?? 0))" : "Start of the history (v\(logStart ?? 0))"
    }
    /// Marks a listed version below the log's start.
    public var notKept: String { de ? "(nicht mehr lesbar)" : "(no longer kept)" }
    /// Enter or z on a version below the log's start.
    public func versionNotKept(_ version: Int, logStart: Int) -> String {
        de
            ? "v\(version) liegt vor dem Anfang des Verlaufs (v\(logStart)): sie lässt sich nicht mehr öffnen oder rückgängig machen."
            : "v\(version) is before the start of the history (v\(logStart)): it can no longer be opened or undone."
    }
    /// The history view's footer hint.
    public var historyFooterHint: String {
        de
            ? "↑↓: wählen  Enter: öffnen (nur lesen)  z: rückgängig  Tab: Ansicht  q: Beenden"
            : "↑↓: choose  Enter: open (read-only)  z: undo it  Tab: view  q: quit"
    }
    /// An empty history.
    public var historyEmpty: String { de ? "Noch keine Versionen." : "No versions yet." }
    /// The mark of an undone version.
    public func undoneBy(_ version: Int) -> String { de ? "↶ v\(version)" : "↶ v\(version)" }
    /// An RFC 3339 UTC time as the history shows it, in local time: "2026-12-01 11:15" /
    /// "01.12.2026 11:15"; with `offset`, the offset after it ("… 11:15 UTC+01:00").
    public func time(_ at: String, in zone: LocalTime = .utc, offset: Bool = false) -> String {
        guard let local = zone.local(at) else { return at }
        return date(local.date) + " " + local.time + (offset ? " " + LocalTime.describe(offset: local.offset) : "")
    }
    /// The history's footer on a version: its full time with the offset and, where that is not
    /// UTC, the time in UTC: "v12: 2026-12-01 11:15 UTC+01:00 (10:15 UTC)".
    public func versionTime(_ version: Int, at: String, in zone: LocalTime) -> String {
        let utc = LocalTime.utc.local(at)
        let local = zone.local(at)
        let inUTC = local?.offset == 0 ? "" : utc.map { " (" + $0.time + " UTC)" } ?? ""
        return "v\(version): " + time(at, in: zone, offset: true) + inUTC
    }
    /// `--baseline NAME` names no baseline.
    public func unknownBaseline(_ name: String, known: String) -> String {
        (de ? "keine Basislinie „\(name)“" : "no baseline “\(name)”")
            + (known.isEmpty
                ? (de ? " (der Plan hat keine)" : " (the plan has none)")
                : (de ? " (vorhanden: " : " (there are: ") + known + ")")
    }
    /// The help lines of the history's keys.
    public func historyKeyLines(edits: Bool) -> [String] {
        guard edits else {
            return de
                ? [
                    "B            eine Basislinie als Schatten zeigen",
                    "Verlauf:     ↑↓ Version wählen, Enter öffnet sie (nur lesen, Esc zurück)",
                ]
                : [
                    "B            show a baseline as a shadow",
                    "History:     ↑↓ choose a version, Enter opens it (read-only, Esc back)",
                ]
        }
        return de
            ? [
                "z Z          eigene letzte Änderung rückgängig / wiederherstellen",
                "b B          Basislinie setzen oder entfernen / als Schatten zeigen",
                "Verlauf:     ↑↓ Version wählen, Enter öffnet sie (nur lesen, Esc zurück), z macht sie rückgängig",
            ]
            : [
                "z Z          undo / redo your own last change",
                "b B          set or remove a baseline / show one as a shadow",
                "History:     ↑↓ choose a version, Enter opens it (read-only, Esc back), z undoes it",
            ]
    }
}
