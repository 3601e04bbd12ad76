import CNetwork
import Dispatch
import Glibc
import PlanProtocol
import PlanStore
import Synchronization
import SystemSupport
import WebAssets
import WebSocketServer
import WebSocketWire

/// A running plan server: transport, hub, database workers, the listener for other processes'
/// commits, and the HTTP endpoints. `plan-server serve` and the tests start it the same way.
public final class PlanServerRuntime: Sendable {
    /// The configuration it runs with.
    public let configuration: ServerConfiguration
    /// Counters and histograms behind `/metrics`.
    public let metrics: Metrics
    let store: PlanStore
    let transport: WebSocketTransport
    let workers: BlockingWorkers
    let listener: PlanListener
    let events: HubInbox
    let flags: RuntimeFlags
    let stopped: DispatchSemaphore
    /// The web client's files, loaded at start (nil: none).
    let site: StaticSite?

    /// Starts serving.
    /// - Throws: `TransportError` when the port cannot be bound.
    public init(configuration: ServerConfiguration) throws(TransportError) {
        self.configuration = configuration
        let log = ServerLog(enabled: configuration.logging)
        let store = PlanStore(conninfo: configuration.databaseURL, connections: configuration.databaseConnections)
        self.store = store
        workers = try TransportError.wrapping { () throws(SystemError) in
            try BlockingWorkers(threads: configuration.databaseConnections)
        }
        let inbox = HubInbox()
        events = inbox
        let metrics = Metrics()
        self.metrics = metrics
        metrics.database.withLock { $0.events = store.pool.events }
        let flags = RuntimeFlags()
        self.flags = flags
        let transportBox = Locked<WebSocketTransport?>(nil)
        let site = try configuration.webRoot.map { directory throws(TransportError) in
            try TransportError.wrapping { () throws(SystemError) in
                try WebRoot.load(directory)
            }
        }
        self.site = site
        let workers = self.workers
        let transport = try WebSocketTransport(
            configuration: configuration.transportConfiguration,
            onEvent: { inbox.post(.transport($0)) },
            onHTTP: PlanServerRuntime.httpAnswers(
                site: site, flags: flags, metrics: metrics,
                documents: PlanServerRuntime.documentAnswers(store: store, workers: workers) { answer, connection in
                    transportBox.withLock { $0?.respond(answer, to: connection) }
                }
            ) {
                transportBox.withLock { transport in transport.map(Metrics.TransportFigures.init) }
            })
        transportBox.withLock { $0 = transport }
        self.transport = transport
        listener = try PlanServerRuntime.listener(configuration, posting: inbox)
        let executor = HubExecutor(
            hub: Hub(configuration: configuration, now: .now), store: store, transport: transport, workers: workers,
            metrics: metrics, log: log, events: inbox)
        let stopped = DispatchSemaphore(value: 0)
        self.stopped = stopped
        executor.shutdownFinished = { stopped.signal() }
        // (Not through `TransportError.wrapping`: a closure it runs cannot send `executor` to a thread.)
        do {
            try SystemThread.detached { executor.run() }
        } catch {
            throw TransportError(message: error.description)
        }
        inbox.post(.wallClock(WallClock.now()))
        // /healthz tells the truth from the first request on.
        flags.healthy.store(store.isAvailable(), ordering: .relaxed)
        // And says how durable an acknowledged commit is, in the log and in /metrics.
        PlanServerRuntime.readDurability(store, into: metrics, log: log)
        do {
            try transport.start()
            try TransportError.wrapping { () throws(SystemError) in try listener.start() }
            try startBackgroundChecks(log: log)
        } catch {
            // The executor's thread and the workers end instead of waiting forever.
            inbox.finish()
            workers.stop()
            throw error
        }
        log.info("serving on \(configuration.host):\(transport.port) (ws path /ws, /healthz, /metrics)")
        if let site = self.site, let directory = configuration.webRoot {
            let pages = site.pages.sorted { $0.key < $1.key }.map { name, page in
                let languages = page.languageModules.keys.sorted().joined(separator: "|")
                return "; \(name) preloads \(page.preloads.count) modules"
                    + (languages.isEmpty ? "" : " + lang-\(languages)")
            }
            log.info(
                "web client at http://\(configuration.host):\(transport.port)/ (\(site.files.count) files, "
                    + "\(site.byteCount) bytes, \(site.gzippedByteCount) gzipped, from \(directory)\(pages.joined()))")
        } else {
            log.info("no web client (no clients/web found; --web-root DIR serves one)")
        }
    }

