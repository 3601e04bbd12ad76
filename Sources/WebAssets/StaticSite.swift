import WebSocketWire

/// A set of static files held in memory, answering `GET` and `HEAD` requests for them: the web
/// client that `plan-server` serves at `/`. Pure: the files are loaded once (by the server, at
/// start), so answering never touches the disk and no path can reach outside them.
///
/// Each file is gzipped once, when the site is made (`Gzip`, the best compression), and sent so
/// to a request whose `Accept-Encoding` takes gzip (`ContentNegotiation`); a file that gzip does
/// not make smaller is sent as it is. A page with module scripts is served with a
/// `<link rel="modulepreload">` for every module they need (`PagePreloads`), and, when those
/// modules have language modules beside them, in one variant per language, chosen by
/// `Accept-Language`.
///
/// Every answer carries the same strict headers: a Content-Security-Policy that allows only this
/// origin's scripts, styles and WebSocket and no inline code, `X-Content-Type-Options: nosniff`,
/// no referrer, no framing. Files are revalidated on every use (`Cache-Control: no-cache`) with
/// strong ETags, one for each representation, so a browser keeps them and gets
/// `304 Not Modified` while they are unchanged.
public struct StaticSite: Sendable {
    /// The bytes of one representation of a file and its strong entity tag, quoted.
    public struct Representation: Sendable, Equatable {
        /// The bytes sent.
        public let body: [UInt8]
        /// The strong entity tag, quoted: a digest of the file's bytes as they are, with `-gzip`
        /// after it for the gzipped ones.
        public let etag: String
    }

    /// One file: its content type and its representations.
    public struct File: Sendable, Equatable {
        /// The `Content-Type`.
        public let contentType: String
        /// The bytes as they are.
        public let identity: Representation
        /// The bytes gzipped, when that makes them smaller.
        public let gzip: Representation?

        /// A file of `body` named `name` (its extension picks the type), gzipped unless its type
        /// is compressed already or gzip makes it no smaller.
        public init(name: String, body: [UInt8]) {
            contentType = StaticSite.contentType(forName: name)
            let digest = SHA1.digest(body).prefix(12).map { StaticSite.hex($0) }.joined()
            identity = Representation(body: body, etag: "\"\(digest)\"")
            let compressed = StaticSite.isCompressible(contentType) ? Gzip.compressed(body) : nil
            gzip = compressed.flatMap { gzipped in
                gzipped.count < body.count ? Representation(body: gzipped, etag: "\"\(digest)-gzip\"") : nil
            }
        }

        /// The representation sent for `coding`, and whether it is gzipped (identity when the
        /// file has no gzipped one).
        public func representation(for coding: ContentNegotiation.Coding) -> (Representation, gzipped: Bool) {
            if coding == .gzip, let gzip { return (gzip, true) }
            return (identity, false)
        }
    }

    /// A page served with module preloads.
    public struct Page: Sendable, Equatable {
        /// The modules announced in every variant: all that the page's module scripts import,
        /// directly or not, by static imports (the scripts themselves the page names already).
        public let preloads: [String]
        /// The language modules beside them, by language.
        public let languageModules: [String: String]
        /// The page for each language, its language module announced too (empty: the page has
        /// one variant, `files[name]`).
        public let languages: [String: File]
        /// The language of a request whose `Accept-Language` names none of them (`en` when
        /// there is one, as the web client falls back to English), and of `files[name]`.
        public let fallbackLanguage: String
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

    /// The files by name relative to the root (`index.html`, `js/app.js`); a page with language
    /// variants as served for its fallback language.
    public let files: [String: File]
    /// The pages served with module preloads, by name.
    public let pages: [String: Page]

