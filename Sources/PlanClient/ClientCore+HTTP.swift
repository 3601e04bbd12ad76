import COpenSSL
import CWebSockets
import Glibc

/// HTTP GETs on the client context (libwebsockets' HTTP client, as its minimal-http-client
/// example drives it): the request's headers are added when lws asks for them, the answer's
/// status and headers are read when it is established, the body is pulled with
/// `lws_http_client_read` as it arrives, and the answer is complete at `COMPLETED_CLIENT_HTTP`.
extension ClientCore {
    /// One GET under way; only the service thread touches it.
    final class Download {
        let request: HTTPRequest
        var status = 0
        var headers: [String: String] = [:]
        var body: [UInt8] = []
        var wsi: OpaquePointer?
        init(request: HTTPRequest) { self.request = request }
    }

    /// Headers lws parses into tokens of its own (the others it keeps by name).
    private static let tokens: [String: lws_token_indexes] = [
        "content-type": WSI_TOKEN_HTTP_CONTENT_TYPE,
        "content-disposition": WSI_TOKEN_HTTP_CONTENT_DISPOSITION,
        "www-authenticate": WSI_TOKEN_HTTP_WWW_AUTHENTICATE,
        "content-length": WSI_TOKEN_HTTP_CONTENT_LENGTH,
    ]

    func startDownload(_ id: UInt64, _ request: HTTPRequest) {
        let download = downloads[id] ?? Download(request: request)
        downloads[id] = download
        guard !request.secure || startHandshake(id) else {
            putOff(.get(id, request), id)
            return
        }
        var info = lws_client_connect_info()
        // lws copies these strings while it connects.
        let texts: [String] = [request.host, request.target, "GET", "http/1.1"]
        let strings = texts.map { strdup($0) }
        defer { for string in strings { free(string) } }
        info.context = context
        info.address = UnsafePointer(strings[0])
        info.host = UnsafePointer(strings[0])
        info.origin = UnsafePointer(strings[0])
        info.port = Int32(request.port)
        info.path = UnsafePointer(strings[1])
        info.method = UnsafePointer(strings[2])
        // HTTP/1.1 only: the server speaks no h2.
        info.alpn = UnsafePointer(strings[3])
        info.protocol = UnsafePointer(protocols![0].name)
        // LCCSCF_USE_SSL (plus ALLOW_SELFSIGNED | SKIP_SERVER_CERT_HOSTNAME_CHECK | ALLOW_INSECURE);
        // redirects are answers, not followed.
        let tls: UInt32 = request.secure ? (request.trustAnyCertificate ? 1 | 2 | 4 | 16 : 1) : 0
        info.ssl_connection = Int32(tls | LCCSCF_HTTP_NO_FOLLOW_REDIRECT.rawValue)
        info.userdata = UnsafeMutableRawPointer(bitPattern: UInt(id))
        cs_ssl_clear_errors()  // as for a WebSocket (ClientCore's connect)
        if let wsi = lws_client_connect_via_info(&info) {
            download.wsi = wsi
        } else {
            endHandshake(id)
            finishDownload(id, .failure(.transport("cannot connect to \(request.host):\(request.port)")))
        }
    }

    /// A GET given up: its connection is closed at the next turn of the service loop.
    func dropDownload(_ id: UInt64) {
        guard let download = downloads.removeValue(forKey: id), let wsi = download.wsi else { return }
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }

    /// Calls the GET's completion (once) and forgets it.
    func finishDownload(_ id: UInt64, _ result: Result<HTTPResponse, ClientError>) {
        downloads[id] = nil
        let handler = transport.downloadHandlers.withLock { $0.removeValue(forKey: id) }
        handler?(result)
    }

    func handleDownload(
        _ download: Download, wsi: OpaquePointer?, reason: lws_callback_reasons, user: UnsafeMutableRawPointer?,
        data: UnsafeMutableRawPointer?, length: Int
    ) -> Int32 {
        let id = UInt64(UInt(bitPattern: user))
        switch reason {
        case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
            guard let wsi, let data else { return -1 }
            return appendHeaders(download.request.headers, wsi: wsi, data: data, length: length)
        case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP:
            guard let wsi else { return -1 }
            download.status = Int(lws_http_client_http_response(wsi))
            for name in download.request.responseHeaders {
                if let value = ClientCore.header(name.lowercased(), of: wsi) {
                    download.headers[name.lowercased()] = value
                }
            }
            return 0
        case LWS_CALLBACK_RECEIVE_CLIENT_HTTP:
            // Pulls what arrived through lws (which removes chunked framing): RECEIVE_CLIENT_HTTP_READ.
            guard let wsi else { return -1 }
            let headroom = Int(cs_lws_pre())
            var buffer = [CChar](repeating: 0, count: headroom + 16_384)
            let read = buffer.withUnsafeMutableBufferPointer { pointer -> Int32 in
                var start: UnsafeMutablePointer<CChar>? = pointer.baseAddress! + headroom
                var count = Int32(16_384)
                return lws_http_client_read(wsi, &start, &count)
            }
            return read < 0 ? -1 : 0
        case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ:
            if let data, length > 0 {
                download.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
            }
            return 0
        case LWS_CALLBACK_COMPLETED_CLIENT_HTTP:
            finishDownload(
                id, .success(HTTPResponse(status: download.status, headers: download.headers, body: download.body)))
            return -1  // done: close the connection rather than keep it alive
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            let text = data.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "connection error"
            cs_ssl_clear_errors()
            finishDownload(id, .failure(.transport(text)))
            return 0
        case LWS_CALLBACK_CLOSED_CLIENT_HTTP:
            finishDownload(id, .failure(.transport("the connection closed before the whole answer arrived")))
            return 0
        default:
            return lws_callback_http_dummy(wsi, reason, user, data, length)
        }
    }

    /// Writes `headers` where lws asks for more handshake headers (`data` is an
    /// `unsigned char **` cursor, `length` the room left); -1 when they do not fit.
    private func appendHeaders(
        _ headers: [HTTPHeaderField], wsi: OpaquePointer, data: UnsafeMutableRawPointer, length: Int
    )
        -> Int32
    {
        let cursor = data.assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
        guard let start = cursor.pointee else { return -1 }
        let end = start + length
        for header in headers {
            let name = Array((header.name + ":").utf8) + [0]
            let value = Array(header.value.utf8)
            let failed = value.withUnsafeBufferPointer { valueBytes in
                lws_add_http_header_by_name(wsi, name, valueBytes.baseAddress, Int32(value.count), cursor, end)
            }
            if failed != 0 { return -1 }
        }
        return 0
    }

    /// The value of the answer's header `name` (lowercased): a token lws knows, else one it kept
    /// by name (it keeps names as they came; both the lowercased name and the usual
    /// capitalisation are tried).
    private static func header(_ name: String, of wsi: OpaquePointer) -> String? {
        if let token = tokens[name] {
            let count = Int(lws_hdr_total_length(wsi, token))
            guard count > 0 else { return nil }
            var buffer = [CChar](repeating: 0, count: count + 1)
            guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token) >= 0 else { return nil }
            return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let capitalised = name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined(separator: "-")
        for spelling in Set([name, capitalised]) {
            let key = spelling + ":"
            let count = Int(lws_hdr_custom_length(wsi, key, Int32(key.utf8.count)))
            guard count >= 0 else { continue }
            var buffer = [CChar](repeating: 0, count: count + 1)
            guard lws_hdr_custom_copy(wsi, &buffer, Int32(buffer.count), key, Int32(key.utf8.count)) >= 0 else {
                continue
            }
            return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }
}
