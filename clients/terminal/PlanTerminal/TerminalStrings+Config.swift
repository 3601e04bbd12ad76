/// The words of the configuration file's problems, the pickers and the mouse.
extension TerminalStrings {
    /// "line 3: …" / "Zeile 3: …".
    public func configLine(_ number: Int, _ problem: String) -> String {
        (de ? "Zeile " : "line ") + String(number) + ": " + problem
    }
    /// A setting with the wrong number of values.
    public func configUsage(_ usage: String) -> String {
        de ? "erwartet „\(usage)“" : "expected “\(usage)”"
    }
    /// An unknown name, with the names there are.
    public func configUnknown(_ kind: String, _ word: String, _ known: [String]) -> String {
        let kinds: [String: String] = [
            "action": "Aktion", "language": "Sprache", "element": "Element", "setting": "Einstellung",
        ]
        let list = known.joined(separator: ", ")
        return de
            ? "unbekannte \(kinds[kind] ?? kind) „\(word)“ (bekannt: \(list))"
            : "unknown \(kind) “\(word)” (known: \(list))"
    }
    /// A key name that names no key.
    public func configBadKey(_ word: String) -> String {
        de
            ? "„\(word)“ ist keine Taste (ein Zeichen, C-x, Enter, Esc, Tab, Space, Up, PgDn, Home …)"
            : "“\(word)” is not a key (a character, C-x, Enter, Esc, Tab, Space, Up, PgDn, Home…)"
    }
    /// A colour name that names no colour.
    public func configBadColour(_ word: String) -> String {
        de
            ? "„\(word)“ ist keine Farbe (red, bright-blue, 0–255, default …)"
            : "“\(word)” is not a colour (red, bright-blue, 0–255, default…)"
    }
    /// The footer at the start when lines of the file were ignored.
    public func configIgnored(_ path: String, _ problems: [String]) -> String {
        (de ? "\(path): ignoriert – " : "\(path): ignored – ") + problems.joined(separator: "; ")
    }
    /// The help's heading above the configuration's bindings.
    public var boundKeysHeading: String {
        de ? "Eigene Tasten (Konfigurationsdatei):" : "Your keys (configuration file):"
    }
    /// The picker's line under a field: how many match.
    public func pickerCount(_ shown: Int, more: Bool) -> String {
        guard shown > 0 else { return de ? "kein Treffer" : "no match" }
        if more { return de ? "die ersten \(shown) Treffer – weitertippen" : "first \(shown) matches – type more" }
        return de ? "\(shown) Treffer" : (shown == 1 ? "1 match" : "\(shown) matches")
    }
    /// The picker's hint.
    public var pickerHint: String {
        de ? "Tippen grenzt ein · ↓↑ Treffer · Enter wählt" : "type to narrow · ↓↑ matches · Enter picks"
    }
    /// The hint of a picker of several.
    public var severalHint: String {
        de
            ? "Tippen grenzt ein · ↓↑ Treffer · Enter hakt an/ab · Esc schließt"
            : "type to narrow · ↓↑ matches · Enter ticks/unticks · Esc closes"
    }
    /// Under a focused picker of several whose list is closed.
    public var severalClosedHint: String {
        de ? "(tippen, um zu suchen · Rücktaste entfernt den letzten)" : "(type to search · Backspace removes the last)"
    }
    /// Under a focused picker whose list is closed.
    public var pickerClosedHint: String { de ? "(tippen, um zu suchen)" : "(type to search)" }
    /// A bar moved by the mouse, while it is dragged: "Move “Design” by +3 days → 2026-09-11".
    public func dragging(_ title: String, days: Int, to start: String) -> String {
        let signed = days > 0 ? "+\(days)" : String(days)
        return de
            ? "„\(title)“ um \(signed) Tage verschieben → \(start) (loslassen: vorschlagen)"
            : "Move “\(title)” by \(signed) days → \(start) (release to propose)"
    }
    /// A drag proposed: waiting for the server.
    public func dragProposed(_ title: String, to dates: String) -> String {
        de
            ? "„\(title)“ auf \(dates) vorgeschlagen – warte auf den Server …"
            : "Proposed “\(title)” at \(dates) – waiting for the server…"
    }
    /// A booking moved by the mouse, while it is dragged.
    public func draggingBooking(_ title: String, to interval: String) -> String {
        de
            ? "„\(title)“ verschieben → \(interval) (loslassen: vorschlagen)"
            : "Move “\(title)” → \(interval) (release to propose)"
    }
    /// A press on a bar or booking whose last change still waits for the server.
    public func dragWaiting(_ title: String) -> String {
        de
            ? "„\(title)“ wartet noch auf den Server – erst danach wieder ziehen."
            : "“\(title)” still waits for the server – drag it again after the answer."
    }
}
