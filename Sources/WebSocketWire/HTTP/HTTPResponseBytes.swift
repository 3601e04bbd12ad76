/// A complete HTTP/1.1 response.
public enum HTTPResponseBytes {
    /// The status line, headers and body; `Connection: keep-alive` when the connection stays open
    /// for the next request, else `Connection: close`. `Cache-Control: no-store` unless
    /// `extraHeaders` set a `Cache-Control` of their own. A `304` has no content headers (its
    /// validators are in `extraHeaders`); with `includeBody` false (a `HEAD`), the length of
    /// `body` is announced but the body is not sent.
    public static func make(
        status: Int, contentType: String = "text/plain; charset=utf-8", body: [UInt8], extraHeaders: [String] = [],
        includeBody: Bool = true, keepAlive: Bool = false
    ) -> [UInt8] {
        var lines = ["HTTP/1.1 \(status) \(reasonPhrase(status))"]
        if status != 304 { lines += ["Content-Type: \(contentType)", "Content-Length: \(body.count)"] }
        if !extraHeaders.contains(where: { $0.lowercased().hasPrefix("cache-control:") }) {
            lines.append("Cache-Control: no-store")
        }
        lines += ["X-Content-Type-Options: nosniff", keepAlive ? "Connection: keep-alive" : "Connection: close"]
        lines += extraHeaders
        let sent = includeBody && status != 304 ? body : []
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + sent
    }

    /// The reason phrase of the statuses this server sends.
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 426: "Upgrade Required"
        case 431: "Request Header Fields Too Large"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
