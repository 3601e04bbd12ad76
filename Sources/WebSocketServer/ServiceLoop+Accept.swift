import CNetwork
import COpenSSL
import Glibc
import WebSocketWire

extension ServiceLoop {
    /// Accepts waiting connections (at most 64 at a time, so the other threads get theirs). A
    /// connection counts against its address's limit from here on, before a byte is read; one
    /// beyond it is answered 503 and closed at once. With TLS, the handshake is done on the
    /// handshake thread, which hands the connection on; otherwise connections go to the service
    /// threads in turn, whichever thread the kernel woke.
    func acceptConnections() {
        let listener = transport.listener.load(ordering: .acquiring)
        for _ in 0..<64 {
            let fd = cn_accept(listener)
            guard fd >= 0 else {
                switch cn_errno() {
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors: the backlog waits while connections close (a listener
                    // left readable would spin this thread).
                    _ = cn_epoll_control(epoll, EPOLL_CTL_DEL, listener, 0, 0)
                    listenerResumeAt = ServiceLoop.now() + 50_000_000
                case EAGAIN, EWOULDBLOCK: break
                default: continue  // an error of that one connection (Linux reports them here)
                }
                return
            }
            guard acceptingConnections, transport.accepting.load(ordering: .acquiring) else {
                Glibc.close(fd)
                continue
            }
            let address = ServiceLoop.peerAddress(fd)
            // A trusted proxy's connections count against their clients, once known (they are
            // many clients' behind one address).
            let proxy = transport.connectionSettings.configuration.trustedProxies.trusted(address)
            guard proxy != nil || transport.addresses.admit(address) else {
                refuse(fd, address: address)
                continue
            }
            let accepted = Accepted(fd: fd, address: address, proxy: proxy, at: ServiceLoop.now())
            if let handshakes = transport.handshakes {
                handshakes.enqueue(accepted)
                continue
            }
            let target = transport.nextShard.wrappingAdd(1, ordering: .relaxed).oldValue % transport.shards.count
            if target != shard.index {
                transport.shards[target].enqueue(.adopt(accepted, nil))
                continue
            }
            adopt(accepted, tls: nil)
        }
    }

    /// The peer's numeric address; an IPv4 peer of a dual-stack socket as plain IPv4
    /// (`::ffff:10.0.0.2` is `10.0.0.2`), so that it counts against one address whichever way
    /// it came.
    static func peerAddress(_ fd: Int32) -> String {
        var name = [CChar](repeating: 0, count: 64)
        cn_peer_numeric_address(fd, &name, name.count)
        let address = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return address.hasPrefix("::ffff:") && address.contains(".") ? String(address.dropFirst(7)) : address
    }

    /// Refuses a connection beyond its address's limit: a short 503 (on a plain socket, whose
    /// buffer takes it at once) and the close.
    private func refuse(_ fd: Int32, address: String) {
        transport.refusedConnections.wrappingAdd(1, ordering: .relaxed)
        if transport.handshakes == nil {
            let refusal = refusal(of: address)
            let answer = HTTPResponseBytes.make(status: refusal.status, body: refusal.body)
            answer.withUnsafeBytes { _ = cn_send(fd, $0.baseAddress, $0.count, 0) }
        }
        Glibc.close(fd)
    }

    /// The answer to a connection beyond its address's limit.
    func refusal(of address: String) -> HTTPAnswer {
        .plain(
            status: 503,
            "too many connections from \(address): at most \(transport.addresses.limit) (--max-connections-per-address)"
        )
    }

    /// Counts a trusted proxy's connection against its client `client` (and no longer against the
    /// client it was counted against before, if another); the refusal when `client` holds its limit.
    func admit(_ slot: ConnectionSlot, client: String) -> HTTPAnswer? {
        if slot.counted {
            guard slot.address != client else { return nil }
            transport.addresses.release(slot.address)
            slot.counted = false
        }
        slot.address = client
        guard transport.addresses.admit(client) else {
            transport.refusedConnections.wrappingAdd(1, ordering: .relaxed)
            return refusal(of: client)
        }
        slot.counted = true
        return nil
    }

    /// Watches the listening socket again.
    func watchListener() {
        listenerResumeAt = 0
        let listener = transport.listener.load(ordering: .acquiring)
        _ = cn_epoll_control(epoll, EPOLL_CTL_ADD, listener, ServiceLoop.listenerEvents, ServiceLoop.listenerToken)
    }

    /// Starts serving a connection this thread accepted or was handed (after its TLS handshake,
    /// with its session).
    func adopt(_ accepted: Accepted, tls: TLSSession?) {
        guard acceptingConnections else {
            ServiceLoop.discard(accepted, tls: tls, transport: transport)
            return
        }
        nextID &+= idStride
        let machine = ServerConnection(
            settings: transport.connectionSettings, ledger: transport.ledger, now: accepted.at, pingSlot: nextID)
        let slot = ConnectionSlot(
            id: ConnectionID(nextID), fd: accepted.fd, tls: tls?.session, address: accepted.address,
            counted: accepted.proxy == nil, machine: machine, registered: EPOLLIN.rawValue | EPOLLRDHUP.rawValue)
        if let proxy = accepted.proxy {
            // (The slot holds the machine, which holds this function: it must not hold the slot.)
            slot.machine.trustProxy(proxy) { [unowned self, unowned slot] client in self.admit(slot, client: client) }
        }
        guard cn_epoll_control(epoll, EPOLL_CTL_ADD, accepted.fd, slot.registered, nextID) == 0 else {
            ServiceLoop.discard(accepted, tls: tls, transport: transport)
            return
        }
        connections.value[nextID] = slot
        // What TLS read ahead during the handshake raises no epoll event.
        if tls != nil { readSoon.append(slot) }
    }

    /// Closes a connection that is not served after all.
    static func discard(_ accepted: Accepted, tls: TLSSession?, transport: WebSocketTransport) {
        if let session = tls?.session { SSL_free(session) }
        Glibc.close(accepted.fd)
        if accepted.proxy == nil { transport.addresses.release(accepted.address) }
    }

    /// Closes the connections handed over after the last drain, which were never adopted.
    func closeUnadopted() {
        let left = shard.outbox.withLock { commands -> [WebSocketTransport.Command] in
            defer { commands = [] }
            return commands
        }
        for case .adopt(let accepted, let tls) in left { ServiceLoop.discard(accepted, tls: tls, transport: transport) }
    }
}

/// A connection just accepted: its descriptor, the peer's address (counted against its limit
/// unless it is a trusted proxy's) and when.
struct Accepted: Sendable {
    let fd: Int32
    let address: String
    /// The peer's address when it is a trusted proxy.
    let proxy: IPAddress?
    /// Monotonic nanoseconds: the request head's deadline counts from here.
    let at: UInt64
}

/// A TLS session (`SSL*`) handed from the handshake thread to a service thread, which owns it
/// from then on (one thread uses it at a time).
struct TLSSession: @unchecked Sendable {
    let session: OpaquePointer
}
