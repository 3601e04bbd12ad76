import Glibc

/// Keeps the creation of a libwebsockets context apart from TLS handshakes under way, across
/// every transport of the process.
///
/// libwebsockets 4.1 (Debian's) files each TLS connection beside its `SSL` under an OpenSSL
/// ex-data index it keeps in one process-wide variable, and every context it creates takes a new
/// index and overwrites that variable. A handshake under way while another transport creates its
/// context then looks its connection up under the new index, finds nothing and fails: "can't get
/// wsi from ssl privdata", then "connect SSL err 1". (Later libwebsockets take the index once.)
/// A process that holds several transports — the tests, a tool talking to several servers — met
/// it now and then. Through this gate a context is created only while no handshake is under way,
/// and a handshake starts only while no context is being created. Creating a context is quick;
/// a handshake ends at the latest at libwebsockets' connect timeout.
final class TLSIndexGate: @unchecked Sendable {
    /// The process's one gate.
    static let shared = TLSIndexGate()

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Handshakes under way (guarded by `mutex`).
    private var handshakes = 0
    /// A context is being created (guarded by `mutex`).
    private var creating = false

    private init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    /// Runs `create` once no handshake is under way; no handshake starts until it returns.
    func creatingContext<Result>(_ create: () throws(ClientError) -> Result) throws(ClientError) -> Result {
        pthread_mutex_lock(mutex)
        while handshakes > 0 || creating { pthread_cond_wait(changed, mutex) }
        creating = true
        pthread_mutex_unlock(mutex)
        defer {
            pthread_mutex_lock(mutex)
            creating = false
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }
        return try create()
    }

    /// A handshake starts: waits while a context is being created. Pair with `handshakeEnded`.
    func handshakeStarts() {
        pthread_mutex_lock(mutex)
        while creating { pthread_cond_wait(changed, mutex) }
        handshakes += 1
        pthread_mutex_unlock(mutex)
    }

    /// A handshake started with `handshakeStarts` completed, failed or was given up.
    func handshakeEnded() {
        pthread_mutex_lock(mutex)
        handshakes -= 1
        if handshakes == 0 { pthread_cond_broadcast(changed) }
        pthread_mutex_unlock(mutex)
    }
}
