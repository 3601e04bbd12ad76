import Synchronization
import SystemSupport

/// What a pool's connections lived through, for `/metrics`: connections lost (a failed call,
/// a node that turned read-only, a commit of unknown outcome), and failovers (a new connection
/// that reached another server than the one before, as a multi-host URL does after a failover).
public final class ConnectionEvents: Sendable {
    private let lost = Atomic<Int>(0)
    private let failovers = Atomic<Int>(0)
    private let server = Locked<String?>(nil)

    /// No events yet.
    public init() {}

    /// Connections dropped because they failed.
    public var connectionsLost: Int { lost.load(ordering: .relaxed) }

    /// Connections that reached another server than the previous connection did.
    public var serverChanges: Int { failovers.load(ordering: .relaxed) }

    /// The server (`host:port`) the latest connection reached, if any.
    public var currentServer: String? { server.withLock { $0 } }

    /// A connection failed and was dropped.
    func connectionLost() {
        lost.add(1, ordering: .relaxed)
    }

    /// A connection was made to `address` (`host:port`).
    func connected(to address: String) {
        let changed = server.withLock { current -> Bool in
            defer { current = address }
            return current != nil && current != address
        }
        if changed { failovers.add(1, ordering: .relaxed) }
    }
}
