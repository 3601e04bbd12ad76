import ChronoSketchCore

/// The session's role (protocol.md §11) and a stale proposal's conflict, in words: the same
/// sentences as the web client's `lang-en` / `lang-de`.
extension TerminalStrings {
    /// A role's name: "viewer" / "Betrachter".
    public func roleName(_ role: PlanRole) -> String {
        switch role {
        case .viewer: de ? "Betrachter" : "viewer"
        case .editor: de ? "Bearbeiter" : "editor"
        case .owner: de ? "Eigentümer" : "owner"
        }
    }
    /// The heading's role: "role: editor" / "Rolle: Bearbeiter"; "no role" once it ended.
    public func headingRole(_ role: PlanRole?) -> String {
        guard let role else { return de ? "keine Rolle" : "no role" }
        return (de ? "Rolle: " : "role: ") + roleName(role)
    }
    /// "You are now a viewer" / "Sie sind jetzt Betrachter" (without a full stop).
    public func nowRole(_ role: PlanRole) -> String {
        guard !de else { return "Sie sind jetzt " + roleName(role) }
        switch role {
        case .viewer: return "You are now a viewer"
        case .editor: return "You are now an editor"
        case .owner: return "You are now an owner"
        }
    }
    /// A form the new role does not allow closed: "You are now a viewer: your draft was not sent."
    public func draftNotSent(_ said: String) -> String {
        said + (de ? ": Ihr Entwurf wurde nicht gesendet." : ": your draft was not sent.")
    }
    /// An edit key pressed by a viewer.
    public var viewerMayNotEdit: String {
        de
            ? "Ihre Rolle in diesem Plan ist Betrachter: Sie können ihn ansehen, aber nicht ändern."
            : "Your role on this plan is viewer: you can look at it, not change it."
    }
    /// `S` pressed by someone who is not an owner.
    public func ownersOnly(_ role: PlanRole) -> String {
        de
            ? "Nur Eigentümer des Plans dürfen die Planungseinstellungen ändern (Ihre Rolle: \(roleName(role)))."
            : "Only an owner of the plan may change its scheduling settings (your role: \(roleName(role)))."
    }
    /// The role on the plan ended (`error` `forbidden` with the plan, or a refused resubscription).
    public func roleEnded(_ plan: String) -> String {
        de ? "Sie haben keine Rolle mehr in „\(plan)“." : "You no longer have a role on “\(plan)”."
    }
    /// The role ended under an open form that was not sent.
    public var roleEndedDraft: String {
        de
            ? "Sie haben keine Rolle mehr in diesem Plan: Ihr Entwurf wurde nicht gesendet."
            : "You no longer have a role on this plan: your draft was not sent."
    }
    /// The role ended under a form whose proposal was sent and not answered.
    public var roleEndedSent: String {
        de
            ? "Sie haben keine Rolle mehr in diesem Plan: Ihre Änderung wurde nicht bestätigt."
            : "You no longer have a role on this plan: the change you sent was not confirmed."
    }

    // MARK: Conflicts

    /// "Changed since by alice (v14), bob (v15): set the progress of “Spec” to 80 %."
    public func staleSince(_ who: String, _ what: String) -> String {
        de
            ? "Seitdem geändert" + (who.isEmpty ? "" : " von " + who) + ": " + what + "."
            : "Changed since" + (who.isEmpty ? "" : " by " + who) + ": " + what + "."
    }
    /// "alice (v14)".
    public func byVersion(_ user: String, _ version: Int) -> String { "\(user) (v\(version))" }
    /// The button that puts the draft on the current value.
    public var applyMine: String {
        de ? "Meine Änderung auf die aktuelle Version anwenden" : "Apply mine to the current version"
    }
    /// The button that drops the draft after a conflict.
    public var discard: String { de ? "Verwerfen" : "Discard" }
}
