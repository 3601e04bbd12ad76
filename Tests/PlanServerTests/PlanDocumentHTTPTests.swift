import ChronoSketchCore
import PlanTestSupport
import Testing

/// `GET /plans/ID/calendar.ics` and `GET /plans/ID/export` over real HTTP (interchange.md §10,
/// §14): answered from a worker with what is committed, to a bearer token with a role on the
/// plan; 401 without one, 404 without a role (names do not leak), 400 for an unknown format.
@Suite("Server: plan documents over HTTP", .database)
struct PlanDocumentHTTPTests {
    static func get(_ port: Int, _ target: String, token: String? = nil) throws -> String {
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        return try exchangeOnce(port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(authorization)\r\n")
    }

    @Test("the calendar feed and every export format for a role; 401, 404 and 400 otherwise")
    func documents() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let port = server.port
        let plan = fixture.plan
        let feed = try await offThePool {
            try Self.get(port, "/plans/\(plan)/calendar.ics", token: fixture.viewerToken)
        }
        #expect(
            feed.hasPrefix("HTTP/1.1 200 OK\r\n") && feed.contains("Content-Type: text/calendar; charset=utf-8\r\n"))
        #expect(feed.contains("BEGIN:VCALENDAR\r\n") && feed.contains("UID:\(plan)/build@chronosketch\r\n"))

        for (format, type, suffix) in [
            ("json", "application/json", "json"), ("msproject", "application/xml; charset=utf-8", "xml"),
            ("csv", "text/csv; charset=utf-8", "csv"), ("ics", "text/calendar; charset=utf-8", "ics"),
        ] {
            let answer = try await offThePool {
                try Self.get(port, "/plans/\(plan)/export?format=\(format)", token: fixture.viewerToken)
            }
            #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(format): \(answer.prefix(200))")
            #expect(answer.contains("Content-Type: \(type)\r\n"))
            #expect(answer.contains("Content-Disposition: attachment; filename=\"\(plan).\(suffix)\"\r\n"))
        }
        let xml = try await offThePool {
            try Self.get(port, "/plans/\(plan)/export?format=msproject", token: fixture.editorToken)
        }
        #expect(xml.contains("X-Export-Warnings: entryWithoutTask\r\n") && xml.contains("<Project xmlns="))
        let past = try await offThePool {
            try Self.get(port, "/plans/\(plan)/export?version=0", token: fixture.editorToken)
        }
        #expect(past.hasPrefix("HTTP/1.1 200 OK\r\n") && past.contains("\"version\":0"))
        #expect(past.contains("Content-Disposition: attachment; filename=\"\(plan)-v0.json\"\r\n"))

        let none = try await offThePool { try Self.get(port, "/plans/\(plan)/calendar.ics") }
        #expect(none.hasPrefix("HTTP/1.1 401 Unauthorized\r\n") && none.contains("WWW-Authenticate: Bearer\r\n"))
        let wrong = try await offThePool { try Self.get(port, "/plans/\(plan)/calendar.ics", token: "not-a-token") }
        #expect(wrong.hasPrefix("HTTP/1.1 401 "))
        let stranger = try await offThePool {
            try Self.get(port, "/plans/\(plan)/calendar.ics", token: fixture.strangerToken)
        }
        let missing = try await offThePool {
            try Self.get(port, "/plans/no-such-plan/calendar.ics", token: fixture.strangerToken)
        }
        #expect(stranger.hasPrefix("HTTP/1.1 404 ") && missing.hasPrefix("HTTP/1.1 404 "))
        // The same answer for a plan that exists and one that does not.
        #expect(stranger.split(separator: "\r\n").last == missing.split(separator: "\r\n").last)
        let beyond = try await offThePool {
            try Self.get(port, "/plans/\(plan)/export?version=99", token: fixture.editorToken)
        }
        #expect(beyond.hasPrefix("HTTP/1.1 404 "))
        let format = try await offThePool {
            try Self.get(port, "/plans/\(plan)/export?format=pdf", token: fixture.editorToken)
        }
        #expect(format.hasPrefix("HTTP/1.1 400 "))
        // The WebSocket endpoint and the health check are unchanged.
        #expect(try await offThePool { try Self.get(port, "/healthz") }.hasPrefix("HTTP/1.1 200 OK\r\n"))
    }
}
