import Glibc
import PlanTestSupport
import Testing

/// The web client's files as `plan-server` serves them at `/` (issue 16): from `--web-root` or the
/// checkout's `clients/web`, with types, ETags and strict headers, and nothing outside the root,
/// however a request spells its path; `/healthz`, `/metrics` and `/ws` as before.
@Suite("Server: the web client's static files", .database)
struct WebClientServingTests {
    /// One raw HTTP exchange: the request bytes as given (no client normalizes them), the answer.
    static func exchange(_ port: Int, _ request: String) throws -> String {
        try exchangeOnce(port: port, request)
    }

    static func get(_ port: Int, _ target: String, method: String = "GET", extra: String = "") throws -> String {
        try exchange(port, "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(extra)\r\n")
    }

    /// A web root with a page, a module, a hidden file, a nested directory, a symbolic link to a
    /// file inside it and links to a file and a directory outside it.
    static func makeRoot() throws -> (root: String, outside: String) {
        let base = "/tmp/web-root-test-\(UInt32.random(in: 0...UInt32.max))"
        let root = base + "/root"
        let outside = base + "/outside"
        let script = """
            mkdir -p \(root)/js/deeper \(outside) && printf '<!doctype html><title>t</title>' > \(root)/index.html \
            && printf 'export const x = 1;' > \(root)/js/app.mjs && printf 'deep' > \(root)/js/deeper/d.txt \
            && printf 'SECRET-OUTSIDE' > \(outside)/secret.txt && printf 'HIDDEN-FILE' > \(root)/.env \
            && ln -s \(outside)/secret.txt \(root)/leak.txt && ln -s \(outside) \(root)/outdir \
            && ln -s /etc/passwd \(root)/passwd && ln -s js/app.mjs \(root)/alias.mjs
            """
        let made = shell(script)
        guard made.status == 0 else { throw HarnessError("cannot make the web root: \(made.output)") }
        return (root, outside)
    }

    @Test("files are served with their types and headers; 304 for a known ETag; HEAD without body; 404 and 405")
    func serves() async throws {
        let (root, _) = try Self.makeRoot()
        let server = try ServerProcess.start(arguments: ["--web-root", root])
        let port = server.port
        let page = try await offThePool { try Self.get(port, "/?plan=demo") }
        #expect(page.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(page.contains("Content-Type: text/html; charset=utf-8\r\n"))
        #expect(page.contains("X-Content-Type-Options: nosniff\r\n"))
        #expect(page.contains("Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self';"))
        #expect(page.contains("Cache-Control: no-cache\r\n") && page.hasSuffix("<!doctype html><title>t</title>"))
        let module = try await offThePool { try Self.get(port, "/js/app.mjs") }
        #expect(module.contains("Content-Type: text/javascript; charset=utf-8\r\n"))
        let etag = try #require(module.split(separator: "\r\n").first { $0.hasPrefix("ETag: ") }?.dropFirst(6))
        let again = try await offThePool { try Self.get(port, "/js/app.mjs", extra: "If-None-Match: \(etag)\r\n") }
        #expect(again.hasPrefix("HTTP/1.1 304 Not Modified\r\n") && again.hasSuffix("\r\n\r\n"))
        let head = try await offThePool { try Self.get(port, "/js/app.mjs", method: "HEAD") }
        #expect(head.contains("Content-Length: 19\r\n") && head.hasSuffix("\r\n\r\n"))
        #expect(try await offThePool { try Self.get(port, "/js/deeper/d.txt") }.hasSuffix("deep"))
        #expect(try await offThePool { try Self.get(port, "/alias.mjs") }.hasSuffix("export const x = 1;"))
        #expect(try await offThePool { try Self.get(port, "/nope.js") }.hasPrefix("HTTP/1.1 404 "))
        #expect(try await offThePool { try Self.get(port, "/", method: "POST") }.hasPrefix("HTTP/1.1 405 "))
        #expect(try await offThePool { try Self.get(port, "/healthz") }.hasSuffix("ok\n"))
        #expect(try await offThePool { try Self.get(port, "/metrics") }.contains("chronosketch_connections"))
        #expect(server.log.contains("web client at http://127.0.0.1:\(port)/"))
    }

