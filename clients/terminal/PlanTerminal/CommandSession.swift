import ChronoSketchCore
import PlanClient
import PlanProtocol
import SystemSupport

/// What a scriptable command asks for first, once the server welcomed it: the whole plan only
/// when the command needs it.
enum CommandOpening: Equatable {
    /// The live plan (a subscription and its snapshot): `show`, `chart`, `schedule`, `watch`.
    case subscribe
    /// Only the plan's current version, from `plans` (`propose`: the op is the whole proposal,
    /// and the server judges it by its values; the version is its base).
    case planVersion
    /// Only the requests of `CommandWants`: `history` (its page, then the titles of the tasks it
    /// names by id alone), and `show` or `chart` of a past version.
    case requests

    /// The opening of `subcommand` with `options`.
    static func of(_ subcommand: PlanOptions.Subcommand, options: PlanOptions) -> CommandOpening {
        switch subcommand {
        case .propose: .planVersion
        case .history: .requests
        case .show, .chart: options.version != nil && options.baseline == nil ? .requests : .subscribe
        default: .subscribe
        }
    }
}

/// One scriptable subcommand over one connection.
struct CommandSession {
    let connection: PlanConnection
    let plan: String
    let options: PlanOptions
    /// What `propose` sends.
    let operation: PlanOperation?
    var strings: TerminalStrings { TerminalStrings(options.language) }

    /// Runs `subcommand` until it is done; returns the exit status.
    func run(_ subcommand: PlanOptions.Subcommand) async -> Int32 {
        let watching = subcommand == .watch
        let opening = CommandOpening.of(subcommand, options: options)
        connection.start()
        var proposalID: String?
        var live: ClientPlanCopy?
        var wants = CommandWants(options: options)
        let timeout = Task.detached { [connection] in
            try? await Task.sleep(for: .seconds(watching ? 1_000_000 : 20))
            connection.close()
        }
        defer { timeout.cancel() }
        for await event in connection.events {
            switch event {
            case .welcome:
                if let failure = open(opening, subcommand, &wants) { return failure }
            case .disconnected(_, let reason, _):
                if watching { return 0 }
                ProcessIO.printError("plan: " + strings.connectionEnded(reason))
                return 2
            case .message(let message):
                if watching {
                    ProcessIO.print(message.json)
                    continue
                }
                if case .error(.unsupported, _, "titles"?) = message, wants.titlesUnsupported() {
                    connection.subscribe(plan)
                    continue
                }
                if case .error(let code, let text, _) = message {
                    ProcessIO.printError("plan: \(strings.serverError("\(code.rawValue): \(text)"))")
                    return 2
                }
                if let proposalID, let outcome = outcome(of: message, id: proposalID) { return outcome }
                if case .plans(let listings, "plans"?) = message, let operation {
                    // A plan the user cannot see: the subscription's error says so, as before.
                    guard let listing = listings.first(where: { $0.plan == plan }) else {
                        connection.subscribe(plan)
                        continue
                    }
                    proposalID = connection.propose(operation, plan: plan, baseVersion: listing.version)
                    continue
                }
                if wants.receive(message) {
                    if subcommand == .history, let ask = wants.titlesRequest(plan: plan, language: options.language) {
                        connection.sendRaw(ask.bytes)
                    }
                    guard wants.isComplete else { continue }
                    if let status = answer(subcommand, live: live, wants) { return status }
                    continue
                }
                guard case .snapshot = message, live == nil, let copy = connection.copy(of: plan) else { continue }
                live = copy
                if subcommand == .propose {
                    if proposalID == nil, let operation { proposalID = connection.propose(operation, plan: plan) }
                    continue
                }
                if opening == .subscribe, let failure = send(subcommand, copy: copy, &wants) { return failure }
                if wants.isComplete, let status = answer(subcommand, live: copy, wants) { return status }
            }
        }
        return 2
    }

    /// Asks for what `opening` says; an exit status when that failed.
    private func open(_ opening: CommandOpening, _ subcommand: PlanOptions.Subcommand, _ wants: inout CommandWants)
        -> Int32?
    {
        switch opening {
        case .subscribe: connection.subscribe(plan)
        case .planVersion: connection.sendRaw(ClientMessage.plans(ref: "plans").bytes)
        case .requests: return send(subcommand, copy: nil, &wants)
        }
        return nil
    }

    /// Sends the requests `subcommand` needs; an exit status when it cannot ask for them.
    private func send(_ subcommand: PlanOptions.Subcommand, copy: ClientPlanCopy?, _ wants: inout CommandWants)
        -> Int32?
    {
        do throws(CommandWants.Failure) {
            for request in try wants.requests(for: subcommand, plan: plan, copy: copy, language: options.language) {
                connection.sendRaw(request.bytes)
            }
        } catch {
            ProcessIO.printError("plan \(subcommand.rawValue): \(error.message)")
            return 2
        }
        return nil
    }

    /// `show`, `chart`, `history` and `schedule`: the copy (or the version asked for) printed; the
    /// exit status. Nil when the answer needs the live plan and it is not there yet.
    private func answer(_ subcommand: PlanOptions.Subcommand, live: ClientPlanCopy?, _ wants: CommandWants) -> Int32? {
        let shown = wants.past.map(ClientPlanCopy.init) ?? live
        switch subcommand {
        case .show:
            guard let shown else { return nil }
            ProcessIO.print(
                CommandSession.showText(shown, language: options.language, schedule: wants.schedule), terminator: "")
        case .history:
            if wants.titlesFromLivePlan && live == nil { return nil }
            let titles =
                wants.titles
                ?? Dictionary((live?.tasks ?? []).map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
            ProcessIO.print(wants.historyText(language: options.language, zone: .system) { titles[$0] }, terminator: "")
        case .chart:
            guard let shown else { return nil }
            return printChart(shown, baseline: wants.baselineRows)
        case .schedule:
            guard let schedule = wants.schedule, let live else { return live == nil ? nil : 2 }
            ProcessIO.print(
                CommandSession.scheduleText(schedule, titlesFrom: live, language: options.language), terminator: "")
        case .propose, .watch, .export, .bookings, .feed:
            return 2
        }
        return 0
    }

    /// `plan chart` of `copy`; the exit status.
    private func printChart(_ copy: ClientPlanCopy, baseline: [String: TaskRow]?) -> Int32 {
        do {
            let horizon = try options.horizon(today: System.today())
            CommandSession.writeChart(
                copy, language: options.language, horizon: horizon, zoom: options.zoom,
                width: options.width ?? System.terminalWidth(), baseline: baseline
            ) { ProcessIO.print($0, terminator: "") }
        } catch {
            ProcessIO.printError("plan chart: \(error.description)")
            return 2
        }
        return 0
    }
}
