import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol

/// The `plan` executable: parses the command line and runs the interactive client or a subcommand.
public enum PlanCommand {
    /// Runs `plan` with `arguments` (without the program name); returns the exit status.
    public static func main(arguments: [String]) async -> Int32 {
        let options: PlanOptions
        do {
            options = try PlanOptions(arguments: arguments, environment: System.environment())
        } catch {
            System.printError("plan: \(error.description)\nTry plan --help.\n")
            return 2
        }
        if options.help {
            System.print(PlanOptions.helpText(options.subcommand))
            return 0
        }
        let missing = options.missingConnectionOptions
        guard missing.isEmpty, let server = options.server, let token = options.token, let plan = options.plan else {
            System.printError("plan: missing \(missing.joined(separator: ", "))\nTry plan --help.\n")
            return 2
        }
        guard let subcommand = options.subcommand else {
            return InteractiveClient.run(options: options, server: server, token: token, plan: plan)
        }
        let transport: ClientTransport
        let connection: PlanConnection
        do {
            transport = try ClientTransport()
            connection = try PlanConnection(
                options: .init(url: server, token: token, clientName: "plan/1", reconnect: false), transport: transport)
        } catch {
            System.printError("plan: \(error.description)\n")
            return 2
        }
        let session = CommandSession(connection: connection, plan: plan)
        let status = await session.run(subcommand, options: options)
        connection.close()
        // The process ends with the transport alive: releasing a stopped ClientTransport races
        // with its service thread (see the report), so it is never stopped or released.
        withExtendedLifetime(transport) { exit(status) }
    }
}

/// One scriptable subcommand over one connection.
struct CommandSession {
    let connection: PlanConnection
    let plan: String

    func run(_ subcommand: PlanOptions.Subcommand, options: PlanOptions) async -> Int32 {
        let strings = TerminalStrings(options.language)
        let watching = subcommand == .watch
        var operation: PlanOperation?
        if subcommand == .propose {
            guard let file = options.file else {
                System.printError("plan propose: give a FILE or - for standard input\n")
                return 2
            }
            guard let bytes = System.read(file) else {
                System.printError("plan propose: cannot read \(file)\n")
                return 2
            }
            do {
                operation = try CommandSession.decodeProposal(bytes)
            } catch {
                System.printError("plan propose: \(error)\n")
                return 2
            }
        }
        connection.start()
        var proposalID: String?
        let timeout = Task.detached { [connection] in
            try? await Task.sleep(for: .seconds(watching ? 1_000_000 : 20))
            connection.close()
        }
        defer { timeout.cancel() }
        for await event in connection.events {
            switch event {
            case .welcome:
                connection.subscribe(plan)
            case .disconnected(_, let reason, _):
                if watching { return 0 }
                System.printError("plan: the connection ended" + (reason.isEmpty ? "" : ": \(reason)") + "\n")
                return 2
            case .message(let message):
                if watching {
                    System.print(message.json + "\n")
                    continue
                }
                if case .error(let code, let text, _) = message {
                    System.printError("plan: \(strings.serverError("\(code.rawValue): \(text)"))\n")
                    return 2
                }
                guard case .snapshot = message, let copy = connection.copy(of: plan) else {
                    if let proposalID, let outcome = outcome(of: message, id: proposalID, strings: strings) {
                        return outcome
                    }
                    continue
                }
                switch subcommand {
                case .show:
                    System.print(CommandSession.showText(copy, language: options.language))
                    return 0
                case .chart:
                    do {
                        let horizon = try options.horizon(today: System.today())
                        System.print(
                            CommandSession.chartText(
                                copy, language: options.language, horizon: horizon, zoom: options.zoom,
                                width: options.width ?? System.terminalWidth()))
                        return 0
                    } catch {
                        System.printError("plan chart: \(error.description)\n")
                        return 2
                    }
                case .export:
                    System.print(CommandSession.exportText(copy))
                    return 0
                case .propose:
                    if proposalID == nil, let operation { proposalID = connection.propose(operation, plan: plan) }
                case .watch:
                    break
                }
            }
        }
        return 2
    }

    /// The outcome of a proposal: 0 confirmed, 1 rejected; nil for other messages.
    private func outcome(of message: ServerMessage, id: String, strings: TerminalStrings) -> Int32? {
        switch message {
        case .ack(id, _, let version, let noop, _):
            System.print((noop ? "confirmed (no change)" : "confirmed") + " at version \(version)\n")
            return 0
        case .rejected(id, _, let code, let text, _, _):
            System.print("rejected: \(code.rawValue): \(strings.rejection(code)) (\(text))\n")
            return 1
        default:
            return nil
        }
    }

    /// An op, or the op of a whole propose message.
    static func decodeProposal(_ bytes: [UInt8]) throws -> PlanOperation {
        let json = try JSONValue(parsing: bytes)
        if case .object(let members) = json, members["type"] == .string("propose"), let op = members["op"] {
            return try PlanOperation(json: op)
        }
        return try PlanOperation(json: json)
    }

    /// `plan show`: the list of a copy.
    static func showText(_ copy: ClientPlanCopy, language: PlanLanguage, width: Int = 100) -> String {
        guard let collection = try? TaskCollection(copy.tasks, dependencies: copy.dependencies) else {
            return TerminalStrings(language).invalidData("") + "\n"
        }
        let rows = collection.rows()
        guard !rows.isEmpty else { return copy.snapshot.title + "\n" + TerminalStrings(language).emptyPlan + "\n" }
        return copy.snapshot.title + " (v\(copy.version))\n"
            + ListRenderer(language: language).text(rows: rows, width: width)
    }

    /// `plan chart`: the timeline of a copy.
    static func chartText(
        _ copy: ClientPlanCopy, language: PlanLanguage, horizon: ChartHorizon, zoom: TimelineZoom, width: Int?
    ) -> String {
        guard let collection = try? TaskCollection(copy.tasks, dependencies: copy.dependencies) else {
            return TerminalStrings(language).invalidData("") + "\n"
        }
        return ChartRenderer(language: language).text(
            rows: collection.rows(), dependencies: collection.dependencies, horizon: horizon, zoom: zoom, width: width)
    }

    /// `plan export`: the snapshot as one JSON document.
    static func exportText(_ copy: ClientPlanCopy) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        copy.snapshot.encodeMembers(into: &writer)
        writer.endObject()
        return writer.string + "\n"
    }
}
