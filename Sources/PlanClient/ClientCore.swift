import CNetwork
import COpenSSL
import CWebSockets
import Glibc

/// State only the client service thread touches.
final class ClientCore {
    final class Connection {
        let id: UInt64
        var wsi: OpaquePointer?
        var outgoing: [[UInt8]] = []
        var receiving: [UInt8] = []
        var closeCode: UInt16?
        var closeReason = ""
        var closing = false
        var open = false
        init(id: UInt64) { self.id = id }
    }

    let transport: ClientTransport
    var connections: [UInt64: Connection] = [:]
    /// HTTP GETs under way (`ClientCore+HTTP.swift`).
    var downloads: [UInt64: Download] = [:]
    /// Connections and GETs whose TLS handshake holds `TLSIndexGate` (until established or gone).
    private var handshaking: Set<UInt64> = []
    /// TLS connects and GETs put off by `TLSIndexGate`, in order, tried again at the next wake.
    private var putOff: [ClientTransport.Command] = []
    /// The ids of `putOff`.
    private var putOffIDs: Set<UInt64> = []
    private(set) var context: OpaquePointer?
    private(set) var protocols: UnsafeMutablePointer<lws_protocols>?

    init(transport: ClientTransport) {
        self.transport = transport
    }

    deinit {
        cs_free_protocols(protocols)
        for policy in idlePolicies.values { policy.deallocate() }
    }

    /// lws's idle policies by (ping, hangup) seconds: lws keeps the pointer for the connection's
    /// life, so each lives as long as this core.
    private var idlePolicies: [UInt32: UnsafeMutablePointer<lws_retry_bo_t>] = [:]

    private func idlePolicy(ping: UInt16, hangup: UInt16) -> UnsafeMutablePointer<lws_retry_bo_t> {
        let key = UInt32(ping) << 16 | UInt32(hangup)
        if let policy = idlePolicies[key] { return policy }
        let policy = UnsafeMutablePointer<lws_retry_bo_t>.allocate(capacity: 1)
        var value = lws_retry_bo_t()
        value.secs_since_valid_ping = ping
        value.secs_since_valid_hangup = hangup
        policy.initialize(to: value)
        idlePolicies[key] = policy
        return policy
    }

    func createContext(caFile: String?) throws(ClientError) -> ClientContextHandle {
        cs_lws_log_errors_only()
        cn_raise_descriptor_limit()
        let table = cs_make_protocols("chronosketch.v1", clientCallback, 0, 65536)
        protocols = table
        var info = lws_context_creation_info()
        info.port = CONTEXT_PORT_NO_LISTEN
        info.protocols = UnsafePointer(table)
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.options = cs_option_ssl_global_init()
        // lws reads the file while it creates the context (its client TLS context loads it).
        let caPath = caFile.flatMap { strdup($0) }
        defer { free(caPath) }
        info.client_ssl_ca_filepath = UnsafePointer(caPath)
        let made = try TLSIndexGate.shared.creatingContext { () throws(ClientError) in lws_create_context(&info) }
        guard let created = made else {
            throw .transport(
                caFile.map { "cannot create the client context (is \($0) a PEM certificate file?)" }
                    ?? "cannot create the client context")
        }
        context = created
        return ClientContextHandle(pointer: created)
    }

    func serviceLoop() {
        TLSIndexGate.shared.serviceThreadStarts()
        defer { TLSIndexGate.shared.serviceThreadEnds() }
        while !transport.stopping.load(ordering: .acquiring) {
            if lws_service(context, 0) < 0 { break }
        }
        transport.context.withLock { $0 = nil }
        lws_context_destroy(context)
        context = nil
        for id in handshaking { endHandshake(id) }
        for connection in connections.values { report(connection.id, .closed(code: nil, reason: "client stopped")) }
        for id in downloads.keys { finishDownload(id, .failure(.transport("client stopped"))) }
    }

    private func report(_ id: UInt64, _ event: ClientTransport.Event) {
        let handler = transport.handlers.withLock { handlers -> (@Sendable (ClientTransport.Event) -> Void)? in
            if case .closed = event { return handlers.removeValue(forKey: id) }
            return handlers[id]
        }
        handler?(event)
    }

