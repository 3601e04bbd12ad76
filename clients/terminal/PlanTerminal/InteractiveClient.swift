import CNcurses
import CNetwork
import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import SystemSupport

/// The interactive client's adapter: ncursesw for the screen and keys, a PlanConnection for the
/// network, one loop for both (poll on standard input and an eventfd), and `ClientModel` for
/// everything else.
enum InteractiveClient {
    /// Runs until the user quits; returns the exit status.
    static func run(options: PlanOptions, server: String, token: String, plan: String) -> Int32 {
        let today = System.today()
        let horizon: ChartHorizon
        let transport: ClientTransport
        let connection: PlanConnection
        do {
            horizon = try options.horizon(today: today)
            transport = try PlanCommand.transport(options, strings: TerminalStrings(options.language))
            var connectionOptions = PlanConnection.Options(
                url: server, token: token, clientName: PlanCommand.clientName)
            connectionOptions.hangupSeconds = UInt16(options.idleTimeout)
            connectionOptions.pingSeconds = UInt16(max(1, options.idleTimeout * 2 / 5))
            connection = try PlanConnection(options: connectionOptions, transport: transport)
        } catch let error as ClientError {
            ProcessIO.printError("plan: " + TerminalStrings(options.language).clientError(error))
            return 2
        } catch {
            ProcessIO.printError("plan: \(error)")
            return 2
        }
        // The configuration file's language unless the command line names one.
        let loaded = ClientConfig.load(environment: ProcessIO.environment(), language: options.language)
        var settings = ClientSettings(
            plan: plan, language: options.languageGiven ? options.language : loaded.config.language ?? options.language,
            title: options.title, horizon: horizon, today: today,
            idPrefix: System.randomPrefix(), zoom: options.zoom)
        settings.localTime = .system
        settings.config = loaded.config
        settings.serverOrigin = ClientTransport.Endpoint(url: server)?.origin
        var model = ClientModel(settings: settings)
        let inbox = EventInbox()
        let events = connection.events
        Task.detached {
            for await event in events { inbox.push(event) }
        }
        connection.subscribe(plan)
        connection.start()

        let screen = CursesScreen()
        if loaded.config.mouse { screen.enableMouse() }
        model.settings.colours = ColourDepth.decide(
            noColor: ProcessIO.environment()["NO_COLOR"], terminalColours: screen.colourCount)
        if let fallback = screen.localeFallback {
            model.message = TerminalStrings(options.language).localeFallback(fallback)
        }
        if let notice = loaded.notice {
            model.message = [model.message, notice].compactMap { $0 }.joined(separator: " ")
        }
        defer {
            screen.end()
            connection.close()
            // Kept alive until the process exits (releasing a stopped ClientTransport races with
            // its service thread).
            withExtendedLifetime(transport) { exit(0) }
        }
        var loop = ScreenLoop(model: model, connection: connection, plan: plan, screen: screen, inbox: inbox)
        loop.run()
        return 0
    }
}

/// The interactive client's loop: waits for keys, connection events and timers, hands them to
/// the model, performs what it asks for and draws.
struct ScreenLoop {
    var model: ClientModel
    let connection: PlanConnection
    let plan: String
    let screen: CursesScreen
    let inbox: EventInbox
    /// Wake-ups the model asked for (coalesced re-queries): deadline and token.
    private var timers: [(deadline: ContinuousClock.Instant, token: Int)] = []
    private var running = true

    init(model: ClientModel, connection: PlanConnection, plan: String, screen: CursesScreen, inbox: EventInbox) {
        (self.model, self.connection, self.plan, self.screen, self.inbox) = (model, connection, plan, screen, inbox)
    }

