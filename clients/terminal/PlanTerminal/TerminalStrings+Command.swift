import ChronoSketchCore
import CommandLineOptions
import PlanClient
import PlanProtocol

/// The messages of `plan`'s command line and scriptable subcommands, in English or German.
extension TerminalStrings {
    /// A refused command line.
    public func commandLine(_ error: CommandLineError) -> String {
        guard de else { return error.description }
        switch error {
        case .unknown(let name): return "unbekannte Option \(name)"
        case .repeated(let name): return "\(name) ist doppelt angegeben"
        case .missingValue(let name): return "\(name) braucht einen Wert"
        case .unexpectedValue(let name): return "\(name) nimmt keinen Wert"
        case .badValue(let name, let value, let expected): return "\(name) \(value): erwartet \(expected)"
        case .missingArgument(let name): return "\(name) fehlt"
        case .unexpectedArgument(let argument): return "unerwartetes Argument \(argument)"
        case .other(let message): return message
        }
    }
    /// An option's value that is not what it takes; `expected` names what is, in both languages.
    func badValue(_ name: String, _ value: String, expected: (en: String, de: String)) -> String {
        de ? "\(name) muss \(expected.de) sein, nicht \(value)" : "\(name) must be \(expected.en), not \(value)"
    }
    /// A first word that is no subcommand.
    func unknownSubcommand(_ word: String) -> String {
        (de ? "unbekannter Unterbefehl " : "unknown subcommand ") + word
    }
    /// The connection options that are missing.
    func missing(_ options: [String]) -> String {
        (de ? "es fehlt " : "missing ") + options.joined(separator: ", ")
    }
    /// A connection option and where else it may come from.
    func connectionOption(_ option: String, variable: String) -> String {
        "\(option) (\(de ? "oder" : "or") \(variable))"
    }
    /// The line after a refused command line.
    var tryHelp: String { de ? "Hilfe: plan --help" : "Try plan --help." }
    /// `plan propose` without its file.
    var proposeNeedsFile: String {
        de ? "eine DATEI angeben, oder - für die Standardeingabe" : "give a FILE or - for standard input"
    }
    /// A file that cannot be read.
    func cannotRead(_ path: String) -> String { de ? "\(path) kann nicht gelesen werden" : "cannot read \(path)" }
    /// A `--ca-file` libwebsockets could not load.
    func cannotLoadCertificates(_ path: String) -> String {
        de ? "die Zertifikate in \(path) lassen sich nicht laden" : "cannot load the certificates in \(path)"
    }
    /// What the client library reports, in words.
    func clientError(_ error: ClientError) -> String {
        switch error {
        case .badURL(let url): de ? "keine ws://- oder wss://-Adresse: \(url)" : "not a ws:// or wss:// URL: \(url)"
        case .transport(let message): message
        case .closed(_, let reason): connectionEnded(reason)
        case .server(let code, let message): serverError("\(code): \(message)")
        case .timedOut: de ? "keine Antwort in der vorgesehenen Zeit" : "no answer in time"
        }
    }
    /// A `--ca-file` without a PEM certificate.
    func notACertificate(_ path: String) -> String {
        de
            ? "\(path) enthält kein PEM-Zertifikat (-----BEGIN CERTIFICATE-----)"
            : "\(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
    }
    /// A proposal file that holds no op.
    func badProposal(_ reason: String) -> String {
        (de ? "kein gültiger Vorschlag: " : "not a valid proposal: ") + reason
    }
    /// The horizon `--start` + `--days` lies outside the calendar.
    func horizonOutOfRange(_ start: CivilDate, days: Int) -> String {
        de
            ? "der Zeitraum \(start) + \(days) Tage liegt außerhalb des Kalenders"
            : "the horizon \(start) + \(days) days is out of range"
    }
    /// The connection ended before the subcommand was done.
    func connectionEnded(_ reason: String) -> String {
        (de ? "die Verbindung wurde beendet" : "the connection ended") + (reason.isEmpty ? "" : ": \(reason)")
    }
    /// `plan propose`: confirmed.
    func proposalConfirmed(version: Int, noop: Bool) -> String {
        de
            ? (noop ? "bestätigt (keine Änderung)" : "bestätigt") + " in Version \(version)"
            : (noop ? "confirmed (no change)" : "confirmed") + " at version \(version)"
    }
    /// `plan propose`: rejected, with the code, its explanation and the server's text.
    func proposalRejected(_ code: RejectionCode, text: String) -> String {
        (de ? "abgelehnt: " : "rejected: ") + "\(code.rawValue): \(rejection(code)) (\(text))"
    }

    /// `plan schedule`'s first line: the plan, the version and its finish.
    func scheduleHeading(_ title: String, version: Int, finish: CivilDate?) -> String {
        let end = finish.map(\.description) ?? (de ? "keines" : "none")
        return de ? "\(title) (v\(version)): Ende \(end)" : "\(title) (v\(version)): finish \(end)"
    }

    /// `plan schedule` for a plan without scheduled tasks.
    var nothingScheduled: String { de ? "Keine Aufgabe hat Termine." : "No task is scheduled." }

    /// `plan schedule`'s column headings.
    var scheduleColumns: (task: String, lateStart: String, lateFinish: String, slack: String, critical: String) {
        de
            ? ("Aufgabe", "spät. Beginn", "spät. Ende", "Puffer", "kritisch")
            : ("task", "late start", "late finish", "slack", "critical")
    }

    /// `plan show`'s slack column heading.
    var slackColumn: String { de ? "Puffer" : "Slack" }

    /// A task's slack in `plan show`: working days, and whether it is critical.
    func slack(_ figures: ScheduleFigures.Task) -> String {
        figures.critical ? "\(figures.slack) " + (de ? "kritisch" : "critical") : "\(figures.slack)"
    }
}
