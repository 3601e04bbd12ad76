import ChronoSketchCore

extension TerminalStrings {
    /// The footer's count of proposals waiting for the server: "⋯ 2 pending".
    public func pendingCount(_ count: Int) -> String { "⋯ \(count) " + (de ? "ausstehend" : "pending") }

    /// The heading's banner while the connection is down, with what waits to be sent:
    /// "⚠ OFFLINE – disconnected, reconnecting – 2 changes queued".
    public func offlineBanner(_ state: ConnectionState, queued: Int) -> String {
        let queue: String
        switch queued {
        case 0: queue = de ? "nichts in der Warteschlange" : "nothing queued"
        case 1: queue = de ? "1 Änderung in der Warteschlange" : "1 change queued"
        default: queue = de ? "\(queued) Änderungen in der Warteschlange" : "\(queued) changes queued"
        }
        return "⚠ OFFLINE – " + connection(state) + " – " + queue
    }

    /// The resources view when no resource has an entry in the columns shown.
    public func noEntries(from start: CivilDate, to end: CivilDate) -> String {
        de
            ? "Keine Einträge von \(date(start)) bis \(date(end))."
            : "No entries from \(date(start)) to \(date(end))."
    }

    /// The footer after the language key: "Language: English." / "Sprache: Deutsch."
    public var languageSwitched: String { de ? "Sprache: Deutsch." : "Language: English." }

    /// The help screen's last line while it scrolls: the lines shown of how many, and the keys.
    public func helpScroll(_ shown: Range<Int>, of count: Int) -> String {
        let range = "\(shown.lowerBound + 1)–\(shown.upperBound) / \(count)"
        return de
            ? "\(range)  ↑↓ Bild↑ Bild↓ blättern, jede andere Taste schließt"
            : "\(range)  ↑↓ PgUp PgDn scroll, any other key closes"
    }

    /// Said once when the locale asked for could not be used (see `TerminalLocale`).
    public func localeFallback(_ fallback: TerminalLocale.Fallback) -> String {
        switch fallback {
        case .missing(let name, let using):
            de
                ? "Die Locale „\(name)“ ist nicht installiert: \(using) wird verwendet."
                : "The locale “\(name)” is not installed: using \(using)."
        case .notUTF8(let name, let using):
            de
                ? "Die Locale „\(name)“ ist nicht UTF-8: \(using) wird verwendet, damit jedes Zeichen erscheint."
                : "The locale “\(name)” is not UTF-8: using \(using) so that every character shows."
        case .unavailable(let name):
            de
                ? "Die Locale „\(name)“ ist nicht UTF-8 und keine UTF-8-Locale ist installiert."
                : "The locale “\(name)” is not UTF-8 and no UTF-8 locale is installed."
        }
    }
}