    private func drainInbox() {
        let commands =
            putOff
            + transport.inbox.withLock { commands -> [ClientTransport.Command] in
                defer { commands = [] }
                return commands
            }
        putOff = []
        for command in commands {
            switch command {
            case .connect(let id, let endpoint):
                // A connect closed while it was put off was answered then (`.close`).
                if putOffIDs.remove(id) != nil, connections[id] == nil { continue }
                let connection = connections[id] ?? Connection(id: id)
                connections[id] = connection
                guard !endpoint.secure || startHandshake(id) else {
                    putOff(command, id)
                    continue
                }
                var info = lws_client_connect_info()
                let host = strdup(endpoint.host)
                let path = strdup(endpoint.path)
                defer {
                    free(host)
                    free(path)
                }
                info.context = context
                info.address = UnsafePointer(host)
                info.port = Int32(endpoint.port)
                info.path = UnsafePointer(path)
                info.host = UnsafePointer(host)
                info.origin = UnsafePointer(host)
                info.protocol = UnsafePointer(protocols![0].name)
                // LCCSCF_USE_SSL, plus ALLOW_SELFSIGNED | SKIP_SERVER_CERT_HOSTNAME_CHECK | ALLOW_INSECURE.
                info.ssl_connection = endpoint.secure ? (endpoint.trustAnyCertificate ? 1 | 2 | 4 | 16 : 1) : 0
                info.ietf_version_or_minus_one = -1
                info.userdata = UnsafeMutableRawPointer(bitPattern: UInt(id))
                info.retry_and_idle_policy = UnsafePointer(
                    idlePolicy(ping: endpoint.pingSeconds, hangup: endpoint.hangupSeconds))
                // OpenSSL reads the thread's error queue to tell a handshake's "wait for more" from
                // a failure: an error a failed connection left there (a certificate refused) could
                // make the next connection on this thread fail. (The "connect SSL err 1" seen now
                // and then had another cause: see `TLSIndexGate`.)
                cs_ssl_clear_errors()
                if let wsi = lws_client_connect_via_info(&info) {
                    connection.wsi = wsi
                } else {
                    endHandshake(id)
                    connections[id] = nil
                    report(id, .closed(code: nil, reason: "cannot connect (out of descriptors?)"))
                }
            case .send(let id, let bytes):
                guard let connection = connections[id], !connection.closing else { continue }
                connection.outgoing.append(bytes)
                if connection.open, let wsi = connection.wsi { lws_callback_on_writable(wsi) }
            case .close(let id):
                guard let connection = connections[id] else { continue }
                if connection.wsi == nil, putOffIDs.contains(id) {
                    connections[id] = nil
                    report(id, .closed(code: nil, reason: "closed before it was connected"))
                    continue
                }
                connection.closing = true
                if let wsi = connection.wsi { lws_callback_on_writable(wsi) }
            case .get(let id, let request):
                // A GET given up while it was put off is not started.
                if putOffIDs.remove(id) != nil, downloads[id] == nil { continue }
                startDownload(id, request)
            case .cancel(let id):
                dropDownload(id)
            }
        }
    }

    func handle(
        wsi: OpaquePointer?, reason: lws_callback_reasons, user: UnsafeMutableRawPointer?,
        data: UnsafeMutableRawPointer?, length: Int
    ) -> Int32 {
        if reason == LWS_CALLBACK_EVENT_WAIT_CANCELLED {
            drainInbox()
            return 0
        }
        let id = UInt64(UInt(bitPattern: user))
        if Self.endsHandshake.contains(reason.rawValue) { endHandshake(id) }
        if id != 0, let download = downloads[id] {
            return handleDownload(download, wsi: wsi, reason: reason, user: user, data: data, length: length)
        }
        guard id != 0, let connection = connections[id] else {
            return lws_callback_http_dummy(wsi, reason, user, data, length)
        }
        switch reason {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            connection.open = true
            report(id, .opened)
            // A close asked for while it connected is carried out now (lws may have dropped the
            // writable request made then).
            if connection.closing || !connection.outgoing.isEmpty, let wsi { lws_callback_on_writable(wsi) }
        case LWS_CALLBACK_CLIENT_RECEIVE:
            if let data, length > 0 {
                connection.receiving.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
            }
            if let wsi, lws_is_final_fragment(wsi) == 1 {
                let message = connection.receiving
                connection.receiving = []
                report(id, .message(message))
            }
        case LWS_CALLBACK_CLIENT_WRITEABLE:
            guard let wsi else { return -1 }
            return writeQueued(connection, wsi: wsi)
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            if let data, length >= 2 {
                let bytes = data.assumingMemoryBound(to: UInt8.self)
                connection.closeCode = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
                connection.closeReason = String(
                    decoding: UnsafeBufferPointer(start: bytes + 2, count: length - 2), as: UTF8.self)
            }
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            cs_ssl_clear_errors()  // see the connect above
            connections[id] = nil
            let text = data.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "connection error"
            report(id, .closed(code: nil, reason: text))
        case LWS_CALLBACK_CLIENT_CLOSED:
            connections[id] = nil
            report(id, .closed(code: connection.closeCode, reason: connection.closeReason))
        default:
            break
        }
        return 0
    }

