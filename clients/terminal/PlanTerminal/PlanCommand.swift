import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import SystemSupport

/// The `plan` executable: parses the command line and runs the interactive client or a subcommand.
public enum PlanCommand {
    /// Runs `plan` with `arguments` (without the program name); returns the exit status.
    public static func main(arguments: [String]) async -> Int32 {
        let options: PlanOptions
        do {
            options = try PlanOptions(arguments: arguments, environment: ProcessIO.environment())
        } catch {
            let strings = TerminalStrings(
                PlanOptions.requestedLanguage(arguments, environment: ProcessIO.environment()))
            ProcessIO.printError("plan: \(error.description)\n\(strings.tryHelp)")
            return 2
        }
        let strings = TerminalStrings(options.language)
        if options.printsVersion {
            ProcessIO.print(PlanCommand.versionText)
            return 0
        }
        if options.help {
            ProcessIO.print(PlanOptions.helpText(options.subcommand, language: options.language), terminator: "")
            return 0
        }
        let missing = options.missingConnectionOptions
        guard missing.isEmpty, let server = options.server, let token = options.token, let plan = options.plan else {
            ProcessIO.printError("plan: \(strings.missing(missing))\n\(strings.tryHelp)")
            return 2
        }
        guard let subcommand = options.subcommand else {
            return InteractiveClient.run(options: options, server: server, token: token, plan: plan)
        }
        switch subcommand {
        case .export, .bookings:
            return await runDocument(subcommand, options: options, server: server, token: token, plan: plan)
        case .feed:
            return await runFeed(options: options, server: server, token: token, plan: plan)
        default:
            break
        }
        var operation: PlanOperation?
        if subcommand == .propose {
            guard let read = CommandSession.readProposal(options.file ?? "-", strings: strings) else { return 2 }
            operation = read
        }
        let transport: ClientTransport
        let connection: PlanConnection
        do {
            (transport, connection) = try PlanCommand.connection(options, server: server, token: token)
        } catch {
            ProcessIO.printError("plan: " + strings.clientError(error))
            return 2
        }
        let session = CommandSession(connection: connection, plan: plan, options: options, operation: operation)
        let status = await session.run(subcommand)
        connection.close()
        // The process ends with the transport alive: releasing a stopped ClientTransport races
        // with its service thread (see the report), so it is never stopped or released.
        withExtendedLifetime(transport) { exit(status) }
    }
}

extension PlanCommand {
    /// The name the client gives the server in `hello`.
    static let clientName = "plan/1"

    /// `plan --version`: the client's name and the protocol it speaks.
    public static var versionText: String {
        clientName + " (ChronoSketch protocol " + String(ServerMessage.protocolVersion) + ")"
    }

    /// A transport and a connection for one subcommand (no reconnecting).
    static func connection(_ options: PlanOptions, server: String, token: String) throws(ClientError) -> (
        ClientTransport, PlanConnection
    ) {
        let transport = try PlanCommand.transport(options, strings: TerminalStrings(options.language))
        var connectionOptions = PlanConnection.Options(
            url: server, token: token, clientName: PlanCommand.clientName, reconnect: false)
        connectionOptions.hangupSeconds = UInt16(options.idleTimeout)
        connectionOptions.pingSeconds = UInt16(max(1, options.idleTimeout * 2 / 5))
        return (transport, try PlanConnection(options: connectionOptions, transport: transport))
    }

    /// The client transport, trusting `--ca-file`'s certificates (checked first: a file that
    /// cannot be read or holds no PEM certificate is refused in words).
    static func transport(_ options: PlanOptions, strings: TerminalStrings) throws(ClientError) -> ClientTransport {
        guard let caFile = options.caFile else { return try ClientTransport() }
        let text: String
        do { text = String(decoding: try Files.read(caFile), as: UTF8.self) } catch {
            throw .transport(strings.cannotRead(caFile) + " (\(error))")
        }
        guard text.contains("-----BEGIN CERTIFICATE-----") else { throw .transport(strings.notACertificate(caFile)) }
        do { return try ClientTransport(caFile: caFile) } catch {
            throw .transport(strings.cannotLoadCertificates(caFile))
        }
    }
}

extension CommandSession {
    /// The outcome of a proposal: 0 confirmed, 1 rejected; nil for other messages.
    func outcome(of message: ServerMessage, id: String) -> Int32? {
        switch message {
        case .ack(id, _, let version, let noop, _):
            ProcessIO.print(strings.proposalConfirmed(version: version, noop: noop))
            return 0
        case .rejected(id, _, let code, let text, _, _, _):
            ProcessIO.print(strings.proposalRejected(code, text: text))
            return 1
        default:
            return nil
        }
    }

