import ChronoSketchCore
import CommandLineOptions
import PlanClient

/// The command line of `plan`, parsed into one configuration.
public struct PlanOptions: Sendable, Hashable {
    /// The subcommands.
    public enum Subcommand: String, Sendable, Hashable, CaseIterable {
        case show, chart, watch, propose, export, history, schedule, bookings, feed
    }

    /// Nil: the interactive client.
    public var subcommand: Subcommand?
    /// The server URL (`--server`, `PLAN_SERVER`).
    public var server: String?
    /// The token (`--token`, `PLAN_TOKEN`).
    public var token: String?
    /// The plan id (`--plan`, `PLAN_PLAN`).
    public var plan: String?
    /// `--language en|de`; without it, the environment's (`LC_ALL`, `LC_MESSAGES`, `LANG`: German
    /// for `de_*`).
    public var language = PlanLanguage.english
    /// Whether the command line named the language (`--language`): it then wins over the
    /// configuration file's.
    public var languageGiven = false
    /// `--title`.
    public var title: String?
    /// `--start`, nil: today.
    public var start: CivilDate?
    /// `--days`.
    public var days = 90
    /// `--zoom`.
    public var zoom = TimelineZoom.oneDay
    /// `--idle-timeout`: seconds of silence after which the connection is given up (and tried
    /// again); the server is pinged after two fifths of them. A cut link shows no error.
    public var idleTimeout = 25
    /// `--width`.
    public var width: Int?
    /// `propose FILE|-`.
    public var file: String?
    /// `--version V`: show, chart, export or schedule the plan as it was at version V.
    public var version: Int?
    /// `--baseline NAME`: chart with that baseline's shadow.
    public var baseline: String?
    /// `history --limit N`: how many versions (1…500).
    public var limit = 50
    /// `history --before V`: only versions below V.
    public var before: Int?
    /// `--help`.
    public var help = false
    /// `plan --version` (no subcommand, no value): print the client's version.
    public var printsVersion = false
    /// `--ca-file PEM` (`PLAN_CA_FILE`): certificates to trust for wss:// (a self-signed server's).
    public var caFile: String?
    /// `export --format`: json (default), msproject, csv or ics.
    public var format = PlanDocumentDownload.Format.json
    /// `bookings --from D`: only bookings that reach into day D or later.
    public var from: CivilDate?
    /// `bookings --to D`: only bookings that begin on day D or earlier.
    public var to: CivilDate?
    /// `bookings --resource ID[,ID…]`: only bookings assigned to one of these resources.
    public var resources: [String] = []
    /// `feed --revoke`: end the calendar address instead of printing it.
    public var revoke = false

