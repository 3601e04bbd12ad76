import Glibc

/// Keeps the creation of a libwebsockets context apart from TLS handshakes under way, across
/// every transport of the process.
///
/// libwebsockets 4.1 (Debian's) files each TLS connection beside its `SSL` under an OpenSSL
/// ex-data index it keeps in one process-wide variable, and every context it creates takes a new
/// index and overwrites that variable. A handshake under way while another transport creates its
/// context then looks its connection up under the new index, finds nothing and fails: "can't get
/// wsi from ssl privdata", then "connect SSL err 1". (Later libwebsockets take the index once.)
/// A process that holds several transports — the tests, the load generator, a tool talking to
/// several servers — met it now and then.
///
/// Through this gate a context is created only once no handshake is under way, and no handshake
/// starts while a context is created or waits to be. The thread creating a context waits for the
/// handshakes under way: from the connect (the TCP connection's too: lws makes the `SSL` only
/// once it is up, without a callback) until lws writes the request's headers, at the latest until
/// libwebsockets' connect timeout. A service thread never waits: a handshake that may not start
/// now is put off (`tryStartHandshake` false) and its transport woken to try again once the
/// context is made. A creator is never starved by handshakes; handshakes wait while creators
/// keep coming (transports are made at a process's start, not in a loop). A transport must not be
/// created on a service thread (its own handshakes would wait for it): that stops the process.
final class TLSIndexGate: @unchecked Sendable {
    /// The process's one gate.
    static let shared = TLSIndexGate()

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`:
    /// Handshakes under way.
    private var handshakes = 0
    /// Threads waiting to create a context.
    private var creatorsWaiting = 0
    /// A context is being created.
    private var creating = false
    /// How to wake each transport's service thread, by transport.
    private var wakers: [ObjectIdentifier: @Sendable () -> Void] = [:]
    /// The transports' service threads running.
    private var serviceThreads: Set<pthread_t> = []

    private init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Runs `create` once no handshake is under way (waiting for those that are); then wakes every
    /// transport, so that the handshakes put off meanwhile start.
    func creatingContext<Result>(_ create: () throws(ClientError) -> Result) throws(ClientError) -> Result {
        pthread_mutex_lock(mutex)
        let onServiceThread = serviceThreads.contains(pthread_self())
        precondition(!onServiceThread, "a ClientTransport made in an event handler would wait for itself")
        creatorsWaiting += 1
        while handshakes > 0 || creating { pthread_cond_wait(changed, mutex) }
        creatorsWaiting -= 1
        creating = true
        pthread_mutex_unlock(mutex)
        defer {
            let wake = locked {
                creating = false
                pthread_cond_broadcast(changed)
                return Array(wakers.values)
            }
            for waker in wake { waker() }
        }
        return try create()
    }

    /// Whether a handshake may start now (then pair it with `handshakeEnded`); false while a
    /// context is created or waits to be: the caller puts the connection off until it is woken.
    func tryStartHandshake() -> Bool {
        locked {
            guard !creating, creatorsWaiting == 0 else { return false }
            handshakes += 1
            return true
        }
    }

    /// A handshake started with `tryStartHandshake` completed, failed or was given up.
    func handshakeEnded() {
        locked {
            handshakes -= 1
            if handshakes == 0 { pthread_cond_broadcast(changed) }
        }
    }

    /// `wake` is called after each context is created, until `forget(_:)`.
    func remember(_ transport: ObjectIdentifier, wake: @escaping @Sendable () -> Void) {
        locked { wakers[transport] = wake }
    }

    /// The calling thread serves a transport (until `serviceThreadEnds`).
    func serviceThreadStarts() {
        _ = locked { serviceThreads.insert(pthread_self()) }
    }

    /// The calling thread no longer serves a transport.
    func serviceThreadEnds() {
        _ = locked { serviceThreads.remove(pthread_self()) }
    }

    /// Stops waking `transport`.
    func forget(_ transport: ObjectIdentifier) {
        _ = locked { wakers.removeValue(forKey: transport) }
    }
}