    /// The listener for other processes' commits and changes of access. Its announcements go in
    /// the inbox's results lane: one posted before a worker's result is handled before it (a role
    /// lookup that read `editor` must not overtake its revocation).
    private static func listener(_ configuration: ServerConfiguration, posting inbox: HubInbox)
        throws(TransportError) -> PlanListener
    {
        try TransportError.wrapping { () throws(SystemError) in
            try PlanListener(conninfo: configuration.databaseURL) { event in
                switch event {
                case .committed(let plan, let version):
                    inbox.post(.externalCommit(plan: plan, version: version), lane: .results)
                case .roleChanged(let plan, let user, let role):
                    inbox.post(.accessChanged(.role(plan: plan, user: user, role)), lane: .results)
                case .tokensRevoked(let user): inbox.post(.accessChanged(.tokensRevoked(user: user)), lane: .results)
                case .resynchronize:
                    inbox.post(.externalCommit(plan: nil, version: 0), lane: .results)
                    inbox.post(.accessChanged(.resynchronize), lane: .results)
                }
            }
        }
    }

    /// The port actually listened on.
    public var port: Int { transport.port }

    /// Once a second (on a thread of its own): the hub's tick, and a database health check for
    /// `/healthz` (on a worker: it may block); every few seconds the database's durability for
    /// `/metrics`, logged when it is first read and whenever it changes.
    private func startBackgroundChecks(log: ServerLog) throws(TransportError) {
        let events = self.events
        let store = self.store
        let flags = self.flags
        let workers = self.workers
        let metrics = self.metrics
        var seconds = 0
        let check = { () -> Bool in
            guard flags.ticking.load(ordering: .relaxed) else { return false }
            let readDurability = seconds % RuntimeFlags.durabilityInterval == 0
            workers.submit {
                flags.healthy.store(store.isAvailable(), ordering: .relaxed)
                if readDurability { PlanServerRuntime.readDurability(store, into: metrics, log: log) }
            }
            events.post(.wallClock(WallClock.now()))
            events.post(.tick)
            seconds += 1
            // The allocator keeps what a storm of connections freed (after a cut, a thousand
            // viewers that reconnect and resume): hand it back to the system now and then.
            if seconds % RuntimeFlags.trimInterval == 0 { workers.submit { cn_release_free_memory() } }
            return true
        }
        // The first check at once, the others a second apart.
        _ = check()
        // (Not through `TransportError.wrapping`: a closure it runs cannot send `check` to a thread.)
        do {
            try SystemThread.repeating(every: .seconds(1), check)
        } catch {
            throw TransportError(message: error.description)
        }
    }

    /// Reads the database's durability into `metrics`; logs it when it is new or changed.
    private static func readDurability(_ store: PlanStore, into metrics: Metrics, log: ServerLog) {
        guard let durability = try? store.durability() else { return }
        let previous = metrics.database.withLock { database in
            defer { database.durability = durability }
            return database.durability
        }
        if previous?.isReplicated != durability.isReplicated || previous == nil {
            log.info("durability: \(durability)")
        }
    }

    /// Stops accepting, finishes in-flight commits, closes every connection with 1001, then stops
    /// the listener and the workers. Blocks until done.
    public func shutdown() {
        events.post(.shutdown)
        stopped.wait()
        flags.ticking.store(false, ordering: .relaxed)
        listener.stop()
        events.finish()
        workers.stop()
    }
}

/// Flags shared between the runtime's threads.
final class RuntimeFlags: Sendable {
    /// Whether the database answered the last health check.
    let healthy = Atomic<Bool>(false)
    /// Whether the once-a-second loop goes on.
    let ticking = Atomic<Bool>(true)
    /// Seconds between two `malloc_trim` calls.
    static let trimInterval = 10
    /// Seconds between two reads of the database's durability.
    static let durabilityInterval = 5
}
