import CNetwork
import COpenSSL
import Glibc
import WebSocketWire

/// One connection of a service loop: its protocol state (`ServerConnection`, which decides) and
/// what only the loop knows — the descriptor and how bytes move on it, the peer's address, what
/// epoll watches, and the loop's lists it waits in. Service thread only (a write helper writes the
/// connections of a chunk it took from a shared pass).
final class ConnectionSlot {
    let id: ConnectionID
    let fd: Int32
    let channel: Channel
    /// The peer's numeric address; for a trusted proxy's connection, its client's once known.
    var address: String
    /// Whether the connection counts against `address`'s limit (until the descriptor is closed):
    /// from accept on, except a trusted proxy's, which counts once its client is known.
    var counted: Bool
    var machine: ServerConnection
    /// The epoll events registered for the descriptor.
    var registered: UInt32
    /// Whether reading waits for the hub to catch up (with everyone), and whether it waits for the
    /// hub to take this connection's own messages.
    var readPaused = false
    var intakeHeld = false
    /// Whether a TLS read waits for the socket to be writable.
    var readNeedsWritable = false
    /// Whether it waits in the loop's list of connections to write after the next round.
    var awaitingWrite = false
    /// Whether it waits in the list of connections whose broadcasts wait for the frame interval.
    var awaitingFlush = false
    /// Whether the descriptor has been closed.
    var closed = false
    /// The queued bytes last counted in the transport's total.
    var countedQueuedBytes = 0

    init(
        id: ConnectionID, fd: Int32, tls: OpaquePointer?, address: String, counted: Bool, machine: ServerConnection,
        registered: UInt32
    ) {
        self.id = id
        self.fd = fd
        channel = Channel(fd: fd, tls: tls)
        self.address = address
        self.counted = counted
        self.machine = machine
        self.registered = registered
    }

    /// What epoll should watch: reading unless paused or ended, writing while a write waits.
    var wantedEvents: UInt32 {
        let read = machine.wantsRead && !readPaused && !intakeHeld ? EPOLLIN.rawValue | EPOLLRDHUP.rawValue : 0
        let write = machine.wantsWrite || readNeedsWritable ? EPOLLOUT.rawValue : 0
        return read | write
    }
}