    /// A site of these files (names relative to the root, segments joined by `/`), each gzipped,
    /// each page with module scripts given its preloads.
    public init(files: [String: [UInt8]]) {
        var pages: [String: Page] = [:]
        var bodies = files
        for name in files.keys where StaticSite.contentType(forName: name).hasPrefix("text/html") {
            guard let (page, body) = StaticSite.page(named: name, files: files) else { continue }
            pages[name] = page
            bodies[name] = body
        }
        var made: [String: File] = [:]
        for (name, body) in bodies {
            if let page = pages[name], let variant = page.languages[page.fallbackLanguage] {
                made[name] = variant
            } else {
                made[name] = File(name: name, body: body)
            }
        }
        self.files = made
        self.pages = pages
    }

    /// The page `name` with its preloads, and its body when it has no language variants; nil
    /// when it has no module scripts or no `</head>` to put the preloads before.
    static func page(named name: String, files: [String: [UInt8]]) -> (Page, [UInt8])? {
        guard let body = files[name] else { return nil }
        let scripts = PagePreloads.moduleScripts(in: body, named: name)
        guard !scripts.isEmpty else { return nil }
        let graph = ModuleGraph.reachable(from: scripts, files: files)
        let preloads = graph.filter { !scripts.contains($0) }
        let languageModules = PagePreloads.languageModules(beside: graph, among: files.keys)
        guard let served = PagePreloads.injecting(preloads, into: body, named: name) else { return nil }
        var languages: [String: File] = [:]
        for (language, module) in languageModules {
            let variant = PagePreloads.injecting(preloads + [module], into: body, named: name) ?? served
            languages[language] = File(name: name, body: variant)
        }
        let fallback = languageModules["en"] != nil ? "en" : languageModules.keys.min() ?? ""
        let page = Page(
            preloads: preloads, languageModules: languageModules, languages: languages, fallbackLanguage: fallback)
        return (page, served)
    }

    /// The total size of the files as they are, in bytes.
    public var byteCount: Int { files.values.reduce(0) { $0 + $1.identity.body.count } }

    /// The total size of the files as sent to a client that takes gzip, in bytes.
    public var gzippedByteCount: Int { files.values.reduce(0) { $0 + ($1.gzip ?? $1.identity).body.count } }

    /// The answer to a `GET` or `HEAD` of `head.path`: the file with 200, 304 when
    /// `If-None-Match` names the tag of the representation chosen, 400 for a path `StaticPath`
    /// refuses, 404 for an unknown file. The representation is gzipped when `Accept-Encoding`
    /// takes gzip and the file has a gzipped one; `Vary` names the fields that chose it.
    public func respond(to head: HTTPRequestHead) -> Response {
        let name: String
        switch StaticPath.resolve(head.path) {
        case .invalid(let reason): return plain(status: 400, "bad path: \(reason)")
        case .file(let resolved): name = resolved
        }
        guard var file = files[name] else { return plain(status: 404, "not found") }
        var vary = "Accept-Encoding"
        if let page = pages[name], !page.languages.isEmpty {
            let language = ContentNegotiation.language(
                acceptLanguage: head.elements("Accept-Language"), available: Set(page.languages.keys),
                fallback: page.fallbackLanguage)
            file = page.languages[language] ?? file
            vary += ", Accept-Language"
        }
        let (chosen, gzipped) = file.representation(
            for: ContentNegotiation.coding(acceptEncoding: head.elements("Accept-Encoding")))
        var headers = StaticSite.securityHeaders + ["ETag: \(chosen.etag)", "Cache-Control: no-cache", "Vary: \(vary)"]
        if StaticSite.matches(ifNoneMatch: head.elements("If-None-Match"), etag: chosen.etag) {
            return Response(status: 304, headers: headers, body: [], contentType: file.contentType)
        }
        if gzipped { headers.append("Content-Encoding: gzip") }
        return Response(status: 200, headers: headers, body: chosen.body, contentType: file.contentType)
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

    /// Whether gzip may make a file of this type smaller (not for formats compressed already).
    static func isCompressible(_ contentType: String) -> Bool {
        !["image/png", "font/woff2"].contains(contentType)
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
