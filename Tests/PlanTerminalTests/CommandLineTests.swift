import PlanTestSupport
import Testing

@testable import PlanTerminal

/// The three command lines, run as processes: every command and subcommand answers `--help` with
/// its usage and exit status 0, and refuses an unknown or repeated option (status 2) naming it.
@Suite("Command lines: --help everywhere, unknown and repeated options refused")
struct CommandLineTests {
    static let products = ServerProcess.productsDirectory

    /// Runs a built product with `arguments` (shell-quoted) and no database or plan variables.
    static func run(_ product: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let quoted = arguments.map { "'" + $0 + "'" }.joined(separator: " ")
        return shell("env -u DATABASE_URL -u PLAN_SERVER -u PLAN_TOKEN -u PLAN_PLAN '\(products)/\(product)' \(quoted)")
    }

    @Test(
        "--help on every command and subcommand prints its usage and exits 0",
        arguments: [
            ("plan-server", ["--help"], "plan-server serve"),
            ("plan-server", ["serve", "--help"], "--max-intake-backlog"),
            ("plan-server", ["migrate", "-h"], "plan-server migrate"),
            ("plan-server", ["user", "add", "--help"], "plan-server user add NAME"),
            ("plan-server", ["grant", "--help"], "viewer|editor|owner"),
            ("plan-server", ["plan", "create", "--help"], "--import"),
            ("plan-server", ["plan", "export", "x", "--help"], "plan-server plan export ID"),
            ("plan", ["--help"], "Subcommands:"), ("plan", ["show", "--help"], "plan show"),
            ("plan", ["chart", "--help"], "--zoom"), ("plan", ["watch", "--help"], "plan watch"),
            ("plan", ["propose", "--help"], "plan propose FILE|-"), ("plan", ["export", "--help"], "plan export"),
            ("plan", ["history", "--help"], "--before V"), ("plan", ["chart", "--help"], "--baseline NAME"),
            ("plan", ["export", "--help"], "--format F"), ("plan", ["bookings", "--help"], "--resource IDs"),
            ("plan", ["feed", "--help"], "--revoke"), ("plan", ["feed", "--help", "--language", "de"], "Kalender"),
            ("plan", ["--help"], "bookings  the bookings"),
            ("plan-load", ["--help"], "--viewer-transport"),
        ])
    func help(product: String, arguments: [String], expected: String) {
        let (status, output) = Self.run(product, arguments)
        #expect(status == 0, "\(product) \(arguments): \(output)")
        #expect(output.contains(expected), "\(product) \(arguments): \(output)")
    }

    @Test(
        "an unknown or repeated option is refused with status 2 and a message naming it",
        arguments: [
            ("plan-server", ["serve", "--prot", "1"], "unknown option --prot"),
            ("plan-server", ["serve", "--port", "1", "--port=2"], "--port is given twice"),
            ("plan-server", ["user", "add", "ann", "--title", "x"], "unknown option --title"),
            ("plan-server", ["migrate", "--quiet"], "unknown option --quiet"),
            ("plan-server", ["plan", "export", "x", "--bogus=1"], "unknown option --bogus"),
            ("plan-server", ["frobnicate"], "unknown command frobnicate"),
            ("plan", ["show", "--bogus"], "unknown option --bogus"),
            ("plan", ["show", "--zoom", "2"], "unknown option --zoom"),
            ("plan", ["history", "--version", "2"], "unknown option --version"),
            ("plan", ["history", "--limit", "501"], "--limit must be 1 to 500, not 501"),
            ("plan", ["--plan", "a", "--plan=b"], "--plan is given twice"),
            ("plan", ["frobnicate"], "unknown subcommand frobnicate"),
            ("plan", ["export", "--format", "pdf"], "--format must be json, msproject, csv or ics, not pdf"),
            ("plan", ["show", "--format", "csv"], "unknown option --format"),
            ("plan", ["feed", "--revoke=yes"], "--revoke takes no value"),
            ("plan", ["export", "--revoke"], "unknown option --revoke"),
            ("plan", ["bookings", "--from", "2026-09-10", "--to", "2026-09-01"], "--to must be on or after --from"),
            ("plan", ["bookings", "--from", "morgen", "--language", "de"], "--from muss ein Datum JJJJ-MM-TT sein"),
            ("plan-load", ["--server", "ws://x/ws", "--viewres", "3"], "unknown option --viewres"),
            ("plan-load", ["--json", "--json"], "--json is given twice"),
        ])
    func refused(product: String, arguments: [String], expected: String) {
        let (status, output) = Self.run(product, arguments)
        #expect(status == 2, "\(product) \(arguments): \(output)")
        #expect(output.contains(expected), "\(product) \(arguments): \(output)")
    }

