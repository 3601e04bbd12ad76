import CWebSockets
import Glibc
import PlanProtocol
import Synchronization

/// The WebSocket and HTTP endpoint on libwebsockets: one service thread does all socket work and
/// never blocks; other threads hand it outgoing buffers through a locked outbox and wake it with
/// `lws_cancel_service` (lws `minimal-ws-server-threads`).
///
/// Each connection has a send queue of shared immutable buffers; when a socket is writable the
/// whole queue goes out as one frame (several messages as a JSON array). A connection whose queue
/// passes `maxQueueBytes` is closed with 1013 and its queue released at once.
public final class WebSocketTransport: Sendable {
    /// Where and how to listen.
    public struct Configuration: Sendable {
        /// The interface to bind, such as 127.0.0.1.
        public var host: String
        /// The port; 0 picks a free one (see `port` after `start()`).
        public var port: Int
        /// PEM certificate and key for wss://, both or neither.
        public var tlsCertificatePath: String?
        /// PEM private key for wss://.
        public var tlsKeyPath: String?
        /// A larger message closes the connection with 1009.
        public var maxMessageBytes: Int
        /// Unsent bytes beyond this close the connection with 1013.
        public var maxQueueBytes: Int
        /// Broadcasts to one connection are written at most once per this interval (what arrives
        /// meanwhile goes out together, as one frame); direct answers are written at once. Zero
        /// writes every broadcast as soon as the socket is writable.
        public var frameInterval: Duration = .zero

        /// Creates a configuration.
        public init(
            host: String = "127.0.0.1", port: Int = 8080, tlsCertificatePath: String? = nil, tlsKeyPath: String? = nil,
            maxMessageBytes: Int = 1 << 20, maxQueueBytes: Int = 8 << 20, frameInterval: Duration = .zero
        ) {
            self.frameInterval = frameInterval
            self.host = host
            self.port = port
            self.tlsCertificatePath = tlsCertificatePath
            self.tlsKeyPath = tlsKeyPath
            self.maxMessageBytes = maxMessageBytes
            self.maxQueueBytes = maxQueueBytes
        }
    }

    /// Work for the service thread.
    enum Command: Sendable {
        case send(OutgoingBuffer, [ConnectionID], urgent: Bool)
        case close(ConnectionID, CloseCode, String)
        case closeAll(CloseCode, String)
    }

    let configuration: Configuration
    let onEvent: @Sendable (TransportEvent) -> Void
    let onHTTP: @Sendable (String) -> HTTPResponse
    let outbox = Mutex<[Command]>([])
    let context = Mutex<ContextHandle?>(nil)
    let stopping = Atomic<Bool>(false)
    let listeningPort = Atomic<Int>(0)
    let queuedBytesTotal = Atomic<Int>(0)
    let thread = Mutex<pthread_t?>(nil)

    /// Creates a transport; `onEvent` and `onHTTP` run on the service thread and must not block.
    public init(
        configuration: Configuration, onEvent: @escaping @Sendable (TransportEvent) -> Void,
        onHTTP: @escaping @Sendable (String) -> HTTPResponse
    ) {
        self.configuration = configuration
        self.onEvent = onEvent
        self.onHTTP = onHTTP
    }

    /// The port actually listened on (after `start()`).
    public var port: Int { listeningPort.load(ordering: .acquiring) }

    /// Unsent bytes queued across all connections.
    public var queuedBytes: Int { queuedBytesTotal.load(ordering: .relaxed) }

    /// Creates the lws context and starts the service thread.
    /// - Throws: `TransportError` when the port cannot be bound or TLS files are unusable.
    public func start() throws(TransportError) {
        cs_raise_descriptor_limit()
        let core = TransportCore(transport: self)
        let handle = try core.createContext()
        context.withLock { $0 = handle }
        listeningPort.store(
            Int(lws_get_vhost_listen_port(lws_get_vhost_by_name(handle.pointer, "default"))), ordering: .releasing)
        let box = Unmanaged.passRetained(core)
        var thread = pthread_t()
        guard pthread_create(&thread, nil, transportThreadMain, box.toOpaque()) == 0 else {
            box.release()
            throw TransportError(message: "cannot start the service thread")
        }
        self.thread.withLock { $0 = thread }
        if configuration.frameInterval > .zero { startTicker() }
    }

    /// Wakes the service thread while broadcasts wait to be coalesced.
    private func startTicker() {
        let half = configuration.frameInterval / 2
        Task { [weak self] in
            while let self, !self.stopping.load(ordering: .relaxed) {
                try? await Task.sleep(for: half)
                if self.coalescingCount.load(ordering: .relaxed) > 0 { self.wake() }
            }
        }
    }

    /// Queues one buffer to many connections (encoded once, shared by all). With `coalesce`
    /// it may wait up to `frameInterval` to share a frame with what follows.
    public func broadcast(_ buffer: OutgoingBuffer, to connections: [ConnectionID], coalesce: Bool = true) {
        guard !connections.isEmpty else { return }
        enqueue(.send(buffer, connections, urgent: !coalesce))
    }

    /// Queues a direct answer to one connection: written as soon as the socket is writable,
    /// together with whatever is queued before it.
    public func send(_ buffer: OutgoingBuffer, to connection: ConnectionID) {
        enqueue(.send(buffer, [connection], urgent: true))
    }

    /// Closes a connection after what is queued for it has been written.
    public func close(_ connection: ConnectionID, code: CloseCode, reason: String) {
        enqueue(.close(connection, code, reason))
    }

    /// Stops accepting connections, closes every connection with `code` after flushing what is
    /// queued (for at most `flushSeconds`), then ends the service thread and destroys the context.
    public func shutdown(code: CloseCode = .goingAway, reason: String = "server shutting down", flushSeconds: Int = 5) {
        enqueue(.closeAll(code, reason))
        let deadline = ContinuousClock.now + .seconds(flushSeconds)
        // The service thread reports when no connection is left; wait for that or the deadline.
        while ContinuousClock.now < deadline, openConnectionCount.load(ordering: .acquiring) > 0 {
            var request = timespec(tv_sec: 0, tv_nsec: 10_000_000)
            nanosleep(&request, nil)
        }
        stopping.store(true, ordering: .releasing)
        wake()
        if let handle = thread.withLock({ current -> pthread_t? in
            defer { current = nil }
            return current
        }) {
            pthread_join(handle, nil)
        }
    }

    /// Open WebSocket connections, maintained by the service thread.
    let openConnectionCount = Atomic<Int>(0)
    /// Connections whose broadcasts wait for the frame interval; while any do, a ticker wakes
    /// the service thread twice per interval to flush them.
    let coalescingCount = Atomic<Int>(0)

    /// Queues a command; wakes the service thread only when the outbox was empty (it drains the
    /// whole outbox at once, so a wake for the earlier commands is still pending otherwise).
    private func enqueue(_ command: Command) {
        let wasEmpty = outbox.withLock { commands in
            defer { commands.append(command) }
            return commands.isEmpty
        }
        if wasEmpty { wake() }
    }

    func wake() {
        context.withLock { handle in
            if let handle { lws_cancel_service(handle.pointer) }
        }
    }
}

/// The lws context pointer, handed between threads only to call thread-safe lws functions
/// (`lws_cancel_service`) or by the thread that owns it.
struct ContextHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// Why the transport could not start.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// The message.
    public var description: String { message }
}

/// The service thread's entry point.
private func transportThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let core = Unmanaged<TransportCore>.fromOpaque(context!).takeRetainedValue()
    core.serviceLoop()
    return nil
}
