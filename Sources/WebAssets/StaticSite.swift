import WebSocketWire

/// A set of static files held in memory, answering `GET` and `HEAD` requests for them: the web
/// client that `plan-server` serves at `/`. Pure: the files are loaded once (by the server, at
/// start), so answering never touches the disk and no path can reach outside them.
///
/// Every answer carries the same strict headers: a Content-Security-Policy that allows only this
/// origin's scripts, styles and WebSocket and no inline code, `X-Content-Type-Options: nosniff`,
/// no referrer, no framing. Files are revalidated on every use (`Cache-Control: no-cache`) with
/// strong ETags, so a browser keeps them and gets `304 Not Modified` while they are unchanged.
public struct StaticSite: Sendable {
    /// One file: its bytes, content type and entity tag.
    public struct File: Sendable, Equatable {
        /// The bytes.
        public let body: [UInt8]
        /// The `Content-Type`.
        public let contentType: String
        /// The strong entity tag, quoted: a digest of the bytes.
        public let etag: String

        /// A file of `body` named `name` (its extension picks the type).
        public init(name: String, body: [UInt8]) {
            self.body = body
            contentType = StaticSite.contentType(forName: name)
            etag = "\"" + SHA1.digest(body).prefix(12).map { StaticSite.hex($0) }.joined() + "\""
        }
    }

    /// An answer: status, header lines (without `Content-Type`, `Content-Length` and
    /// `Connection`, which the transport adds) and the body (the file's also for `HEAD`: the
    /// transport sends only its length; empty for `304`).
    public struct Response: Sendable, Equatable {
        /// 200, 304, 400 or 404.
        public let status: Int
        /// `Name: value` lines.
        public let headers: [String]
        /// The body to send.
        public let body: [UInt8]
        /// The `Content-Type`.
        public let contentType: String
    }

    /// The Content-Security-Policy of every answer: scripts, styles, images and the WebSocket from
    /// this origin only, nothing inline, no plugins, no frames, no forms posting elsewhere.
    public static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The security headers every answer carries.
    public static let securityHeaders = [
        "Content-Security-Policy: \(contentSecurityPolicy)", "Referrer-Policy: no-referrer",
        "X-Frame-Options: DENY", "Cross-Origin-Opener-Policy: same-origin",
        "Cross-Origin-Resource-Policy: same-origin",
    ]

    /// The files by name relative to the root (`index.html`, `js/app.js`).
    public let files: [String: File]

    /// A site of these files (names relative to the root, segments joined by `/`).
    public init(files: [String: [UInt8]]) {
        var made: [String: File] = [:]
        for (name, body) in files { made[name] = File(name: name, body: body) }
        self.files = made
    }

    /// The total size of the files in bytes.
    public var byteCount: Int { files.values.reduce(0) { $0 + $1.body.count } }

    /// The answer to a `GET` or `HEAD` of `head.path`: the file with 200, 304 when
    /// `If-None-Match` names its tag, 400 for a path `StaticPath` refuses, 404 for an unknown file.
    public func respond(to head: HTTPRequestHead) -> Response {
        let name: String
        switch StaticPath.resolve(head.path) {
        case .invalid(let reason): return plain(status: 400, "bad path: \(reason)")
        case .file(let resolved): name = resolved
        }
        guard let file = files[name] else { return plain(status: 404, "not found") }
        let headers = StaticSite.securityHeaders + ["ETag: \(file.etag)", "Cache-Control: no-cache"]
        if StaticSite.matches(ifNoneMatch: head.elements("If-None-Match"), etag: file.etag) {
            return Response(status: 304, headers: headers, body: [], contentType: file.contentType)
        }
        return Response(status: 200, headers: headers, body: file.body, contentType: file.contentType)
    }

    private func plain(status: Int, _ text: String) -> Response {
        Response(
            status: status, headers: StaticSite.securityHeaders + ["Cache-Control: no-store"],
            body: Array((text + "\n").utf8), contentType: "text/plain; charset=utf-8")
    }

    /// Whether the elements of an `If-None-Match` list name `etag` (weak comparison, as RFC 9110
    /// §13.1.2 asks for GET and HEAD) or are `*`.
    static func matches(ifNoneMatch elements: [String], etag: String) -> Bool {
        for element in elements {
            var tag = element
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == etag { return true }
        }
        return false
    }

    /// The content type for a file name, by its extension; `application/octet-stream` for
    /// unknown ones (with `nosniff`, a browser does not guess).
    public static func contentType(forName name: String) -> String {
        let dot = name.lastIndex(of: ".").map { name[name.index(after: $0)...].lowercased() } ?? ""
        switch dot {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json"
        case "webmanifest": return "application/manifest+json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "ico": return "image/x-icon"
        case "txt": return "text/plain; charset=utf-8"
        case "woff2": return "font/woff2"
        default: return "application/octet-stream"
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