    /// Why a command line is not valid.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The message, in the language the command line asked for.
        public let description: String
    }

    /// The options every command takes.
    static let connectionOptions: Set<String> = [
        "--server", "--token", "--plan", "--language", "--ca-file", "--idle-timeout",
    ]

    /// The options `subcommand` takes (nil: the interactive client).
    static func options(of subcommand: Subcommand?) -> Set<String> {
        switch subcommand {
        case nil: connectionOptions.union(["--title", "--start", "--days", "--zoom"])
        case .chart: connectionOptions.union(["--start", "--days", "--zoom", "--width", "--version", "--baseline"])
        case .show, .schedule: connectionOptions.union(["--version"])
        case .export: connectionOptions.union(["--version", "--format"])
        case .bookings: connectionOptions.union(["--version", "--from", "--to", "--resource"])
        case .history: connectionOptions.union(["--limit", "--before"])
        case .feed: connectionOptions.union(flagOptions)
        case .watch, .propose: connectionOptions
        }
    }

    /// The options that take no value.
    static let flagOptions: Set<String> = ["--revoke"]

    /// Every option that takes a value.
    static let valueOptions = Subcommand.allCases.reduce(options(of: nil)) { $0.union(options(of: $1)) }
        .subtracting(flagOptions)

    /// Parses `arguments` (without the program name); `environment` supplies `PLAN_SERVER`,
    /// `PLAN_TOKEN`, `PLAN_PLAN` and `PLAN_CA_FILE` where no option gives them. Options come in any order, as
    /// `--name value` or `--name=value`, each at most once; a subcommand refuses the options it
    /// does not take. Messages are in the language `--language` asks for.
    public init(arguments: [String], environment: [String: String] = [:]) throws(ParseError) {
        let strings = TerminalStrings(PlanOptions.requestedLanguage(arguments, environment: environment))
        var arguments = arguments
        // `--version` alone asks for the client's version; with a value it is a subcommand's.
        let asksVersion = PlanOptions.versionFlag(in: arguments)
        if let asksVersion { arguments.remove(at: asksVersion) }
        do {
            let parsed = try ParsedArguments(
                arguments, valueOptions: PlanOptions.valueOptions, flagOptions: PlanOptions.flagOptions)
            try self.init(parsed, environment: environment, strings: strings)
            printsVersion = asksVersion != nil
        } catch let error as CommandLineError {
            throw ParseError(description: strings.commandLine(error))
        } catch let error as ParseError {
            throw error
        } catch {
            throw ParseError(description: "\(error)")
        }
    }

    private init(_ parsed: ParsedArguments, environment: [String: String], strings: TerminalStrings) throws {
        server = parsed.value("--server") ?? environment["PLAN_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
        token = parsed.value("--token") ?? environment["PLAN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        plan = parsed.value("--plan") ?? environment["PLAN_PLAN"].flatMap { $0.isEmpty ? nil : $0 }
        caFile = parsed.value("--ca-file") ?? environment["PLAN_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        help = parsed.help
        language = TerminalLocale.language(in: environment)
        if let word = parsed.positionals.first {
            guard let command = Subcommand(rawValue: word) else {
                throw ParseError(description: strings.unknownSubcommand(word))
            }
            subcommand = command
        }
        try parsed.only(PlanOptions.options(of: subcommand))
        if subcommand == .propose, parsed.positionals.count > 1 { file = parsed.positionals[1] }
        try parsed.noPositionals(after: subcommand == .propose ? 2 : 1)
        try readValues(parsed, strings: strings)
        if subcommand == .propose, file == nil, !help {
            throw ParseError(description: "plan propose: " + strings.proposeNeedsFile)
        }
    }

    private mutating func readValues(_ parsed: ParsedArguments, strings: TerminalStrings) throws(ParseError) {
        func bad(_ name: String, _ value: String, _ en: String, _ de: String) -> ParseError {
            ParseError(description: strings.badValue(name, value, expected: (en, de)))
        }
        title = parsed.value("--title")
        switch parsed.value("--language") {
        case nil: break
        case "en": language = .english
        case "de": language = .german
        case let other?: throw bad("--language", other, "en or de", "en oder de")
        }
        languageGiven = parsed.value("--language") != nil
        if let text = parsed.value("--start") {
            guard let date = try? CivilDate(text) else {
                throw bad("--start", text, "a date YYYY-MM-DD", "ein Datum JJJJ-MM-TT")
            }
            start = date
        }
        if let text = parsed.value("--days") {
            guard let days = Int(text), days > 0 else {
                throw bad("--days", text, "a positive number", "eine positive Zahl")
            }
            self.days = days
        }
        if let text = parsed.value("--zoom") {
            guard let zoom = Int(text).flatMap(TimelineZoom.init(rawValue:)) else {
                throw bad("--zoom", text, "1, 2, 4, 6 or 8", "1, 2, 4, 6 oder 8")
            }
            self.zoom = zoom
        }
        try readHistoryValues(parsed, bad)
        try readDocumentValues(parsed, bad)
        if let text = parsed.value("--idle-timeout") {
            guard let seconds = Int(text), (3...3600).contains(seconds) else {
                throw bad("--idle-timeout", text, "3 to 3600 seconds", "3 bis 3600 Sekunden")
            }
            idleTimeout = seconds
        }
        if let text = parsed.value("--width") {
            guard let width = Int(text), width >= 20 else {
                throw bad("--width", text, "a number of at least 20", "eine Zahl ab 20")
            }
            self.width = width
        }
    }

    /// `--version`, `--baseline`, `--limit` and `--before`.
    private mutating func readHistoryValues(
        _ parsed: ParsedArguments, _ bad: (String, String, String, String) -> ParseError
    ) throws(ParseError) {
        baseline = parsed.value("--baseline")
        if let text = parsed.value("--version") {
            guard let version = Int(text), version >= 0 else {
                throw bad("--version", text, "a version (0 or more)", "eine Version (ab 0)")
            }
            self.version = version
        }
        if let text = parsed.value("--limit") {
            guard let limit = Int(text), (1...500).contains(limit) else {
                throw bad("--limit", text, "1 to 500", "1 bis 500")
            }
            self.limit = limit
        }
        if let text = parsed.value("--before") {
            guard let before = Int(text), before > 0 else {
                throw bad("--before", text, "a version above 0", "eine Version über 0")
            }
            self.before = before
        }
    }

    /// The language a command line asks for, read leniently (so that even a refused command line
    /// is answered in it): `--language de` or `--language=de` anywhere, else the environment's.
    static func requestedLanguage(_ arguments: [String], environment: [String: String] = [:]) -> PlanLanguage {
        for (index, argument) in arguments.enumerated() {
            let value =
                argument.hasPrefix("--language=")
                ? String(argument.dropFirst(11)) : argument == "--language" ? arguments.dropFirst(index + 1).first : nil
            if value == "de" { return .german }
            if value == "en" { return .english }
        }
        return TerminalLocale.language(in: environment)
    }

    /// The index of a `--version` that asks for the client's version: no subcommand, and no
    /// value after it.
    static func versionFlag(in arguments: [String]) -> Int? {
        guard let index = arguments.firstIndex(of: "--version"),
            !arguments.contains(where: { Subcommand(rawValue: $0) != nil }),
            index == arguments.count - 1 || arguments[index + 1].hasPrefix("-")
        else { return nil }
        return index
    }

    /// The connection options that are missing.
    public var missingConnectionOptions: [String] {
        let strings = TerminalStrings(language)
        var missing: [String] = []
        if server == nil { missing.append(strings.connectionOption("--server", variable: "PLAN_SERVER")) }
        if token == nil { missing.append(strings.connectionOption("--token", variable: "PLAN_TOKEN")) }
        if plan == nil { missing.append(strings.connectionOption("--plan", variable: "PLAN_PLAN")) }
        return missing
    }

    /// The chart horizon: `--start` (default today) and `--days`.
    public func horizon(today: CivilDate) throws(ParseError) -> ChartHorizon {
        do { return try ChartHorizon(start: start ?? today, days: days) } catch {
            throw ParseError(description: TerminalStrings(language).horizonOutOfRange(start ?? today, days: days))
        }
    }
}