    /// The op in `file` (or standard input for "-"); nil, with the reason on standard error, when
    /// there is none.
    static func readProposal(_ file: String, strings: TerminalStrings) -> PlanOperation? {
        do {
            return try decodeProposal(try Files.read(file))
        } catch let error as SystemError {
            ProcessIO.printError("plan propose: " + strings.cannotRead(file) + " (\(error))")
        } catch {
            ProcessIO.printError("plan propose: " + strings.badProposal("\(error)"))
        }
        return nil
    }

    /// An op, or the op of a whole propose message.
    static func decodeProposal(_ bytes: [UInt8]) throws -> PlanOperation {
        let json = try JSONValue(parsing: bytes)
        if case .object(let members) = json, members["type"] == .string("propose"), let op = members["op"] {
            return try PlanOperation(json: op)
        }
        return try PlanOperation(json: json)
    }

    /// `plan show`: the list of a copy, with each scheduled task's slack when `schedule` is given.
    static func showText(
        _ copy: ClientPlanCopy, language: PlanLanguage, width: Int = 100, schedule: ScheduleAnswer? = nil
    ) -> String {
        guard let collection = try? TaskCollection(copy.tasks, dependencies: copy.dependencies) else {
            return TerminalStrings(language).invalidData("") + "\n"
        }
        let rows = collection.rows()
        guard !rows.isEmpty else { return copy.snapshot.title + "\n" + TerminalStrings(language).emptyPlan + "\n" }
        return copy.snapshot.title + " (v\(copy.version))\n"
            + ListRenderer(language: language).text(
                rows: rows, width: width,
                slack: schedule.map { answer in
                    let figures = Dictionary(answer.tasks.map { ($0.id, $0.figures) }, uniquingKeysWith: { a, _ in a })
                    return { row in figures[row.id].map(TerminalStrings(language).slack) ?? "" }
                }
            ) { row in
                collection.predecessorIDs(of: row.id).map { collection[$0]?.title ?? $0 }
            }
    }

    /// `plan schedule`: the finish and each scheduled task's late dates, slack and whether it
    /// is critical, titled from `copy` where it still has the task.
    static func scheduleText(_ answer: ScheduleAnswer, titlesFrom copy: ClientPlanCopy, language: PlanLanguage)
        -> String
    {
        let strings = TerminalStrings(language)
        let titles = Dictionary(copy.tasks.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        var lines = [strings.scheduleHeading(copy.snapshot.title, version: answer.version, finish: answer.finish)]
        guard !answer.tasks.isEmpty else { return lines[0] + "\n" + strings.nothingScheduled + "\n" }
        let names = answer.tasks.map { titles[$0.id] ?? $0.id }
        let width = min(40, max(strings.scheduleColumns.task.displayWidth, names.map(\.displayWidth).max() ?? 0))
        func padded(_ text: String, _ count: Int) -> String { text.padded(to: count) }
        let columns = strings.scheduleColumns
        func right(_ text: String, _ count: Int) -> String { text.leftPadded(to: count) }
        lines.append(
            padded(columns.task, width) + "  " + padded(columns.lateStart, 13) + padded(columns.lateFinish, 13)
                + right(columns.slack, 6) + "  " + columns.critical)
        for (row, name) in zip(answer.tasks, names) {
            let figures = row.figures
            let line =
                padded(name, width) + "  " + padded(figures.lateStart.description, 13)
                + padded(figures.lateFinish.description, 13) + right(String(figures.slack), 6) + "  "
                + (figures.critical ? columns.critical : "")
            lines.append(String(line.reversed().drop { $0 == " " }.reversed()))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `plan chart`: the timeline of a copy, handed to `write` a band of rows at a time (see
    /// `ChartRenderer.writeText`: only one band's cells are held at once).
    static func writeChart(
        _ copy: ClientPlanCopy, language: PlanLanguage, horizon: ChartHorizon, zoom: TimelineZoom, width: Int?,
        baseline: [String: TaskRow]? = nil, bandRows: Int = ChartRenderer.textBandRows, write: (String) -> Void
    ) {
        guard let collection = try? TaskCollection(copy.tasks, dependencies: copy.dependencies) else {
            write(TerminalStrings(language).invalidData("") + "\n")
            return
        }
        ChartRenderer(language: language).writeText(
            rows: collection.rows(), dependencies: collection.dependencies, horizon: horizon, zoom: zoom, width: width,
            baseline: baseline, bandRows: bandRows, write: write)
    }

    /// `plan chart`: the timeline of a copy.
    static func chartText(
        _ copy: ClientPlanCopy, language: PlanLanguage, horizon: ChartHorizon, zoom: TimelineZoom, width: Int?,
        baseline: [String: TaskRow]? = nil
    ) -> String {
        var text = ""
        writeChart(copy, language: language, horizon: horizon, zoom: zoom, width: width, baseline: baseline) {
            text += $0
        }
        return text
    }
}