    @Test(
        "nothing outside the root, hidden or behind a link out of it is served, however the path is spelled",
        arguments: [
            "/../outside/secret.txt", "/%2e%2e/outside/secret.txt", "/%2E%2E%2Foutside%2Fsecret.txt",
            "/js/../../outside/secret.txt", "/js/%2e%2e/%2e%2e/outside/secret.txt", "/leak.txt", "/outdir/secret.txt",
            "/passwd", "//etc/passwd", "/.env", "/%2eenv", "/index.html%00.txt", "/%00", "/js%5c..%5c..%5cetc%5cpasswd",
            "/js\\..\\..\\etc\\passwd", "/%c0%ae%c0%ae/outside/secret.txt", "/./index.html",
        ])
    func refusesHostilePaths(target: String) async throws {
        let (root, _) = try Self.makeRoot()
        let server = try ServerProcess.start(arguments: ["--web-root", root])
        let answer = try await offThePool { try Self.get(server.port, target) }
        #expect(
            answer.hasPrefix("HTTP/1.1 400 ") || answer.hasPrefix("HTTP/1.1 404 "), "\(target): \(answer.prefix(40))")
        #expect(!answer.contains("SECRET-OUTSIDE") && !answer.contains("root:") && !answer.contains("HIDDEN-FILE"))
        // The absolute form names the same path (RFC 9112 §3.2.2); NUL in the raw request line is
        // refused before any path is looked at.
        let absolute = try await offThePool { try Self.get(server.port, "http://127.0.0.1/leak.txt") }
        #expect(absolute.hasPrefix("HTTP/1.1 404 ") && !absolute.contains("SECRET"))
        let nul = try await offThePool {
            try Self.exchange(server.port, "GET /in\u{0}dex.html HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        #expect(nul.hasPrefix("HTTP/1.1 400 "))
        #expect(try await offThePool { try Self.get(server.port, "/healthz") }.hasSuffix("ok\n"), "the server lives")
    }

    @Test("by default the checkout's clients/web is served: every file with its type, the page's modules reachable")
    func checkoutsWebClient() async throws {
        let server = try ServerProcess.start()
        let port = server.port
        let page = try await offThePool { try Self.get(port, "/") }
        #expect(page.contains("<script type=\"module\" src=\"js/main.mjs\"></script>"))
        #expect(!page.contains("<script>") && !page.contains("style="), "no inline script or style")
        let module = try await offThePool { try Self.get(port, "/js/main.mjs") }
        #expect(module.hasPrefix("HTTP/1.1 200 ") && module.contains("text/javascript"))
        #expect(try await offThePool { try Self.get(port, "/app.css") }.contains("text/css"))
        #expect(try await offThePool { try Self.get(port, "/favicon.svg") }.contains("image/svg+xml"))
    }

    @Test("scripts are served as written, comments and all; --web-raw (of the compactor that was) is refused")
    func asWritten() async throws {
        let (root, _) = try Self.makeRoot()
        let source = "// A module.\n\nexport function f() {\n  return '//'; // a string\n}\n"
        let written = shell("printf '%s' \"\(source)\" > \(root)/js/app.mjs")
        #expect(written.status == 0)
        let server = try ServerProcess.start(arguments: ["--web-root", root])
        let served = try await offThePool { try Self.get(server.port, "/js/app.mjs") }
        #expect(served.hasSuffix("\r\n\r\n" + source) && served.contains("Content-Length: \(source.utf8.count)\r\n"))
        let refused = try await offThePool {
            shell("timeout 20 \(ServerProcess.binary) serve --port 0 --database '\(TestDatabase.url)' --web-raw")
        }
        #expect(refused.status != 0 && refused.output.contains("--web-raw"))
    }

    @Test("a --web-root that is no directory stops the server with a message; /ws still upgrades beside the files")
    func badRoot() async throws {
        let result = try await offThePool {
            shell(
                "timeout 20 \(ServerProcess.binary) serve --port 0 --database '\(TestDatabase.url)' --web-root /nonexistent/web"
            )
        }
        #expect(result.status != 0)
        #expect(result.output.contains("the web root /nonexistent/web is not a readable directory"))
        let server = try ServerProcess.start()
        let upgrade = try await offThePool {
            try Self.exchange(
                server.port,
                "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        }
        #expect(upgrade.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
    }
}