    /// Runs until the user quits or standard input ends.
    mutating func run() {
        _ = model.handle(.resize(width: screen.width, height: screen.height))
        screen.draw(model.render())
        while running {
            let now = ContinuousClock.now
            let timeout = timers.map { max(Int(($0.deadline - now) / .milliseconds(1)), 0) }.min() ?? 1000
            // A mouse report's start waits for its rest a little (`MouseDecoder.patience`), not a second.
            let limit = screen.holdsInput ? 50 : 1000
            guard screen.wait(for: inbox.fd, milliseconds: min(timeout, limit)) else { break }
            var actions = dueTimers()
            for event in inbox.drain() { actions += handle(event) }
            for input in screen.readKeys() {
                switch input {
                case .key(let key): actions += model.handle(.key(key))
                case .resize(let width, let height): actions += model.handle(.resize(width: width, height: height))
                }
            }
            perform(actions)
            screen.draw(model.render())
        }
    }

    private mutating func dueTimers() -> [ClientAction] {
        let woken = ContinuousClock.now
        let due = timers.filter { $0.deadline <= woken }
        timers.removeAll { $0.deadline <= woken }
        return due.flatMap { model.handle(.wake(token: $0.token)) }
    }

    private mutating func handle(_ event: PlanConnection.Event) -> [ClientAction] {
        switch event {
        case .welcome(_, let user, _):
            return model.handle(.welcome(user: user))
        case .disconnected(_, let reason, let willReconnect):
            return model.handle(.disconnected(reason: reason, willReconnect: willReconnect))
        case .message(let message):
            var actions: [ClientAction] = []
            switch message {
            case .snapshot(let snapshot, _) where snapshot.historical:
                break  // a fetched past version: an answer, not the copy
            case .snapshot:
                if let copy = connection.copy(of: plan) { actions += model.handle(.copy(copy)) }
                // Decoding a big snapshot leaves its JSON tree's memory free but held by malloc:
                // give it back to the system (a 100,000-task plan: 156 MiB resident after loading, 54 after this).
                cn_release_free_memory()
            case .confirmed(plan, let version, _, _, _, _, _):
                // The model applies the changes to its own copy; when it could not (a gap), it
                // takes the connection's (which may be ahead already: later confirmed then pass).
                actions += model.handle(.server(message))
                if (model.copy?.version ?? -1) < version, let copy = connection.copy(of: plan) {
                    actions += model.handle(.copy(copy))
                }
                return actions
            case .resumed:
                if let copy = connection.copy(of: plan) { actions += model.handle(.copy(copy)) }
            default:
                break
            }
            return actions + model.handle(.server(message))
        }
    }

    private mutating func perform(_ actions: [ClientAction]) {
        for action in actions {
            switch action {
            case .propose(let operation, let id): connection.propose(operation, plan: plan, id: id)
            case .watch(let query, let id): connection.watch(plan, query: query, id: id)
            case .unwatch(let id): connection.unwatch(id)
            case .requestHistory(let before, let limit, let ref):
                connection.sendRaw(ClientMessage.history(plan: plan, before: before, limit: limit, ref: ref).bytes)
            case .fetch(let version, let ref):
                connection.sendRaw(ClientMessage.fetch(plan: plan, version: version, ref: ref).bytes)
            case .schedule(let version, let ids, let ref):
                let asked = ids.isEmpty ? nil : ids
                connection.sendRaw(ClientMessage.schedule(plan: plan, version: version, ids: asked, ref: ref).bytes)
            case .requestFeed(let ref):
                connection.sendRaw(ClientMessage.feed(plan: plan, ref: ref).bytes)
            case .wake(let milliseconds, let token):
                timers.append((ContinuousClock.now + .milliseconds(milliseconds), token))
            case .quit: running = false
            }
        }
    }
}

/// Connection events handed from the network to the screen loop, with an eventfd to wake it.
final class EventInbox: Sendable {
    /// The eventfd the loop polls.
    let fd: Int32
    private let queue = Locked<[PlanConnection.Event]>([])

    init() {
        fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
    }

    deinit { close(fd) }

    func push(_ event: PlanConnection.Event) {
        queue.withLock { $0.append(event) }
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }

    func drain() -> [PlanConnection.Event] {
        var count: UInt64 = 0
        _ = read(fd, &count, 8)
        return queue.withLock { queue in
            defer { queue = [] }
            return queue
        }
    }
}
