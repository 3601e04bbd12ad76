/// What a connection from a trusted proxy (`TrustedProxies`) knows of its client: the address
/// `X-Forwarded-For` is read against, whether a PROXY header may still come, and the client the
/// connection is counted against, with the loop's function that counts it.
struct ProxiedPeer {
    /// The socket's peer (a trusted proxy), or the source a PROXY header named.
    var peer: IPAddress
    /// Whether the connection's first bytes may still be a PROXY header.
    var headerExpected = true
    /// The client the connection is counted against (nil: not known yet).
    var client: String?
    /// Counts the connection against a client's address instead of the one before; returns the
    /// answer refusing it when that address holds its limit.
    let admit: (String) -> HTTPAnswer?
}

extension ServerConnection {
    /// Marks the connection as one from the trusted proxy `peer`: a PROXY header (v1 or v2) at its
    /// start is read, and `X-Forwarded-For` in each request head (see `TrustedProxies.client`).
    /// As soon as the client is known, and whenever a request names another, `admit` is called
    /// with its address (synchronously, before the request is handled): it counts the connection
    /// against that address and returns nil, or returns the answer that refuses the request,
    /// which then ends the connection. Call it before the first bytes are received.
    public mutating func trustProxy(_ peer: IPAddress, admit: @escaping (String) -> HTTPAnswer?) {
        proxied = ProxiedPeer(peer: peer, admit: admit)
    }

    /// The client's address as a trusted proxy named it (nil: no trusted proxy's connection, or
    /// its client is not known yet).
    public var clientAddress: String? { proxied?.client }

    /// What reading a PROXY header at the start of `bytes` came to.
    enum ProxyHeaderStep {
        /// Not enough bytes to tell: read more.
        case waiting
        /// This many bytes were the header (0: there is none); read on after them.
        case read(Int)
        /// The header was malformed or its client refused: the answer is queued, nothing more is read.
        case refused
    }

    /// Reads the PROXY header a trusted proxy may send first; a client it names that is not
    /// itself a trusted proxy is admitted at once.
    mutating func readProxyHeader(_ bytes: UnsafeRawBufferPointer) -> ProxyHeaderStep {
        guard var proxied, proxied.headerExpected else { return .read(0) }
        switch ProxyHeader.parse(bytes) {
        case .incomplete:
            return .waiting
        case .absent:
            proxied.headerExpected = false
            self.proxied = proxied
            return .read(0)
        case .invalid(let reason):
            queueAnswer(.plain(status: 400, reason), keepAlive: false, includeBody: true)
            return .refused
        case .complete(let source, let count):
            proxied.headerExpected = false
            if let source { proxied.peer = source }
            self.proxied = proxied
            guard settings.configuration.trustedProxies.contains(proxied.peer) else {
                return admit(proxied.peer.description) ? .read(count) : .refused
            }
            return .read(count)
        }
    }

    /// Admits the client of a request head from a trusted proxy's connection before the request
    /// is handled; false when it was refused (the answer is queued). True for other connections.
    mutating func admitClient(of head: HTTPRequestHead) -> Bool {
        guard let proxied else { return true }
        let client = settings.configuration.trustedProxies.client(
            of: proxied.peer, forwardedFor: head.elements("X-Forwarded-For"))
        return admit(client.description)
    }

    /// Counts the connection against `client` unless it already is; false when refused.
    private mutating func admit(_ client: String) -> Bool {
        guard let proxied, proxied.client != client else { return true }
        if let refusal = proxied.admit(client) {
            queueAnswer(refusal, keepAlive: false, includeBody: true)
            return false
        }
        self.proxied?.client = client
        return true
    }
}
