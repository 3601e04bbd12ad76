import Testing
import WebSocketWire

@testable import WebAssets

@Suite("Static files: gzip, ETags per representation, Vary, preloads and language variants")
struct StaticSiteEncodingTests {
    static let css = Array(String(repeating: ".task { color: red; margin: 0 auto; }\n", count: 40).utf8)
    static let site = StaticSite(files: [
        "app.css": css, "js/tiny.mjs": Array("export {};".utf8), "logo.png": Array(repeating: 0, count: 4000),
    ])

    static func head(_ target: String, method: String = "GET", _ fields: [(String, String)] = []) -> HTTPRequestHead {
        HTTPRequestHead(method: method, target: target, version: "HTTP/1.1", fields: [("Host", "x")] + fields)
    }

    static func header(_ response: StaticSite.Response, _ name: String) -> String? {
        response.headers.first { $0.hasPrefix(name + ": ") }.map { String($0.dropFirst(name.count + 2)) }
    }

    @Test("gzip when Accept-Encoding takes it: the body inflates to the file, its own ETag; identity otherwise")
    func gzipOrIdentity() throws {
        let gzipped = Self.site.respond(to: Self.head("/app.css", [("Accept-Encoding", "gzip, deflate, br")]))
        #expect(gzipped.status == 200 && gzipped.contentType == "text/css; charset=utf-8")
        #expect(Self.header(gzipped, "Content-Encoding") == "gzip" && Self.header(gzipped, "Vary") == "Accept-Encoding")
        #expect(gzipped.body.count < Self.css.count / 5 && inflateGzip(gzipped.body) == Self.css)
        for refusal in [[], [("Accept-Encoding", "gzip;q=0")], [("Accept-Encoding", "br")]] as [[(String, String)]] {
            let plain = Self.site.respond(to: Self.head("/app.css", refusal))
            #expect(plain.status == 200 && plain.body == Self.css && Self.header(plain, "Content-Encoding") == nil)
            #expect(Self.header(plain, "Vary") == "Accept-Encoding")
            #expect(Self.header(plain, "ETag") != Self.header(gzipped, "ETag"))
        }
        let file = try #require(Self.site.files["app.css"])
        #expect(Self.header(gzipped, "ETag") == file.gzip?.etag && file.gzip?.etag.hasSuffix("-gzip\"") == true)
        #expect(file.gzip?.etag.hasPrefix(String(file.identity.etag.dropLast())) == true)
    }

    @Test("If-None-Match gets 304 for the tag of the representation chosen, 200 with the other one's tag")
    func conditional() throws {
        let file = try #require(Self.site.files["app.css"])
        let gzipTag = try #require(file.gzip?.etag)
        let takesGzip = ("Accept-Encoding", "gzip")
        for (fields, status, tag) in [
            ([takesGzip, ("If-None-Match", gzipTag)], 304, gzipTag),
            ([("If-None-Match", file.identity.etag)], 304, file.identity.etag),
            ([takesGzip, ("If-None-Match", "W/" + gzipTag)], 304, gzipTag),
            ([takesGzip, ("If-None-Match", file.identity.etag)], 200, gzipTag),
            ([("If-None-Match", gzipTag)], 200, file.identity.etag),
        ] as [([(String, String)], Int, String)] {
            for method in ["GET", "HEAD"] {
                let answer = Self.site.respond(to: Self.head("/app.css", method: method, fields))
                #expect(answer.status == status && Self.header(answer, "ETag") == tag, "\(method) \(fields)")
                #expect(Self.header(answer, "Vary") == "Accept-Encoding")
                #expect(status == 200 || (answer.body.isEmpty && Self.header(answer, "Content-Encoding") == nil))
            }
        }
    }

    @Test("HEAD announces the length of the representation it would send, without a body")
    func head() throws {
        let answer = Self.site.respond(to: Self.head("/app.css", method: "HEAD", [("Accept-Encoding", "gzip")]))
        let bytes = HTTPResponseBytes.make(
            status: answer.status, contentType: answer.contentType, body: answer.body, extraHeaders: answer.headers,
            includeBody: false, keepAlive: true)
        let text = String(decoding: bytes, as: UTF8.self)
        let gzipped = try #require(Self.site.files["app.css"]?.gzip?.body)
        #expect(text.contains("Content-Length: \(gzipped.count)\r\n") && text.contains("Content-Encoding: gzip\r\n"))
        #expect(text.hasSuffix("\r\n\r\n") && text.contains("Connection: keep-alive\r\n"))
    }

    @Test("a file gzip does not shrink, or of a compressed type, is sent as it is, Vary still said")
    func notCompressed() {
        #expect(Self.site.files["js/tiny.mjs"]?.gzip == nil && Self.site.files["logo.png"]?.gzip == nil)
        for name in ["/js/tiny.mjs", "/logo.png"] {
            let answer = Self.site.respond(to: Self.head(name, [("Accept-Encoding", "gzip")]))
            #expect(answer.status == 200 && Self.header(answer, "Content-Encoding") == nil)
            #expect(Self.header(answer, "Vary") == "Accept-Encoding")
            #expect(Self.header(answer, "ETag") == Self.site.files[String(name.dropFirst())]?.identity.etag)
        }
        #expect(Self.site.byteCount == Self.css.count + 10 + 4000)
        #expect(Self.site.gzippedByteCount < Self.site.byteCount - Self.css.count + Self.css.count / 5)
    }
}
