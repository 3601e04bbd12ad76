import Glibc
import PlanTestSupport
import Testing

/// The web client's files gzipped, revalidated per representation and kept alive (issue 30,
/// item 7), over real sockets; gzip bodies are checked with the system's `gzip -d`.
@Suite("Server: the web client gzipped, revalidated and kept alive", .database)
struct WebClientEncodingTests {
    /// One HTTP answer: its head as text and its body.
    struct Answer {
        let head: String
        let body: [UInt8]

        var status: Int { Int(head.dropFirst(9).prefix(3)) ?? 0 }

        func header(_ name: String) -> String? {
            head.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ": ") }
                .map { String($0.dropFirst(name.count + 2)) }
        }
    }

    /// The answers in `bytes`, one per request method in `methods` (a `HEAD` answer and a `304`
    /// have no body; the others as long as their `Content-Length`).
    static func answers(_ bytes: [UInt8], methods: [String]) throws -> [Answer] {
        var answers: [Answer] = []
        var rest = bytes[...]
        for method in methods {
            let end = try #require(
                rest.firstRange(of: Array("\r\n\r\n".utf8)), "answer \(answers.count + 1) incomplete")
            let head = String(decoding: rest[..<end.lowerBound], as: UTF8.self)
            rest = rest[end.upperBound...]
            var answer = Answer(head: head, body: [])
            if method != "HEAD", answer.status != 304 {
                let length = try #require(answer.header("Content-Length").flatMap { Int($0) })
                try #require(rest.count >= length, "a body shorter than its Content-Length")
                answer = Answer(head: head, body: Array(rest.prefix(length)))
                rest = rest.dropFirst(length)
            }
            answers.append(answer)
        }
        #expect(rest.isEmpty, "nothing after the last answer")
        return answers
    }

    /// The requests, pipelined on one connection, and their answers.
    static func exchange(_ port: Int, _ requests: [(method: String, target: String, fields: [String])]) async throws
        -> [Answer]
    {
        let text = requests.map { request in
            "\(request.method) \(request.target) HTTP/1.1\r\nHost: x\r\n"
                + request.fields.map { $0 + "\r\n" }.joined() + "\r\n"
        }.joined()
        let bytes = try await offThePool { try exchangeBytesOnce(port: port, text) }
        return try answers(bytes, methods: requests.map(\.method))
    }

    /// `command` run by the shell with `$1` naming a temporary file of `body`.
    static func withFile(_ body: [UInt8], _ command: String) throws -> (status: Int32, output: String) {
        let path = "/tmp/web-gzip-test-\(UInt32.random(in: 0...UInt32.max)).gz"
        let file = try #require(fopen(path, "wb"))
        let written = fwrite(body, 1, body.count, file)
        fclose(file)
        defer { unlink(path) }
        try #require(written == body.count)
        return shell("set -- \(path); \(command)")
    }

    /// Whether `gzip -d` turns `body` into the bytes of the file at `path`.
    static func gunzips(_ body: [UInt8], to path: String) throws -> Bool {
        try withFile(body, "gzip -dc \"$1\" | cmp -s - \(path)").status == 0
    }

    @Test("a module gzipped when asked, as written otherwise, each with its ETag: 304 for both, HEAD its length")
    func representations() async throws {
        let (root, _) = try WebClientServingTests.makeRoot()
        let module = (0..<200).map { "export const value\($0) = 'a string that repeats';\n" }.joined()
        #expect(shell("printf '%s' \"\(module)\" > \(root)/js/big.mjs").status == 0)
        let server = try ServerProcess.start(arguments: ["--web-root", root])
        let gzip = "Accept-Encoding: gzip, deflate, br"
        let first = try await Self.exchange(
            server.port, [("GET", "/js/big.mjs", [gzip]), ("GET", "/js/big.mjs", []), ("GET", "/js/app.mjs", [gzip])])
        let (gzipped, plain, tiny) = (first[0], first[1], first[2])
        #expect(gzipped.status == 200 && gzipped.header("Content-Encoding") == "gzip")
        #expect(gzipped.body.count < module.utf8.count / 10)
        #expect(try Self.gunzips(gzipped.body, to: "\(root)/js/big.mjs"))
        #expect(plain.status == 200 && plain.header("Content-Encoding") == nil && plain.body == Array(module.utf8))
        #expect(tiny.header("Content-Encoding") == nil && tiny.body == Array("export const x = 1;".utf8))
        for answer in first {
            #expect(answer.header("Vary") == "Accept-Encoding" && answer.header("Connection") == "keep-alive")
            #expect(answer.header("Content-Type") == "text/javascript; charset=utf-8")
        }
        let gzipTag = try #require(gzipped.header("ETag"))
        let plainTag = try #require(plain.header("ETag"))
        #expect(gzipTag.hasSuffix("-gzip\"") && plainTag != gzipTag)
        let second = try await Self.exchange(
            server.port,
            [
                ("GET", "/js/big.mjs", [gzip, "If-None-Match: \(gzipTag)"]),
                ("HEAD", "/js/big.mjs", [gzip, "If-None-Match: \(gzipTag)"]),
                ("GET", "/js/big.mjs", ["If-None-Match: \(plainTag)"]),
                ("GET", "/js/big.mjs", ["If-None-Match: \(gzipTag)"]), ("HEAD", "/js/big.mjs", [gzip]),
                ("HEAD", "/js/big.mjs", []),
            ])
        #expect(second.map(\.status) == [304, 304, 304, 200, 200, 200])
        #expect(second[0].header("ETag") == gzipTag && second[2].header("ETag") == plainTag)
        #expect(second.allSatisfy { $0.header("Vary") == "Accept-Encoding" })
        #expect(second[3].body == Array(module.utf8) && second[3].header("ETag") == plainTag)
        #expect(second[4].header("Content-Length") == "\(gzipped.body.count)" && second[4].body.isEmpty)
        #expect(second[4].header("Content-Encoding") == "gzip")
        #expect(
            second[5].header("Content-Length") == "\(module.utf8.count)" && second[5].header("Content-Encoding") == nil)
    }

    @Test("the checkout's page preloads its modules and its language; all of them come over one kept-alive connection")
    func preloadsOverOneConnection() async throws {
        let server = try ServerProcess.start()
        let fields = ["Accept-Encoding: gzip", "Accept-Language: de-DE,de;q=0.9,en;q=0.8"]
        let page = try #require(try await Self.exchange(server.port, [("GET", "/?plan=demo", fields)]).first)
        #expect(page.header("Content-Encoding") == "gzip" && page.header("Vary") == "Accept-Encoding, Accept-Language")
        let html = try Self.withFile(page.body, "gzip -dc \"$1\"")
        #expect(html.status == 0 && html.output.contains("<script type=\"module\" src=\"js/main.mjs\"></script>"))
        let hrefs = html.output.matches(of: #/<link rel="modulepreload" href="(?<href>[^"]+)">/#).map {
            String($0.output.href)
        }
        #expect(hrefs.contains("js/lang-de.mjs") && !hrefs.contains("js/lang-en.mjs"))
        #expect(hrefs.contains("js/strings.mjs") && hrefs.contains("js/dates.mjs") && hrefs.count >= 10)
        let modules = try await Self.exchange(server.port, hrefs.map { ("GET", "/" + $0, ["Accept-Encoding: gzip"]) })
        #expect(modules.count == hrefs.count)
        for (href, answer) in zip(hrefs, modules) {
            #expect(answer.status == 200 && answer.header("Connection") == "keep-alive", "\(href)")
            #expect(answer.header("Content-Type") == "text/javascript; charset=utf-8", "\(href)")
        }
        #expect(modules.contains { $0.header("Content-Encoding") == "gzip" })
    }
}
