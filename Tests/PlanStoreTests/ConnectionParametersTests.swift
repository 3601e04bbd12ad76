import PlanTestSupport
import Testing

@testable import PlanStore

/// How connections reach the database (issue 33, item 1): the URL's own settings win over our
/// defaults, every connection probes a silent peer (keepalives, a TCP user timeout), and a URL
/// naming several hosts without asking for the primary is warned of. A node that turned
/// read-only (SQLSTATE 25006) is `unavailable`, and its connection is dropped.
@Suite("Store: connection parameters", .database)
struct ConnectionParametersTests {
    /// The test database's URL with `extra` query parameters.
    static func url(_ extra: String) -> String {
        TestDatabase.url + (TestDatabase.url.contains("?") ? "&" : "?") + extra
    }

    @Test("defaults: a 5 s connect timeout, keepalives after 5 s every 2 s three times, a 10 s TCP user timeout")
    func defaults() throws {
        let connection = try PGConnection(conninfo: TestDatabase.url)
        let parameters = connection.effectiveParameters
        #expect(parameters["connect_timeout"] == "5" && parameters["keepalives"] == "1")
        #expect(parameters["keepalives_idle"] == "5" && parameters["keepalives_interval"] == "2")
        #expect(parameters["keepalives_count"] == "3" && parameters["tcp_user_timeout"] == "10000")
        #expect(parameters["application_name"] == "plan-server")
    }

    @Test("what the URL sets wins over the defaults")
    func urlWins() throws {
        let connection = try PGConnection(
            conninfo: Self.url("connect_timeout=2&application_name=mine&tcp_user_timeout=3000"))
        let parameters = connection.effectiveParameters
        #expect(parameters["connect_timeout"] == "2" && parameters["tcp_user_timeout"] == "3000")
        let name = try connection.query("SELECT current_setting('application_name')")
        #expect(name.string(0, 0) == "mine")
    }

    @Test("a read-only node (25006) is unavailable and its connection is dropped")
    func readOnlyNode() throws {
        let connection = try PGConnection(conninfo: TestDatabase.url)
        _ = try connection.query("SET default_transaction_read_only = on")
        var outcome: StoreError?
        do {
            _ = try connection.query("CREATE TEMP TABLE nope (x int)")
        } catch {
            outcome = error
        }
        guard case .unavailable? = outcome else {
            Issue.record("expected unavailable, got \(String(describing: outcome))")
            return
        }
        #expect(!connection.isConnected, "dropped, so that the next connection finds the primary")
    }

    @Test("a URL naming several hosts is warned of unless it asks for the primary")
    func multiHost() {
        #expect(DatabaseAddress.multiHostWarning("postgresql://a:5432,b:5433/db") != nil)
        #expect(DatabaseAddress.multiHostWarning("host=a,b dbname=db") != nil)
        #expect(
            DatabaseAddress.multiHostWarning("postgresql://a:5432,b:5433/db?target_session_attrs=read-write") == nil)
        #expect(DatabaseAddress.multiHostWarning("host=a,b dbname=db target_session_attrs=primary") == nil)
        #expect(DatabaseAddress.multiHostWarning("postgresql://a/db") == nil)
        #expect(DatabaseAddress.multiHostWarning(TestDatabase.url) == nil)
        #expect(DatabaseAddress.multiHostWarning("not a url ===") == nil)
    }
}
