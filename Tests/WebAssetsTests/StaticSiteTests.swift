import Testing
import WebSocketWire

@testable import WebAssets

@Suite("Static files: paths, types, conditional requests, headers")
struct StaticSiteTests {
    static let site = StaticSite(files: [
        "index.html": Array("<!doctype html>".utf8), "js/main.mjs": Array("export {};".utf8),
        "app.css": Array("body{}".utf8), "favicon.svg": Array("<svg/>".utf8), "data.bin": [0, 1, 2],
    ])

    static func head(_ target: String, method: String = "GET", fields: [(String, String)] = []) -> HTTPRequestHead {
        HTTPRequestHead(method: method, target: target, version: "HTTP/1.1", fields: [("Host", "x")] + fields)
    }

    @Test(
        "a path names a file under the root: / is index.html, a directory path its index.html",
        arguments: [
            ("/", "index.html"), ("/index.html", "index.html"), ("/js/main.mjs", "js/main.mjs"),
            ("/js/", "js/index.html"), ("/a%20b.txt", "a b.txt"), ("/%E2%82%AC.txt", "€.txt"), ("/x.JS", "x.JS"),
        ])
    func resolves(path: String, name: String) {
        #expect(StaticPath.resolve(path) == .file(name))
    }

    @Test(
        "hostile paths are refused, however they are spelled",
        arguments: [
            "/..", "/../Package.swift", "/js/../../etc/passwd", "/%2e%2e/etc/passwd", "/%2E%2e%2fetc", "/.%2e/x",
            "/js/%2e%2e/%2e%2e/Package.swift", "/.git/config", "/.env", "/./index.html", "//etc/passwd",
            "/js//main.mjs", "/a%00.html", "/index.html%00.png", "/a%2fb", "/a%5cb", "/a\\b", "/%", "/%zz", "/%2",
            "/%c0%ae%c0%ae/etc", "/%ff", "etc/passwd", "", "*", "/a%0d%0aX: y",
            "/" + String(repeating: "a", count: 1100),
        ])
    func refuses(path: String) {
        guard case .invalid = StaticPath.resolve(path) else {
            Issue.record("\(path) was accepted")
            return
        }
    }

    @Test("a file is served with its type, a strong ETag, no-cache, Vary and the security headers")
    func serves() throws {
        let answer = Self.site.respond(to: Self.head("/js/main.mjs?v=1"))
        #expect(answer.status == 200)
        #expect(answer.body == Array("export {};".utf8))
        #expect(answer.contentType == "text/javascript; charset=utf-8")
        let etag = try #require(answer.headers.first { $0.hasPrefix("ETag: ") }).dropFirst(6)
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count == 26)
        #expect(answer.headers.contains("Cache-Control: no-cache") && answer.headers.contains("Vary: Accept-Encoding"))
        let policy = try #require(answer.headers.first { $0.hasPrefix("Content-Security-Policy: ") })
        #expect(policy.contains("script-src 'self'") && policy.contains("style-src 'self'"))
        #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
        #expect(policy.contains("default-src 'none'") && policy.contains("frame-ancestors 'none'"))
        #expect(Self.site.respond(to: Self.head("/")).contentType == "text/html; charset=utf-8")
        #expect(Self.site.respond(to: Self.head("/app.css")).contentType == "text/css; charset=utf-8")
        #expect(Self.site.respond(to: Self.head("/favicon.svg")).contentType == "image/svg+xml")
        #expect(Self.site.respond(to: Self.head("/data.bin")).contentType == "application/octet-stream")
        #expect(Self.site.files["index.html"]?.identity.etag != Self.site.files["app.css"]?.identity.etag)
    }

    @Test("If-None-Match with the tag (or weak, in a list, or *) gets 304 without a body; another tag 200")
    func conditional() throws {
        let etag = try #require(Self.site.files["app.css"]?.identity.etag)
        for value in [etag, "W/" + etag, "\"other\", " + etag, "*"] {
            let answer = Self.site.respond(to: Self.head("/app.css", fields: [("If-None-Match", value)]))
            #expect(answer.status == 304, "\(value)")
            #expect(answer.body.isEmpty && answer.headers.contains("ETag: \(etag)"))
        }
        let other = Self.site.respond(to: Self.head("/app.css", fields: [("If-None-Match", "\"nope\"")]))
        #expect(other.status == 200 && other.body == Array("body{}".utf8))
    }

    @Test("unknown files are 404 and bad paths 400, both with the security headers and no file content")
    func missing() {
        let missing = Self.site.respond(to: Self.head("/nope.js"))
        #expect(missing.status == 404 && missing.headers.contains { $0.hasPrefix("Content-Security-Policy") })
        let bad = Self.site.respond(to: Self.head("/%2e%2e/index.html"))
        #expect(bad.status == 400 && String(decoding: bad.body, as: UTF8.self).hasPrefix("bad path"))
        #expect(Self.site.respond(to: Self.head("/js")).status == 404, "a directory without a slash is no file")
    }

    @Test("the response bytes: 304 has no length, HEAD announces the length without the body")
    func bytes() {
        let head = HTTPResponseBytes.make(
            status: 200, contentType: "text/css", body: Array("body{}".utf8), extraHeaders: ["Cache-Control: no-cache"],
            includeBody: false)
        let text = String(decoding: head, as: UTF8.self)
        #expect(text.contains("Content-Length: 6\r\n") && text.hasSuffix("\r\n\r\n"))
        #expect(text.contains("Cache-Control: no-cache") && !text.contains("no-store"))
        let notModified = String(
            decoding: HTTPResponseBytes.make(status: 304, body: [], extraHeaders: ["ETag: \"x\""]), as: UTF8.self)
        #expect(notModified.hasPrefix("HTTP/1.1 304 Not Modified\r\n"))
        #expect(!notModified.contains("Content-Length") && notModified.contains("ETag: \"x\""))
        let plain = String(decoding: HTTPResponseBytes.make(status: 404, body: Array("x".utf8)), as: UTF8.self)
        #expect(plain.contains("Cache-Control: no-store") && plain.hasSuffix("x"))
    }
}
