import ChronoSketchCore
import Glibc
import PlanStore
import PlanTestSupport
import Testing

@testable import PlanTerminal

/// A program's exit status, standard output (as bytes) and standard error.
func runSplit(_ argv: [String]) throws -> (status: Int32, output: [UInt8], errors: String) {
    let base = "/tmp/plan-e2e-split-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    defer { unlink(base + ".out"); unlink(base + ".err") }
    let line = argv.map { "'" + $0 + "'" }.joined(separator: " ")
    // In a subshell: `shell` sends the command's own standard error to its output.
    let status = shell("(" + line + " >\(base).out 2>\(base).err)").status
    return (status, try readAll(base + ".out"), String(decoding: try readAll(base + ".err"), as: UTF8.self))
}

/// A plan whose export loses something in MS Project XML (a booking of no task, fractional
/// progress) and whose bookings belong to tasks or not; an editor's token.
func bookedPlan() throws -> (plan: String, token: String) {
    let json = #"""
        {"title":"Bookings","tasks":[
          {"id":"spec","title":"Spec","kind":"activity","schedule":{"start":"2026-09-07","end":"2026-09-10"},"progress":33.5},
          {"id":"ship","title":"Ship","kind":"milestone","date":"2026-09-14"}],
         "resources":[{"id":"room-1","label":"Room 1"},{"id":"room-2","label":"Room 2"},{"id":"ann","label":"Ann"}],
         "entries":[
          {"id":"e1","title":"Spec\twork","start":"2026-09-07T09:00","end":"2026-09-07T12:30","taskID":"spec"},
          {"id":"e2","title":"Retro","start":"2026-09-10T14:00","end":"2026-09-11T00:00"},
          {"id":"e0","title":"Kick-off","start":"2026-09-07T08:00","end":"2026-09-07T09:00"}],
         "assignments":[{"id":"a1","entryID":"e1","resourceID":"room-1"},{"id":"a2","entryID":"e1","resourceID":"ann"},
          {"id":"a3","entryID":"e2","resourceID":"room-2"}]}
        """#
    let plan = TestDatabase.unique("plan")
    try TestDatabase.store.createPlan(
        id: plan, document: try PlanDocument(json: try JSONValue(parsing: Array(json.utf8))))
    return (plan, try planEditor(plan, "export").token)
}

/// `plan export`, `plan bookings` and `plan feed` against a real server and database.
@Suite("plan export, bookings and feed end to end", .serialized, .database)
struct TerminalExportEndToEndTests {
    static let binary = productsDirectory + "/plan"

    /// `plan-server plan export`'s output for the same plan.
    static func serverExport(_ plan: String, _ arguments: [String]) throws -> (
        status: Int32, output: [UInt8], errors: String
    ) {
        try runSplit([ServerProcess.binary, "plan", "export", plan, "--database", TestDatabase.url] + arguments)
    }

    /// The codes of `warning: CODE: text` lines.
    static func codes(_ errors: String) -> Set<String> {
        Set(
            errors.split(separator: "\n").compactMap { line in
                line.hasPrefix("warning: ") ? line.dropFirst(9).split(separator: ":").first.map(String.init) : nil
            })
    }

    @Test("every format byte for byte as plan-server plan export prints it; warnings on stderr; JSON with bookings")
    func formats() async throws {
        try await offThePool {
            let (plan, token) = try bookedPlan()
            let server = try ServerProcess.start()
            defer { _ = server.terminate() }
            let connection = ["--server", server.url, "--token", token, "--plan", plan]
            for format in ["json", "msproject", "csv", "ics"] {
                let mine = try runSplit([Self.binary, "export", "--format", format] + connection)
                let theirs = try Self.serverExport(plan, ["--format", format])
                #expect(mine.status == 0 && theirs.status == 0, "\(format): \(mine.errors)")
                if format == "ics" {
                    // DTSTAMP is the export's time: the same document apart from it.
                    func masked(_ bytes: [UInt8]) -> [Substring] {
                        String(decoding: bytes, as: UTF8.self).split(separator: "\r\n").filter {
                            !$0.hasPrefix("DTSTAMP:")
                        }
                    }
                    #expect(masked(mine.output) == masked(theirs.output))
                    #expect(String(decoding: mine.output, as: UTF8.self).contains("BEGIN:VEVENT\r\n"))
                } else {
                    #expect(mine.output == theirs.output, "\(format)")
                }
                #expect(Self.codes(mine.errors) == Self.codes(theirs.errors), "\(format): \(mine.errors)")
            }
            let xml = try runSplit([Self.binary, "export", "--format", "msproject"] + connection)
            #expect(
                xml.errors.split(separator: "\n") == [
                    "warning: entryWithoutTask: bookings that belong to no task are not MS Project assignments and are not written",
                    "warning: progressRounded: fractional progress is written as whole percent",
                ])
            let json = try runSplit([Self.binary, "export"] + connection)
            #expect(json.errors.isEmpty)
            let text = String(decoding: json.output, as: UTF8.self)
            #expect(text.hasPrefix("{\"id\":\"\(plan)\",\"version\":0,\"title\":\"Bookings\""))
            #expect(
                text.contains(
                    #""id":"e1","title":"Spec\twork","start":"2026-09-07T09:00","end":"2026-09-07T12:30","taskID":"spec""#
                ))
            #expect(text.contains(#"{"id":"a3","entryID":"e2","resourceID":"room-2"}"#))
            let past = try runSplit([Self.binary, "export", "--version", "0", "--format", "csv"] + connection)
            let pastServer = try Self.serverExport(plan, ["--format", "csv", "--version", "0"])
            #expect(past.status == 0 && past.output == pastServer.output)
        }
    }

    @Test("401, 404 and an unreachable server said in words, exit 1")
    func failures() async throws {
        try await offThePool {
            let (plan, token) = try bookedPlan()
            let server = try ServerProcess.start()
            defer { _ = server.terminate() }
            let refused = try runSplit([
                Self.binary, "export", "--server", server.url, "--token", "nope", "--plan", plan,
            ])
            #expect(refused.status == 1 && refused.output.isEmpty)
            #expect(refused.errors == "plan export: the server did not accept the token (401 unauthorized)\n")
            let german = try runSplit(
                [Self.binary, "export", "--language", "de", "--server", server.url, "--token", "nope", "--plan", plan])
            #expect(german.errors.contains("der Server hat das Token nicht angenommen (401)"))
            let missing = try runSplit([
                Self.binary, "export", "--server", server.url, "--token", token, "--plan", "no-such",
            ])
            #expect(missing.status == 1)
            #expect(
                missing.errors
                    == "plan export: plan no-such does not exist, or you have no role on it (404 not found)\n")
            let version = try runSplit(
                [Self.binary, "bookings", "--version", "7", "--server", server.url, "--token", token, "--plan", plan])
            #expect(version.status == 1 && version.errors.contains("has no version 7 you can read"))
            let away = try runSplit([
                Self.binary, "export", "--server", "ws://127.0.0.1:1/ws", "--token", token, "--plan", plan,
            ])
            #expect(
                away.status == 1 && away.errors.hasPrefix("plan export: cannot reach the server at http://127.0.0.1:1"))
        }
    }

    @Test("bookings: one tab-separated line each, by start; --from, --to and --resource filter")
    func bookings() async throws {
        try await offThePool {
            let (plan, token) = try bookedPlan()
            let server = try ServerProcess.start()
            defer { _ = server.terminate() }
            let connection = ["--server", server.url, "--token", token, "--plan", plan]
            let all = try runSplit([Self.binary, "bookings"] + connection)
            #expect(all.status == 0)
            #expect(
                String(decoding: all.output, as: UTF8.self)
                    == "e0\tKick-off\t2026-09-07T08:00\t2026-09-07T09:00\t\t\n"
                    + "e1\tSpec work\t2026-09-07T09:00\t2026-09-07T12:30\troom-1,ann\tspec\n"
                    + "e2\tRetro\t2026-09-10T14:00\t2026-09-11T00:00\troom-2\t\n")
            let later = try runSplit([Self.binary, "bookings", "--from", "2026-09-08"] + connection)
            #expect(
                String(decoding: later.output, as: UTF8.self)
                    == "e2\tRetro\t2026-09-10T14:00\t2026-09-11T00:00\troom-2\t\n")
            // e2 ends at the first minute of the 11th: it does not reach into it.
            let eleventh = try runSplit([Self.binary, "bookings", "--from", "2026-09-11"] + connection)
            #expect(eleventh.status == 0 && eleventh.output.isEmpty)
            let first = try runSplit(
                [Self.binary, "bookings", "--to", "2026-09-07", "--resource", "ann,room-2"] + connection)
            #expect(String(decoding: first.output, as: UTF8.self).split(separator: "\n").map { $0.prefix(2) } == ["e1"])
            let unknown = try runSplit([Self.binary, "bookings", "--resource", "room-9"] + connection)
            #expect(unknown.status == 1)
            #expect(
                unknown.errors == "plan bookings: no resource room-9 in this plan (resources: room-1, room-2, ann)\n")
        }
    }

    @Test("feed: the full address, the same twice, read without a header; --revoke makes it 404")
    func feed() async throws {
        try await offThePool {
            let (plan, token) = try bookedPlan()
            let server = try ServerProcess.start()
            defer { _ = server.terminate() }
            let connection = ["--server", server.url, "--token", token, "--plan", plan]
            let asked = try runSplit([Self.binary, "feed"] + connection)
            #expect(asked.status == 0, "\(asked.errors)")
            let url = String(decoding: asked.output, as: UTF8.self).trimmingSuffix("\n")
            let prefix = "http://127.0.0.1:\(server.port)"
            #expect(url.hasPrefix(prefix + "/plans/\(plan)/calendar.ics?key="))
            #expect(try runSplit([Self.binary, "feed"] + connection).output == asked.output)
            let path = String(url.dropFirst(prefix.count))
            let calendar = try exchangeOnce(port: server.port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(calendar.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(calendar.contains("Content-Type: text/calendar; charset=utf-8\r\n"))
            #expect(calendar.contains("UID:\(plan)/spec@chronosketch\r\n"))
            let revoked = try runSplit([Self.binary, "feed", "--revoke"] + connection)
            #expect(revoked.status == 0)
            #expect(
                String(decoding: revoked.output, as: UTF8.self)
                    == "The calendar address of \(plan) no longer works; asking again gives a new one.\n")
            let gone = try exchangeOnce(port: server.port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(gone.hasPrefix("HTTP/1.1 404 "))
            let stranger = try runSplit(
                [
                    Self.binary, "feed", "--language", "de", "--server", server.url, "--token", token, "--plan",
                    "no-such",
                ])
            #expect(stranger.status == 1)
            #expect(stranger.errors == "plan feed: Plan no-such gibt es nicht, oder Sie haben keine Rolle darin\n")
        }
    }

    @Test("the interactive client's plan details (I) show the address plan feed prints", .enabled(if: Tmux.isAvailable))
    func details() async throws {
        try await offThePool {
            let (plan, token) = try bookedPlan()
            let server = try ServerProcess.start()
            defer { _ = server.terminate() }
            let connection = ["--server", server.url, "--token", token, "--plan", plan]
            let tmux = Tmux()
            try tmux.start("d", [Self.binary] + connection)
            _ = try tmux.waitFor("d") { isConnected($0) && $0.contains("Spec") }
            try tmux.send("d", "I")
            let screen = try tmux.waitFor("d") { $0.contains("calendar.ics?key=") }
            let asked = try runSplit([Self.binary, "feed"] + connection)
            let url = String(decoding: asked.output, as: UTF8.self).trimmingSuffix("\n")
            #expect(
                !url.isEmpty && screen.split(separator: "\n").contains { $0.hasPrefix(url) }, "[\(url)] \(asked.errors)"
            )
            #expect(screen.contains("Anyone with the address can read them"))
            try tmux.send("d", "q")
        }
    }

    @Test("export over wss:// with --ca-file: the same bytes as plan-server's")
    func exportOverTLS() async throws {
        try await offThePool {
            let certificate = try TestCertificate.make("plan-export-tls")
            defer { certificate.remove() }
            let (plan, token) = try bookedPlan()
            let server = try ServerProcess.start(
                arguments: ["--tls-cert", certificate.certificatePath, "--tls-key", certificate.keyPath])
            defer { _ = server.terminate() }
            let connection = ["--server", "wss://127.0.0.1:\(server.port)/ws", "--token", token, "--plan", plan]
            let untrusted = try runSplit([Self.binary, "export"] + connection)
            #expect(untrusted.status == 1 && untrusted.output.isEmpty)
            #expect(untrusted.errors.contains("cannot reach the server at https://127.0.0.1:\(server.port)"))
            let trusted = try runSplit([Self.binary, "export", "--ca-file", certificate.certificatePath] + connection)
            #expect(trusted.status == 0, "\(trusted.errors)")
            let expected = try Self.serverExport(plan, [])
            #expect(trusted.output == expected.output)
            let feed = try runSplit([Self.binary, "feed", "--ca-file", certificate.certificatePath] + connection)
            #expect(String(decoding: feed.output, as: UTF8.self).hasPrefix("https://127.0.0.1:\(server.port)/plans/"))
        }
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
