import ChronoSketchCore

/// The command line of `plan`, parsed into one configuration.
public struct PlanOptions: Sendable, Hashable {
    /// The subcommands.
    public enum Subcommand: String, Sendable, Hashable, CaseIterable {
        case show, chart, watch, propose, export
    }

    /// Nil: the interactive client.
    public var subcommand: Subcommand?
    /// The server URL (`--server`, `PLAN_SERVER`).
    public var server: String?
    /// The token (`--token`, `PLAN_TOKEN`).
    public var token: String?
    /// The plan id (`--plan`, `PLAN_PLAN`).
    public var plan: String?
    /// `--language en|de`.
    public var language = PlanLanguage.english
    /// `--title`.
    public var title: String?
    /// `--start`, nil: today.
    public var start: CivilDate?
    /// `--days`.
    public var days = 90
    /// `--zoom`.
    public var zoom = TimelineZoom.oneDay
    /// `--width`.
    public var width: Int?
    /// `propose FILE|-`.
    public var file: String?
    /// `--help`.
    public var help = false

    /// Why a command line is not valid.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The message.
        public let description: String
    }

    /// Parses `arguments` (without the program name); `environment` supplies `PLAN_SERVER`,
    /// `PLAN_TOKEN` and `PLAN_PLAN` where no option gives them. Options come in any order.
    public init(arguments: [String], environment: [String: String] = [:]) throws(ParseError) {
        server = environment["PLAN_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
        token = environment["PLAN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        plan = environment["PLAN_PLAN"].flatMap { $0.isEmpty ? nil : $0 }
        var index = 0
        func value(_ name: String, inline: String?) throws(ParseError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw ParseError(description: "\(name) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            switch name {
            case "--help", "-h": help = true
            case "--server": server = try value(name, inline: inline)
            case "--token": token = try value(name, inline: inline)
            case "--plan": plan = try value(name, inline: inline)
            case "--title": title = try value(name, inline: inline)
            case "--language":
                switch try value(name, inline: inline) {
                case "en": language = .english
                case "de": language = .german
                case let other: throw ParseError(description: "--language must be en or de, not \(other)")
                }
            case "--start":
                let text = try value(name, inline: inline)
                guard let date = try? CivilDate(text) else {
                    throw ParseError(description: "--start must be a date YYYY-MM-DD, not \(text)")
                }
                start = date
            case "--days":
                let text = try value(name, inline: inline)
                guard let days = Int(text), days > 0 else {
                    throw ParseError(description: "--days must be a positive number, not \(text)")
                }
                self.days = days
            case "--zoom":
                let text = try value(name, inline: inline)
                guard let zoom = Int(text).flatMap(TimelineZoom.init(rawValue:)) else {
                    throw ParseError(description: "--zoom must be 1, 2, 4, 6 or 8, not \(text)")
                }
                self.zoom = zoom
            case "--width":
                let text = try value(name, inline: inline)
                guard let width = Int(text), width >= 20 else {
                    throw ParseError(description: "--width must be a number of at least 20, not \(text)")
                }
                self.width = width
            default:
                if argument.hasPrefix("-") && argument != "-" {
                    throw ParseError(description: "unknown option \(argument)")
                }
                if subcommand == nil, let command = Subcommand(rawValue: argument) {
                    subcommand = command
                } else if subcommand == .propose, file == nil {
                    file = argument
                } else {
                    throw ParseError(description: "unexpected argument \(argument)")
                }
            }
            index += 1
        }
    }

    /// The connection options that are missing.
    public var missingConnectionOptions: [String] {
        var missing: [String] = []
        if server == nil { missing.append("--server (or PLAN_SERVER)") }
        if token == nil { missing.append("--token (or PLAN_TOKEN)") }
        if plan == nil { missing.append("--plan (or PLAN_PLAN)") }
        return missing
    }

    /// The chart horizon: `--start` (default today) and `--days`.
    public func horizon(today: CivilDate) throws(ParseError) -> ChartHorizon {
        do { return try ChartHorizon(start: start ?? today, days: days) } catch {
            throw ParseError(description: "the horizon \(start ?? today) + \(days) days is out of range")
        }
    }

    /// The help text for `plan --help` or `plan SUBCOMMAND --help`.
    public static func helpText(_ subcommand: Subcommand?) -> String {
        let connection = """
            Connection (every command; in any order):
              --server URL       ws://host:port/ws (or PLAN_SERVER)
              --token TOKEN      your secret token (or PLAN_TOKEN)
              --plan ID          the plan (or PLAN_PLAN)
              --language en|de   labels, month names and messages in English or German

            """
        switch subcommand {
        case nil:
            return """
                plan — the ChronoSketch terminal client

                Usage:
                  plan [options]                 the interactive client (list, timeline, resources)
                  plan SUBCOMMAND [options]      one scriptable task

                Subcommands:
                  show      the task list with kinds, dates, progress and derived summary values
                  chart     the timeline as plain text
                  watch     every server message as one JSON line
                  propose   send one proposal and print the outcome
                  export    the confirmed plan as JSON

                \(connection)
                Interactive options:
                  --title T          the heading (default: the plan's title)
                  --start YYYY-MM-DD the timeline horizon's first day (default: today)
                  --days N           the horizon's length in days (default: 90)

                In the client press ? for every key. `plan SUBCOMMAND --help` explains a subcommand.

                """
        case .show:
            return "Usage: plan show [options]\n\nPrints the hierarchical task list: kind, dates (start – last day), "
                + "progress (summaries: the derived mean).\n\n" + connection
        case .chart:
            return """
                Usage: plan chart [--start D] [--days N] [--zoom Z] [--width W] [options]

                Prints the timeline as plain text (no escape codes): the pinned task names, three
                header rows (month, ISO week with its week-year, day or column range), bars with
                progress (█ done, ░ to do; summaries ▓/▒), milestones ◆ and dependency arrows.
                  --start D   the first day (default today)
                  --days N    the number of days (default 90)
                  --zoom Z    days per column: 1, 2, 4, 6 or 8 (default 1)
                  --width W   the line width (default: the terminal's, or the whole horizon)

                """ + connection
        case .watch:
            return "Usage: plan watch [options]\n\nSubscribes to the plan and prints every server message as a "
                + "JSON line until the connection ends.\n\n" + connection
        case .propose:
            return """
                Usage: plan propose FILE|- [options]

                Sends one proposal: FILE (or standard input for -) holds an op, e.g.
                  {"type":"replace","previous":{…},"proposed":{…}}
                or a whole propose message {"type":"propose","op":{…}}. Prints the outcome.
                Exit status: 0 confirmed, 1 rejected, 2 error.

                """ + connection
        case .export:
            return "Usage: plan export [options]\n\nPrints the confirmed plan (title, tasks, dependencies, "
                + "resources, summaries) as one JSON document.\n\n" + connection
        }
    }
}
