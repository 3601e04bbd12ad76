import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import SystemSupport

/// `plan export`, `plan bookings` and `plan feed`: the documents come from the server's HTTP
/// export (`GET /plans/ID/export`, the bytes the web client downloads) on the host, port and TLS
/// of `--server`; the feed's address from the wire's `feed` request. Exit status 0 done, 1 the
/// server said no or could not be reached (in words on standard error), 2 a command line or
/// configuration that cannot run.
extension PlanCommand {
    /// `plan export` or `plan bookings`; ends the process.
    static func runDocument(
        _ subcommand: PlanOptions.Subcommand, options: PlanOptions, server: String, token: String, plan: String
    ) async -> Int32 {
        let strings = TerminalStrings(options.language)
        let name = "plan \(subcommand.rawValue): "
        guard let endpoint = ClientTransport.Endpoint(url: server) else {
            ProcessIO.printError(name + strings.clientError(.badURL(server)))
            return 2
        }
        let transport: ClientTransport
        do { transport = try PlanCommand.transport(options, strings: strings) } catch {
            ProcessIO.printError(name + strings.clientError(error))
            return 2
        }
        let format = subcommand == .bookings ? .json : options.format
        let download = PlanDocumentDownload(plan: plan, format: format, version: options.version)
        let status: Int32
        switch await download.fetch(on: transport, endpoint: endpoint, token: token) {
        case .failure(let failure):
            ProcessIO.printError(
                name
                    + strings.downloadFailure(failure, plan: plan, version: options.version, origin: endpoint.origin))
            status = 1
        case .success(let document) where subcommand == .bookings:
            status = printBookings(document, options: options, strings: strings)
        case .success(let document):
            for code in document.warningCodes { ProcessIO.printError(strings.exportWarning(code)) }
            // As `plan-server plan export` prints it: JSON ends its line, the other formats end as written.
            Files.writeAll(document.body + (format == .json ? [UInt8(ascii: "\n")] : []), to: 1)
            status = 0
        }
        // The process ends with the transport alive (see `main`).
        withExtendedLifetime(transport) { exit(status) }
    }

    /// `plan bookings`: the lines of `BookingList`; 1 when the document cannot be read or
    /// `--resource` names a resource the plan does not have.
    private static func printBookings(_ document: DownloadedDocument, options: PlanOptions, strings: TerminalStrings)
        -> Int32
    {
        let plan: PlanDocument
        do { plan = try PlanDocument(json: try JSONValue(parsing: document.body)) } catch {
            ProcessIO.printError("plan bookings: " + strings.notAPlanDocument("\(error)"))
            return 1
        }
        let list = BookingList(plan)
        let unknown = options.resources.filter { list.timeline.resource($0) == nil }
        guard unknown.isEmpty else {
            ProcessIO.printError(
                "plan bookings: " + strings.unknownResources(unknown, known: list.timeline.resources.map(\.id)))
            return 1
        }
        ProcessIO.print(list.text(from: options.from, to: options.to, resources: options.resources), terminator: "")
        return 0
    }

    /// `plan feed [--revoke]`: prints the calendar feed's full address (or ends it); ends the process.
    static func runFeed(options: PlanOptions, server: String, token: String, plan: String) async -> Int32 {
        let strings = TerminalStrings(options.language)
        let transport: ClientTransport
        let connection: PlanConnection
        do { (transport, connection) = try PlanCommand.connection(options, server: server, token: token) } catch {
            ProcessIO.printError("plan feed: " + strings.clientError(error))
            return 2
        }
        connection.start()
        let status: Int32
        do {
            let path = try await connection.feed(plan: plan, revoke: options.revoke)
            if options.revoke {
                ProcessIO.print(strings.feedRevoked(plan))
            } else if let path, let endpoint = ClientTransport.Endpoint(url: server) {
                ProcessIO.print(endpoint.origin + path)
            }
            status = 0
        } catch .server(let code, _) where code == ProtocolErrorCode.unknownPlan.rawValue {
            ProcessIO.printError("plan feed: " + strings.feedUnknownPlan(plan))
            status = 1
        } catch {
            ProcessIO.printError("plan feed: " + strings.clientError(error))
            status = 1
        }
        connection.close()
        withExtendedLifetime(transport) { exit(status) }
    }
}