    /// What ends a handshake for `TLSIndexGate`: lws writing the request's headers (the TLS
    /// handshake, and the certificate's check, are over by then), and, should that never come,
    /// the connection established, failed, closed or ended.
    private static let endsHandshake: Set<UInt32> = Set(
        [
            LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER, LWS_CALLBACK_CLIENT_ESTABLISHED,
            LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP, LWS_CALLBACK_CLIENT_CONNECTION_ERROR, LWS_CALLBACK_CLIENT_CLOSED,
            LWS_CALLBACK_CLOSED_CLIENT_HTTP, LWS_CALLBACK_WSI_DESTROY,
        ].map(\.rawValue))

    /// Whether TLS connection `id` may start its handshake now (false while another transport
    /// creates its context: put it off).
    func startHandshake(_ id: UInt64) -> Bool {
        guard TLSIndexGate.shared.tryStartHandshake() else { return false }
        handshaking.insert(id)
        return true
    }

    /// Keeps `command` (a TLS connect or GET) to try again once the gate lets it.
    func putOff(_ command: ClientTransport.Command, _ id: UInt64) {
        putOff.append(command)
        putOffIDs.insert(id)
    }

    /// `id`'s handshake is over, if it held the gate; calling it again does nothing.
    func endHandshake(_ id: UInt64) {
        if handshaking.remove(id) != nil { TLSIndexGate.shared.handshakeEnded() }
    }

    /// Writes what `connection` has queued, one frame per message, until the socket is full;
    /// returns -1 to close the connection.
    private func writeQueued(_ connection: Connection, wsi: OpaquePointer) -> Int32 {
        if connection.closing {
            lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, nil, 0)
            return -1
        }
        // Everything queued goes out now, one frame per message, until the socket is full (an
        // editor answering a frame of acks queues a proposal for each); several frames are
        // corked while written, so they leave in as few TCP segments as they fit.
        let headroom = Int(cs_lws_pre())
        var sent = 0
        var buffer: [UInt8] = []
        let socket = lws_get_socket_fd(wsi)
        var cork: Int32 = connection.outgoing.count > 1 ? 1 : 0
        if cork == 1 {
            setsockopt(socket, Int32(IPPROTO_TCP), TCP_CORK, &cork, socklen_t(MemoryLayout<Int32>.size))
        }
        defer {
            connection.outgoing.removeFirst(sent)
            if cork == 1 {
                cork = 0
                setsockopt(socket, Int32(IPPROTO_TCP), TCP_CORK, &cork, socklen_t(MemoryLayout<Int32>.size))
            }
        }
        while sent < connection.outgoing.count, lws_send_pipe_choked(wsi) == 0 {
            let bytes = connection.outgoing[sent]
            buffer.removeAll(keepingCapacity: true)
            buffer.append(contentsOf: repeatElement(0, count: headroom))
            buffer.append(contentsOf: bytes)
            let written = buffer.withUnsafeMutableBufferPointer { pointer in
                lws_write(wsi, pointer.baseAddress! + headroom, bytes.count, LWS_WRITE_TEXT)
            }
            guard written >= 0 else { return -1 }
            sent += 1
        }
        if sent < connection.outgoing.count { lws_callback_on_writable(wsi) }
        return 0
    }
}

private func clientCallback(
    wsi: OpaquePointer?, reason: lws_callback_reasons, user: UnsafeMutableRawPointer?,
    data: UnsafeMutableRawPointer?, length: Int
) -> Int32 {
    guard let wsi, let contextUser = lws_context_user(lws_get_context(wsi)) else {
        return lws_callback_http_dummy(wsi, reason, user, data, length)
    }
    let core = Unmanaged<ClientCore>.fromOpaque(contextUser).takeUnretainedValue()
    return core.handle(wsi: wsi, reason: reason, user: user, data: data, length: length)
}
