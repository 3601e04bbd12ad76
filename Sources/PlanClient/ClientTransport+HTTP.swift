import SystemSupport

/// One HTTP GET: where to (the host, port and TLS of a WebSocket endpoint), what to send and
/// which of the answer's headers to keep.
public struct HTTPRequest: Sendable, Hashable {
    /// Host name or address.
    public var host: String
    /// Port.
    public var port: Int
    /// https:// when true.
    public var secure: Bool
    /// Accept self-signed certificates and any host name (as `Endpoint.trustAnyCertificate`).
    public var trustAnyCertificate = false
    /// The path and query, such as `/plans/demo/export?format=csv`.
    public var target: String
    /// Header lines to send, as (name, value), such as ("Authorization", "Bearer …").
    public var headers: [HTTPHeaderField]
    /// The names of the answer's headers to keep (any case); the others are not read.
    public var responseHeaders: [String]

    /// A GET of `target` on `endpoint`'s host and port, over TLS when it is wss://, trusting what
    /// it trusts.
    public init(
        on endpoint: ClientTransport.Endpoint, target: String, headers: [HTTPHeaderField] = [],
        responseHeaders: [String] = []
    ) {
        host = endpoint.host
        port = endpoint.port
        secure = endpoint.secure
        trustAnyCertificate = endpoint.trustAnyCertificate
        self.target = target
        self.headers = headers
        self.responseHeaders = responseHeaders
    }
}

/// One header line.
public struct HTTPHeaderField: Sendable, Hashable {
    /// The name, such as `Authorization`.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a header line.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// The answer to an `HTTPRequest`: any status (a 404 is an answer, not an error).
public struct HTTPResponse: Sendable, Hashable {
    /// The status code, such as 200 or 404.
    public var status: Int
    /// The headers asked for that the answer had, by lowercased name.
    public var headers: [String: String]
    /// The body, with any chunked framing removed.
    public var body: [UInt8]

    /// Creates an answer (the transport does; tests build them).
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }

    /// The value of the header `name` (any case), if it was asked for and sent.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

extension ClientTransport.Endpoint {
    /// The HTTP origin of the same host, port and TLS: `http://host:port` for ws://,
    /// `https://host:port` for wss://.
    public var origin: String {
        (secure ? "https://" : "http://") + host + ":" + String(port)
    }
}

extension ClientTransport {
    /// Sends one GET on the service thread (libwebsockets' HTTP client, with TLS for `secure`);
    /// `completion` is called once, on the service thread, with the answer (whatever its status)
    /// or why there is none (`transport` for a connection that could not be made or broke off).
    /// - Returns: the request's number, for `cancelGet(_:)`.
    @discardableResult
    public func get(
        _ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, ClientError>) -> Void
    ) -> UInt64 {
        let id = reserveConnectionID()
        downloadHandlers.withLock { $0[id] = completion }
        enqueue(.get(id, request))
        return id
    }

    /// Gives up a GET: its completion is called with `error` (unless it was called already) and
    /// its connection is closed.
    public func cancelGet(_ id: UInt64, error: ClientError = .timedOut) {
        let handler = downloadHandlers.withLock { $0.removeValue(forKey: id) }
        guard let handler else { return }
        enqueue(.cancel(id))
        handler(.failure(error))
    }

    /// Sends one GET and waits for the answer, at most `timeout` (then `ClientError.timedOut`).
    public func get(_ request: HTTPRequest, timeout: Duration = .seconds(30)) async -> Result<HTTPResponse, ClientError>
    {
        let id = reserveConnectionID()
        return await withCheckedContinuation { continuation in
            // The deadline of the answer, not a wait for an event.
            let deadline = Task { [weak self] in
                try? await Task.sleep(for: timeout)
                self?.cancelGet(id)
            }
            downloadHandlers.withLock {
                $0[id] = { result in
                    deadline.cancel()
                    continuation.resume(returning: result)
                }
            }
            enqueue(.get(id, request))
        }
    }
}
