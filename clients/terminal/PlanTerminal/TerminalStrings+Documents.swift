import ChronoSketchCore
import PlanClient

/// The messages of `plan export`, `plan bookings` and `plan feed`, and the plan details' calendar
/// address, in English or German.
extension TerminalStrings {
    /// One code of `X-Export-Warnings` as `plan-server plan export` writes its warnings:
    /// `warning: CODE: text`, the text saying what the code means (interchange.md §7).
    func exportWarning(_ code: String) -> String {
        "warning: \(code): " + exportWarningText(code)
    }

    /// What an export warning code means.
    func exportWarningText(_ code: String) -> String {
        switch code {
        case "entryWithoutTask":
            de
                ? "Buchungen ohne Aufgabe sind keine MS-Project-Zuordnungen und fehlen in der Datei"
                : "bookings that belong to no task are not MS Project assignments and are not written"
        case "progressRounded":
            de
                ? "Fortschritt mit Nachkommastellen ist auf ganze Prozent gerundet"
                : "fractional progress is written as whole percent"
        default:
            de ? "nicht alles konnte geschrieben werden" : "not everything could be written"
        }
    }

    /// Why `plan export` or `plan bookings` got no document from the server at `origin`.
    func downloadFailure(_ failure: DownloadFailure, plan: String, version: Int?, origin: String) -> String {
        switch failure {
        case .unauthorized:
            return de
                ? "der Server hat das Token nicht angenommen (401)"
                : "the server did not accept the token (401 unauthorized)"
        case .notFound:
            if let version {
                return de
                    ? "Plan \(plan) hat keine lesbare Version \(version), oder Sie haben keine Rolle darin (404)"
                    : "plan \(plan) has no version \(version) you can read, or you have no role on it (404 not found)"
            }
            return de
                ? "Plan \(plan) gibt es nicht, oder Sie haben keine Rolle darin (404)"
                : "plan \(plan) does not exist, or you have no role on it (404 not found)"
        case .refused(let status, let message):
            return (de ? "der Server lehnte ab: \(status)" : "the server refused: \(status)")
                + (message.isEmpty ? "" : " \(message)")
        case .unreachable(let reason):
            return (de ? "der Server \(origin) ist nicht erreichbar" : "cannot reach the server at \(origin)")
                + (reason.isEmpty ? "" : " (\(reason))")
        case .timedOut:
            return de ? "keine Antwort von \(origin) in der vorgesehenen Zeit" : "no answer from \(origin) in time"
        }
    }

    /// `plan bookings --resource` naming a resource the plan does not have.
    func unknownResources(_ ids: [String], known: [String]) -> String {
        let list = known.isEmpty ? (de ? "keine" : "none") : known.joined(separator: ", ")
        return de
            ? "keine Ressource \(ids.joined(separator: ", ")) in diesem Plan (Ressourcen: \(list))"
            : "no resource \(ids.joined(separator: ", ")) in this plan (resources: \(list))"
    }

    /// An export that is not a plan document.
    func notAPlanDocument(_ reason: String) -> String {
        (de ? "die Antwort des Servers ist kein Plandokument: " : "the server's answer is no plan document: ") + reason
    }

    /// `plan feed --revoke` done.
    func feedRevoked(_ plan: String) -> String {
        de
            ? "Die Kalenderadresse von \(plan) gilt nicht mehr; die nächste Anfrage erhält eine neue."
            : "The calendar address of \(plan) no longer works; asking again gives a new one."
    }

    /// `plan feed` refused for a plan without a role.
    func feedUnknownPlan(_ plan: String) -> String {
        de
            ? "Plan \(plan) gibt es nicht, oder Sie haben keine Rolle darin"
            : "plan \(plan) does not exist, or you have no role on it"
    }

    // MARK: The plan details (`I`)

    /// The plan details' title.
    public var planInfoTitle: String { de ? "Plan: Details und Kalenderadresse" : "Plan details and calendar address" }

    /// The plan details' labels: plan, title, version, role.
    var planInfoLabels: (plan: String, title: String, version: String, role: String) {
        de ? ("Plan", "Titel", "Version", "Ihre Rolle") : ("Plan", "Title", "Version", "Your role")
    }

    /// The heading of the calendar address.
    var feedHeading: String {
        de
            ? "Kalenderadresse (in einer Kalender-App abonnieren):"
            : "Calendar address (subscribe to it in a calendar app):"
    }

    /// What the calendar address is and how to copy it.
    var feedMeaning: String {
        de
            ? "Kalender-Apps, die sie abonnieren, sehen die datierten Aufgaben. Wer die Adresse hat, kann "
                + "sie lesen: wie ein Passwort weitergeben. Zum Kopieren mit der Maus markieren (in tmux mit "
                + "gedrückter Umschalttaste). `plan feed --revoke` beendet sie."
            : "Calendar apps that subscribe to it see the dated tasks. Anyone with the address can read them: "
                + "share it like a password. Select it with the mouse to copy it (in tmux, hold Shift). "
                + "`plan feed --revoke` stops it."
    }

    /// While the address is asked for.
    var feedAsking: String { de ? "Kalenderadresse wird angefragt …" : "Asking for the calendar address…" }

    /// The address could not be had.
    func feedFailed(_ reason: String) -> String {
        (de ? "Keine Kalenderadresse: " : "No calendar address: ") + reason
    }

    /// The plan details' last line.
    var planInfoClose: String { de ? "Eine beliebige Taste schließt." : "Any key closes." }

    /// The key line of the help.
    var planInfoKeyLine: String {
        de ? "I            Plan: Details und Kalenderadresse" : "I            plan details and calendar address"
    }
}
