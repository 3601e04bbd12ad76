/// Notices of other sessions' changes to what the user is looking at (the row they are on, the
/// form they have open).
extension TerminalStrings {
    /// What of the user's a change touched.
    public enum NoticeTarget: Sendable, Hashable {
        /// The selected row (or booking).
        case row
        /// The task or booking an open form edits.
        case form
    }

    /// "bob changed “Spec” (the row you are on)" / "bob hat „Spec“ geändert (Ihre Zeile)"; with
    /// `removed`, "removed" / "entfernt"; a booking (`entry`) is named as one.
    public func othersChange(user: String, title: String, removed: Bool, entry: Bool = false, target: NoticeTarget)
        -> String
    {
        if de {
            let what = (entry ? "den Eintrag " : "") + "„" + title + "“"
            let verb = removed ? "entfernt" : "geändert"
            let place = target == .row ? "(Ihre Zeile)" : "(in Ihrem offenen Formular)"
            return "\(user) hat \(what) \(verb) \(place)"
        }
        let what = (entry ? "the booking " : "") + "“" + title + "”"
        let place = target == .row ? "(the row you are on)" : "(which your open form edits)"
        return "\(user) \(removed ? "removed" : "changed") \(what) \(place)"
    }
}