    @Test("both forms of a value: --name value and --name=value")
    func bothForms() throws {
        let separate = try PlanOptions(arguments: ["chart", "--zoom", "4", "--width", "80", "--plan", "p"])
        let joined = try PlanOptions(arguments: ["chart", "--zoom=4", "--width=80", "--plan=p"])
        #expect(separate == joined && joined.width == 80 && joined.plan == "p")
        let (status, output) = Self.run("plan-server", ["serve", "--port=99999", "--database", "host=nowhere"])
        #expect(status == 2 && output.contains("--port 99999: expected 0 to 65535"), "\(output)")
    }

    @Test("--language de: every command's whole help is German, from the usage line to the connection options")
    func germanHelpEverywhere() {
        let subcommands: [String?] = [nil] + PlanOptions.Subcommand.allCases.map(\.rawValue)
        for subcommand in subcommands {
            let arguments = (subcommand.map { [$0] } ?? []) + ["--help", "--language", "de"]
            let (status, german) = Self.run("plan", arguments)
            let english = Self.run("plan", (subcommand.map { [$0] } ?? []) + ["--help"]).output
            #expect(status == 0 && german != english, "\(arguments)")
            #expect(german.contains("Aufruf:"), "\(arguments): \(german.prefix(40))")
            #expect(german.contains("Verbindung (jeder Befehl"), "\(arguments): the connection options in German")
            for englishWord in ["Usage:", "Connection (", "[options]", "your secret token", "Subcommands:"] {
                #expect(!german.contains(englishWord), "\(arguments): \(englishWord)")
            }
        }
    }

    @Test("--language de: help, refusals and missing options in German")
    func german() {
        let help = Self.run("plan", ["propose", "--help", "--language", "de"])
        #expect(help.status == 0 && help.output.contains("Aufruf: plan propose DATEI|-"), "\(help.output)")
        #expect(help.output.contains("0 bestätigt, 1 abgelehnt, 2 Fehler"))
        let overview = Self.run("plan", ["--language=de", "--help"])
        #expect(overview.status == 0 && overview.output.contains("Unterbefehle:"), "\(overview.output)")
        let unknown = Self.run("plan", ["--language", "de", "show", "--bogus"])
        #expect(unknown.status == 2 && unknown.output.contains("unbekannte Option --bogus"), "\(unknown.output)")
        #expect(unknown.output.contains("Hilfe: plan --help"))
        let noFile = Self.run("plan", ["propose", "--language", "de"])
        #expect(noFile.status == 2 && noFile.output.contains("eine DATEI angeben"), "\(noFile.output)")
        let missing = Self.run("plan", ["propose", "-", "--language", "de"])
        #expect(
            missing.status == 2 && missing.output.contains("es fehlt --server (oder PLAN_SERVER)"), "\(missing.output)")
        let badZoom = Self.run("plan", ["chart", "--zoom", "3", "--language", "de"])
        #expect(badZoom.output.contains("--zoom muss 1, 2, 4, 6 oder 8 sein, nicht 3"), "\(badZoom.output)")
        let unreadable = Self.run(
            "plan",
            [
                "propose", "/nonexistent/op.json", "--language", "de", "--server", "ws://127.0.0.1:1/ws",
                "--token", "t", "--plan", "p",
            ])
        #expect(
            unreadable.status == 2 && unreadable.output.contains("kann nicht gelesen werden"), "\(unreadable.output)")
    }

    @Test("plan propose's answers in German")
    func germanOutcomes() {
        let strings = TerminalStrings(.german)
        #expect(strings.proposalConfirmed(version: 7, noop: false) == "bestätigt in Version 7")
        #expect(strings.proposalConfirmed(version: 7, noop: true) == "bestätigt (keine Änderung) in Version 7")
        #expect(strings.proposalRejected(.staleTask, text: "t").hasPrefix("abgelehnt: staleTask: Die Aufgabe"))
        #expect(TerminalStrings(.english).proposalConfirmed(version: 7, noop: false) == "confirmed at version 7")
        #expect(strings.commandLine(.repeated("--plan")) == "--plan ist doppelt angegeben")
        #expect(strings.connectionEnded("") == "die Verbindung wurde beendet")
    }
}
