import CWebSockets
import Glibc
import Synchronization
import SystemSupport

/// WebSocket client connections on libwebsockets: one context and one service thread for any
/// number of connections (the load tester holds thousands). Other threads hand it work through a
/// locked inbox and `lws_cancel_service`; callbacks run on the service thread and must not block.
public final class ClientTransport: Sendable {
    /// What a connection reports, on the service thread.
    public enum Event: Sendable {
        /// The handshake completed.
        case opened
        /// A complete text message.
        case message([UInt8])
        /// The connection closed or could not be made; `code` is the server's close code, if any.
        case closed(code: UInt16?, reason: String)
    }

    /// Where to connect.
    public struct Endpoint: Sendable, Hashable {
        /// Host name or address.
        public var host: String
        /// Port.
        public var port: Int
        /// Request path, such as /ws.
        public var path: String
        /// wss:// when true.
        public var secure: Bool
        /// Accept self-signed certificates and any host name (tests, private deployments).
        public var trustAnyCertificate = false
        /// Liveness: after this many idle seconds the client pings; after `hangupSeconds` without
        /// a sign of life (a pong) it hangs up, so a cut link is noticed and the client reconnects.
        public var pingSeconds: UInt16 = 10
        /// See `pingSeconds`.
        public var hangupSeconds: UInt16 = 25

        /// Parses `ws://host:port/path` or `wss://…`.
        public init?(url: String) {
            let secure = url.hasPrefix("wss://")
            guard secure || url.hasPrefix("ws://") else { return nil }
            let rest = url.dropFirst(secure ? 6 : 5)
            let hostPort = rest.prefix { $0 != "/" }
            let path = rest.dropFirst(hostPort.count)
            let parts = hostPort.split(separator: ":", maxSplits: 1)
            guard let host = parts.first, !host.isEmpty else { return nil }
            let port = parts.count == 2 ? Int(parts[1]) : (secure ? 443 : 80)
            guard let port else { return nil }
            self.host = String(host)
            self.port = port
            self.path = path.isEmpty ? "/ws" : String(path)
            self.secure = secure
        }
    }

    enum Command: Sendable {
        case connect(UInt64, Endpoint)
        case send(UInt64, [UInt8])
        case close(UInt64)
        /// An HTTP GET (`ClientTransport+HTTP.swift`).
        case get(UInt64, HTTPRequest)
        /// Gives up an HTTP GET that has not been answered.
        case cancel(UInt64)
    }

    let inbox = Locked<[Command]>([])
    let handlers = Locked<[UInt64: @Sendable (Event) -> Void]>([:])
    /// Each HTTP GET's completion, taken out when it is called (so it is called once).
    let downloadHandlers = Locked<[UInt64: @Sendable (Result<HTTPResponse, ClientError>) -> Void]>([:])
    let nextID = Atomic<UInt64>(1)
    let context = Locked<ClientContextHandle?>(nil)
    let stopping = Atomic<Bool>(false)
    private let thread = JoinableThread()

    /// Creates the context and starts the service thread. With `caFile` (a PEM file of one or
    /// more certificates), the certificates in it are trusted for every wss:// connection of this
    /// transport, besides the system's: a server with a self-signed certificate is then verified
    /// against it (with its host name checked) instead of refused.
    /// - Throws: `ClientError.transport` when the context cannot be made (also for a CA file that
    ///   libwebsockets cannot load).
    public init(caFile: String? = nil) throws(ClientError) {
        let core = ClientCore(transport: self)
        let handle = try core.createContext(caFile: caFile)
        context.withLock { $0 = handle }
        do {
            try thread.start { core.serviceLoop() }
        } catch {
            throw ClientError.transport("cannot start the client thread: \(error)")
        }
        // TLS connections put off while another transport created its context start when woken.
        TLSIndexGate.shared.remember(ObjectIdentifier(self)) { [weak self] in self?.wake() }
    }

    /// A number for a new connection, to pass to `connect(_:to:handler:)`; known before any
    /// event of that connection can arrive.
    public func reserveConnectionID() -> UInt64 {
        nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// Opens a connection; `handler` receives its events on the service thread.
    public func connect(_ id: UInt64, to endpoint: Endpoint, handler: @escaping @Sendable (Event) -> Void) {
        handlers.withLock { $0[id] = handler }
        enqueue(.connect(id, endpoint))
    }

    /// Queues one message (one frame).
    public func send(_ bytes: [UInt8], on connection: UInt64) {
        enqueue(.send(connection, bytes))
    }

    /// Closes a connection (normal closure).
    public func close(_ connection: UInt64) {
        enqueue(.close(connection))
    }

    /// Ends the service thread and waits for it (unless called on it); open connections are
    /// dropped and their handlers told so. Calling it again does nothing.
    public func stop() {
        TLSIndexGate.shared.forget(ObjectIdentifier(self))
        stopping.store(true, ordering: .releasing)
        wake()
        thread.join()
    }

    func enqueue(_ command: Command) {
        inbox.withLock { $0.append(command) }
        wake()
    }

    private func wake() {
        context.withLock { handle in
            if let handle { lws_cancel_service(handle.pointer) }
        }
    }
}

/// Why a client operation failed.
public enum ClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The transport could not start or connect.
    case transport(String)
    /// The connection closed.
    case closed(code: UInt16?, reason: String)
    /// The server answered with an error.
    case server(code: String, message: String)
    /// No answer in time.
    case timedOut
    /// The URL is not ws:// or wss://.
    case badURL(String)

    /// A short English explanation.
    public var description: String {
        switch self {
        case .transport(let message): "transport: \(message)"
        case .closed(let code, let reason): "closed (\(code.map(String.init) ?? "no code")): \(reason)"
        case .server(let code, let message): "\(code): \(message)"
        case .timedOut: "no answer in time"
        case .badURL(let url): "not a ws:// or wss:// URL: \(url)"
        }
    }
}

struct ClientContextHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
