import CPostgres
import ChronoSketchCore
import Glibc
import Synchronization
import SystemSupport

/// Delivers other processes' commits and every change of access: a dedicated connection that
/// `LISTEN`s on the plans channel and the access channel and calls back on its own thread, in the
/// order the transactions committed.
///
/// Each commit sends `NOTIFY plan_changes, '<version> <plan id>'`; grants and revocations send a
/// JSON payload on `PlanStore.accessChannel` (sql/004_grants.sql). When the connection is lost the
/// listener reconnects with backoff and then reports `.resynchronize`, because notifications sent
/// meanwhile are lost: the receiver should read the log of every plan it holds.
public final class PlanListener: Sendable {
    /// What the listener reports.
    public enum Event: Sendable, Hashable {
        /// A commit of `plan` reached `version`.
        case committed(plan: String, version: Int)
        /// `user`'s role on `plan` is now `role` (nil: none).
        case roleChanged(plan: String, user: String, role: PlanRole?)
        /// Every token of `user` was deleted: its sessions must end.
        case tokensRevoked(user: String)
        /// Listening (re)started; notifications may have been missed before it.
        case resynchronize
    }

    /// The channel every commit notifies.
    public static let channel = "plan_changes"

    private let conninfo: String
    private let handler: @Sendable (Event) -> Void
    private let stopping = Atomic<Bool>(false)
    private let wakePipe: (read: Int32, write: Int32)
    private let thread = JoinableThread()

    /// Creates a listener; call `start()` to begin.
    /// - Throws: `SystemError` when its wake-up pipe cannot be created.
    public init(conninfo: String, handler: @escaping @Sendable (Event) -> Void) throws(SystemError) {
        self.conninfo = conninfo
        self.handler = handler
        wakePipe = try Files.pipe(nonBlocking: true)
    }

    deinit {
        close(wakePipe.read)
        close(wakePipe.write)
    }

    /// Starts the listening thread.
    /// - Throws: `SystemError` when the thread cannot be started.
    public func start() throws(SystemError) {
        try thread.start { self.run() }
    }

    /// Stops the thread and waits for it to end.
    public func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
        thread.join()
    }

    private var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    private func run() {
        var backoffMilliseconds: Int32 = 50
        while !isStopping {
            do {
                let connection = try PGConnection(conninfo: conninfo)
                try connection.query("LISTEN \(PlanListener.channel); LISTEN \(PlanStore.accessChannel)")
                backoffMilliseconds = 50
                handler(.resynchronize)
                try listen(on: connection)
            } catch {
                // Lost or not reachable: wait, then reconnect (unless stopping).
                if wait(milliseconds: backoffMilliseconds) { return }
                backoffMilliseconds = min(backoffMilliseconds * 2, 2000)
            }
        }
    }

    /// Waits on the connection's socket and the wake pipe; returns when stopping.
    private func listen(on connection: PGConnection) throws(StoreError) {
        guard let raw = connection.rawHandle else { throw .unavailable("no connection") }
        while !isStopping {
            var fds = [
                pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, 30_000)
            if ready < 0, errno != EINTR { throw .unavailable("poll failed") }
            if fds[1].revents != 0 { return }
            guard PQconsumeInput(raw) == 1, PQstatus(raw) == CONNECTION_OK else {
                throw .unavailable(String(cString: PQerrorMessage(raw)))
            }
            while let notification = PQnotifies(raw) {
                let channel = String(cString: notification.pointee.relname)
                let payload = String(cString: notification.pointee.extra)
                PQfreemem(notification)
                if let event = PlanListener.event(channel: channel, payload: payload) { handler(event) }
            }
            if ready == 0 {
                // Idle for a while: make sure the connection is still alive.
                try connection.queryOnCurrentConnection("SELECT 1")
            }
        }
    }

    /// The event a notification announces, or nil for a payload it cannot read.
    static func event(channel: String, payload: String) -> Event? {
        guard channel == PlanStore.accessChannel else {
            guard let space = payload.firstIndex(of: " "), let version = Int(payload[..<space]) else { return nil }
            return .committed(plan: String(payload[payload.index(after: space)...]), version: version)
        }
        guard case .object(let members)? = try? JSONValue(parsing: payload) else { return nil }
        if case .string(let user)? = members["revoked"] { return .tokensRevoked(user: user) }
        guard case .string(let plan)? = members["plan"], case .string(let user)? = members["user"] else { return nil }
        switch members["role"] {
        case .string(let name)?:
            guard let role = PlanRole(rawValue: name) else { return nil }
            return .roleChanged(plan: plan, user: user, role: role)
        case .null?, nil:
            return .roleChanged(plan: plan, user: user, role: nil)
        default:
            return nil
        }
    }

    /// Sleeps unless woken for stopping; returns true when stopping.
    private func wait(milliseconds: Int32) -> Bool {
        var fds = [pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 1, milliseconds)
        return isStopping
    }
}
