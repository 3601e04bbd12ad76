import PlanProtocol
import PlanTestSupport
import Testing

/// `/metrics` and `/healthz` as the contract names them (§1), with values that follow what
/// happened.
@Suite("Server: metrics and health over HTTP", .database)
struct MetricsTests {
    @Test("every metric family the contract names is there, and counts what happened")
    func families() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let editor = try await TestClient.connected(to: server, token: fixture.editorToken)
        defer { editor.close() }
        let copy = try await editor.subscribe(fixture.plan)
        let review = copy["review"]!
        let confirmed = try await editor.propose(
            .replace(previous: review, proposed: review.with(title: "Reviewed")), plan: fixture.plan)
        #expect(confirmed.ackVersion == 1)
        let stale = try await editor.propose(
            .replace(previous: review, proposed: review.with(title: "Again")), plan: fixture.plan)
        #expect(stale.rejectionCode == .staleTask)
        let metrics = try await offThePool { shell("curl -s http://127.0.0.1:\(server.port)/metrics").output }
        func value(_ series: String) -> Double? {
            metrics.split(separator: "\n").first { $0.hasPrefix(series + " ") }
                .flatMap { Double($0.split(separator: " ").last ?? "") }
        }
        #expect(value("chronosketch_connections") == 1)
        #expect(value("chronosketch_subscriptions") == 1)
        #expect(value("chronosketch_loaded_plans") == 1)
        #expect(value(#"chronosketch_proposals_total{outcome="confirmed"}"#) == 1)
        #expect(value(#"chronosketch_proposals_total{outcome="rejected",code="staleTask"}"#) == 1)
        #expect((value("chronosketch_commit_seconds_count") ?? 0) >= 1)
        #expect((value("chronosketch_fanout_seconds_count") ?? 0) >= 1)
        // The stages of a proposal's time: two messages judged, at least one commit's transaction.
        #expect((value(#"chronosketch_stage_seconds_count{stage="hub_message"}"#) ?? 0) >= 2)
        #expect((value(#"chronosketch_stage_seconds_count{stage="commit_transaction"}"#) ?? 0) >= 1)
        // Its three parts, each measured once per commit with the transaction.
        let commits = value(#"chronosketch_stage_seconds_count{stage="commit_transaction"}"#)
        for part in ["commit_encode", "commit_execute", "commit_sync"] {
            #expect(value(#"chronosketch_stage_seconds_count{stage="\#(part)"}"#) == commits, "\(part)")
        }
        #expect(value("chronosketch_send_queue_bytes") != nil)
        #expect(value("chronosketch_intake_backlog") == 0)
        #expect(value("chronosketch_intake_pauses_total") == 0)
        #expect(value("chronosketch_log_rows_trimmed_total") == 0)
        #expect(value("chronosketch_yielded_turns_total") != nil)
        // One plan: each of its commits is a transaction of its own; none failed as a group.
        #expect(value("chronosketch_commit_transactions_total") == value("chronosketch_commit_seconds_count"))
        #expect(value("chronosketch_commit_groups_split_total") == 0)
        // The test database has no synchronous standby; nothing failed over or was lost.
        #expect(value("chronosketch_durability_replicated") == 0)
        #expect(value(#"chronosketch_synchronous_commit_info{setting="on"}"#) == 1)
        #expect(value("chronosketch_database_connections_lost_total") == 0)
        #expect(value("chronosketch_database_failovers_total") == 0)
        for family in ["connections", "subscriptions", "send_queue_bytes"] {
            #expect(metrics.contains("# TYPE chronosketch_\(family) gauge"))
        }
        #expect(metrics.contains("# TYPE chronosketch_commit_seconds histogram"))
    }

    @Test("HTTP: HEAD has no body, an unknown path is 404, another method 405; each ends the connection")
    func plainHTTP() async throws {
        let server = try ServerProcess.start()
        let base = "http://127.0.0.1:\(server.port)"
        let head = try await offThePool { shell("curl -sI \(base)/healthz").output }
        #expect(head.hasPrefix("HTTP/1.1 200 OK") && head.contains("Content-Length: 3"))
        let missing = try await offThePool { shell("curl -s -o /dev/null -w '%{http_code}' \(base)/nothing").output }
        #expect(missing == "404")
        let posted = try await offThePool {
            shell("curl -s -o /dev/null -w '%{http_code}' -X POST \(base)/healthz").output
        }
        #expect(posted == "405")
    }
}
