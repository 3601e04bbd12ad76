import CPostgres
import ChronoSketchCore
import Glibc

/// One statement with its parameters (`$1`, `$2`, …): text, NULL, or arrays sent in binary (`PGValue`).
public struct PGStatement: Sendable {
    /// The SQL text.
    public let sql: String
    /// The parameters, `$1` first.
    public let values: [PGValue]

    /// Creates a statement whose parameters are text (or NULL).
    public init(_ sql: String, _ parameters: [String?] = []) {
        self.init(sql, values: parameters.map(PGValue.init))
    }

    /// Creates a statement with parameters of any form (arrays among them).
    public init(_ sql: String, values: [PGValue]) {
        self.sql = sql
        self.values = values
    }

    /// `SET LOCAL` of each setting (through `set_config(…, true)`, one statement for all): the
    /// settings hold until the end of the transaction the statement runs in (with `transaction`,
    /// the whole pipeline), then the connection's own values are back.
    ///
    /// A statement prepared on the connection keeps the plan made at its first execution (the
    /// connection forces generic plans), so a statement that needs settings must always run
    /// after them: give each such statement text to one kind of transaction only.
    public static func setLocal(_ settings: KeyValuePairs<String, String>) -> PGStatement {
        var calls: [String] = []
        var parameters: [String?] = []
        for (name, value) in settings {
            calls.append("set_config($\(parameters.count + 1), $\(parameters.count + 2), true)")
            parameters += [name, value]
        }
        return PGStatement("SELECT " + calls.joined(separator: ", "), parameters)
    }
}

/// One blocking libpq connection. Every statement is parameterized; nothing is ever spliced into
/// SQL text.
///
/// Not thread-safe: one thread uses it at a time. It is `Sendable` only so that ownership can move
/// between threads through `ConnectionPool`, which never hands one connection to two borrowers.
public final class PGConnection: @unchecked Sendable {
    private let conninfo: String
    private var handle: OpaquePointer?
    /// Names of the statements prepared on this connection, by SQL text (cleared on reconnect).
    private var prepared: [String: String] = [:]
    private static let preparedLimit = 256
    /// The first WARNING the server sent since `transaction` began, if any (`noticed(_:)`).
    private var warning: String?
    /// Where lost connections and changes of server are counted, if anywhere.
    private let events: ConnectionEvents?

    /// Connects to `conninfo` (a libpq URI or keyword string).
    /// - Throws: `StoreError.unavailable` when the server cannot be reached.
    public init(conninfo: String, events: ConnectionEvents? = nil) throws(StoreError) {
        self.conninfo = conninfo
        self.events = events
        try connect()
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    private func connect() throws(StoreError) {
        if let handle { PQfinish(handle) }
        prepared = [:]
        let (keywords, values) = PGConnection.connectionParameters(conninfo)
        // Both arrays end with NULL, as libpq requires.
        handle = withCStrings(keywords) { keywordPointers in
            withCStrings(values) { valuePointers in
                PQconnectdbParams(keywordPointers + [nil], valuePointers + [nil], 1)
            }
        }
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            let message = handle.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            throw .unavailable(PGConnection.firstLine(message))
        }
        // Notices come to `noticed` (on the thread running the libpq call) instead of stderr.
        // The handle is finished before the connection goes (deinit), so the pointer outlives it.
        PQsetNoticeReceiver(
            handle,
            { context, result in
                guard let context, let result else { return }
                Unmanaged<PGConnection>.fromOpaque(context).takeUnretainedValue().noticed(result)
            }, Unmanaged.passUnretained(self).toOpaque())
        if let events, let host = PQhost(handle), let port = PQport(handle) {
            events.connected(to: "\(String(cString: host)):\(String(cString: port))")
        }
        // Dates and numbers as the domain code parses them, whatever the server's defaults.
        // Every statement is prepared and keyed by plan and row ids, whose generic plan is the
        // right one: planning each execution again (PostgreSQL's default for the first five and
        // whenever it guesses a custom plan is cheaper) cost a tenth of a group commit.
        // Planner settings that only some transactions need are set in those, and only for their
        // length (`PGStatement.setLocal`, e.g. `PlanStore.keyLookupsOnly`).
        _ = try query(
            """
            SET DateStyle = 'ISO, YMD'; SET extra_float_digits = 3; SET TimeZone = 'UTC';
            SET client_min_messages = warning; SET plan_cache_mode = force_generic_plan
            """
        )
    }

    /// The defaults every connection gets, then the URL (expanded by libpq: what it sets wins,
    /// since later parameters override earlier ones). A connection notices a database machine
    /// that vanished without a word within about 10 s (TCP keepalives probed after 5 s idle,
    /// every 2 s, 3 times; unacknowledged data given up after 10 s) instead of the kernel's
    /// 15 minutes.
    static func connectionParameters(_ conninfo: String) -> (keywords: [String], values: [String]) {
        let defaults = [
            ("connect_timeout", "5"), ("keepalives", "1"), ("keepalives_idle", "5"), ("keepalives_interval", "2"),
            ("keepalives_count", "3"), ("tcp_user_timeout", "10000"), ("application_name", "plan-server"),
        ]
        return (defaults.map(\.0) + ["dbname"], defaults.map(\.1) + [conninfo])
    }

    /// The parameters libpq resolved for this connection (`PQconninfo`), by keyword.
    var effectiveParameters: [String: String] {
        guard let handle, let options = PQconninfo(handle) else { return [:] }
        defer { PQconninfoFree(options) }
        return DatabaseAddress.values(of: options)
    }

    /// Whether the connection is currently usable.
    public var isConnected: Bool {
        handle.map { PQstatus($0) == CONNECTION_OK } ?? false
    }

    /// Reconnects when the connection was lost, including an idle connection the server closed
    /// meanwhile (a restart): such a socket is readable while we expect nothing from it.
    /// - Throws: `StoreError.unavailable` when the server still cannot be reached.
    public func ensureConnected() throws(StoreError) {
        if let handle, PQstatus(handle) == CONNECTION_OK {
            var idle = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            // An idle connection expects nothing: anything readable is the server saying goodbye
            // (a termination notice, then EOF), so start over rather than trust it.
            if poll(&idle, 1, 0) > 0 {
                PQfinish(handle)
                self.handle = nil
                events?.connectionLost()
            }
        }
        if !isConnected { try connect() }
    }

    /// A notice from the server. A WARNING is kept for the transaction running: a COMMIT that
    /// waited for a synchronous standby and was cancelled (a cancel request, or a fast shutdown)
    /// still answers success, with a WARNING that the transaction committed locally but may not
    /// have been replicated (PostgreSQL's documented hazard). `transaction` then does not report
    /// success. The severity is read untranslated, so any server language is recognised.
    private func noticed(_ result: OpaquePointer) {
        guard warning == nil,
            PQresultErrorField(result, cs_diag_severity_nonlocalized()).map({ String(cString: $0) }) == "WARNING"
        else { return }
        warning =
            PQresultErrorField(result, cs_diag_message_primary()).map { String(cString: $0) } ?? "a warning"
    }

    /// The libpq socket, for waiting on notifications.
    var socket: Int32 { handle.map { PQsocket($0) } ?? -1 }

    /// The underlying libpq handle, for notification handling inside the module.
    var rawHandle: OpaquePointer? { handle }

    /// Runs one statement (or, without parameters, several separated by semicolons).
    /// - Throws: `StoreError` mapped from the SQLSTATE; `.unavailable` when the connection failed.
    @discardableResult
    public func query(_ sql: String, _ parameters: [String?] = []) throws(StoreError) -> PGResult {
        let values = parameters.map(PGValue.init)
        try PGConnection.refuseNUL(in: values)
        try ensureConnected()
        let result: OpaquePointer?
        if parameters.isEmpty {
            result = PQexec(handle, sql)
        } else {
            let name = try preparedName(for: sql, parameterCount: parameters.count)
            result = withParameters(values) { pointers, lengths, formats in
                PQexecPrepared(handle, name, Int32(values.count), pointers, lengths, formats, 0)
            }
        }
        return try check(result)
    }

    /// Text parameters travel as C strings, which end at the first NUL: a parameter holding U+0000
    /// would be stored cut short, and PostgreSQL `text` cannot hold it anyway (nor an element of
    /// a binary array). Refused before anything is sent; the protocol refuses such strings at
    /// the edge already (`TextPolicy`).
    static func refuseNUL(in values: [PGValue]) throws(StoreError) {
        for value in values where value.holdsNUL {
            throw .invalid("a value holds U+0000 (NUL), which the database cannot store")
        }
    }

    /// The name of the server-side prepared statement for `sql`, preparing it on first use, so
    /// that repeated statements skip parsing and planning.
    private func preparedName(for sql: String, parameterCount: Int) throws(StoreError) -> String {
        if let name = prepared[sql] { return name }
        if prepared.count >= PGConnection.preparedLimit {
            _ = try check(PQexec(handle, "DEALLOCATE ALL"))
            prepared = [:]
        }
        let name = "s\(prepared.count)"
        _ = try check(PQprepare(handle, name, sql, Int32(parameterCount), nil))
        prepared[sql] = name
        return name
    }

    /// Runs the statements in pipeline mode, in one implicit transaction that commits at the end:
    /// one round trip for the whole batch. If any statement fails, none of them takes effect.
    /// - Returns: one result per statement.
    /// - Throws: the first statement's error, mapped from its SQLSTATE.
    public func transaction(_ statements: [PGStatement]) throws(StoreError) -> [PGResult] {
        var untimed: PipelineTiming? = nil
        return try transaction(statements, timing: &untimed)
    }

    /// Runs `statements` as one implicit transaction in one round trip, as `transaction(_:)` does;
    /// with a `timing`, notes in it when they were sent, when the last statement's result came
    /// back and when the commit (with its fsync) was confirmed — for that, the server is asked to
    /// flush the statements' results before it commits at the sync (else they wait in its buffer
    /// for the commit).
    public func transaction(_ statements: [PGStatement], timing: inout PipelineTiming?) throws(StoreError)
        -> [PGResult]
    {
        for statement in statements { try PGConnection.refuseNUL(in: statement.values) }
        try ensureConnected()
        var names: [String] = []
        for statement in statements {
            names.append(try preparedName(for: statement.sql, parameterCount: statement.values.count))
        }
        warning = nil
        guard PQenterPipelineMode(handle) == 1 else { throw connectionError() }
        defer {
            // A pipeline that cannot be left cleanly leaves the connection unusable.
            if let handle, PQexitPipelineMode(handle) != 1 {
                PQfinish(handle)
                self.handle = nil
            }
        }
        for (statement, name) in zip(statements, names) {
            let sent = withParameters(statement.values) { pointers, lengths, formats in
                PQsendQueryPrepared(handle, name, Int32(statement.values.count), pointers, lengths, formats, 0)
            }
            guard sent == 1 else { throw connectionError() }
        }
        if timing != nil { guard PQsendFlushRequest(handle) == 1 else { throw connectionError() } }
        guard PQpipelineSync(handle) == 1 else { throw connectionError() }
        timing?.sent = .now
        var results: [PGResult] = []
        var firstError: StoreError?
        for _ in statements {
            guard let result = PQgetResult(handle) else { throw connectionError() }
            // Each statement's results end with a NULL.
            while let extra = PQgetResult(handle) { PQclear(extra) }
            switch PQresultStatus(result) {
            case PGRES_PIPELINE_ABORTED:
                PQclear(result)
            default:
                do {
                    results.append(try check(result))
                } catch {
                    if firstError == nil { firstError = error }
                }
            }
        }
        timing?.executed = .now
        guard let sync = PQgetResult(handle) else { throw connectionError() }
        timing?.committed = .now
        let syncStatus = PQresultStatus(sync)
        PQclear(sync)
        if let firstError { throw firstError }
        guard syncStatus == PGRES_PIPELINE_SYNC else { throw connectionError() }
        if let warning { throw outcomeUnknown(warning) }
        return results
    }

    /// Runs a statement on the current connection without checking or replacing it first (for
    /// the listener, whose connection carries its LISTEN registration).
    func queryOnCurrentConnection(_ sql: String) throws(StoreError) {
        guard let handle else { throw .unavailable("no connection") }
        _ = try check(PQexec(handle, sql))
    }

    /// Runs read-only statements on one consistent snapshot (REPEATABLE READ), in one round trip.
    /// - Returns: one result per statement.
    public func readOnlySnapshot(_ statements: [PGStatement]) throws(StoreError) -> [PGResult] {
        let opening = [PGStatement("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")]
        let wrapped = opening + statements + [PGStatement("COMMIT")]
        do {
            return Array(try transaction(wrapped).dropFirst(opening.count).dropLast())
        } catch {
            // The explicit block may stay open in its failed state: end it.
            if isConnected { _ = try? query("ROLLBACK") }
            throw error
        }
    }

    /// Turns a libpq result into a `PGResult` or a `StoreError`.
    private func check(_ result: OpaquePointer?) throws(StoreError) -> PGResult {
        guard let result else { throw connectionError() }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_SINGLE_TUPLE:
            return PGResult(result)
        default:
            let sqlState = PQresultErrorField(result, cs_diag_sqlstate()).map { String(cString: $0) } ?? ""
            let message =
                PQresultErrorField(result, cs_diag_message_primary()).map { String(cString: $0) }
                ?? PGConnection.firstLine(String(cString: PQresultErrorMessage(result)))
            PQclear(result)
            throw mapError(sqlState: sqlState, message: message)
        }
    }

    /// The error for a failed call without a result: the connection is lost or in an unknown
    /// state, so it is closed; the next call reconnects.
    private func connectionError() -> StoreError {
        let message = handle.map { String(cString: PQerrorMessage($0)) } ?? "no connection"
        if let handle {
            PQfinish(handle)
            self.handle = nil
            events?.connectionLost()
        }
        return .unavailable(PGConnection.firstLine(message))
    }

    /// A transaction that ended with a WARNING (see `noticed`): it may have committed on this
    /// node only, so its outcome is unknown. `unavailable`, as for a connection lost during the
    /// COMMIT: the client retries with the same id, and the retry is settled through the
    /// decisions table once the commit is replicated (`PlanStore.replicationBarrier`). The
    /// connection goes too (a fast shutdown's WARNING comes with the end of it anyway).
    private func outcomeUnknown(_ warning: String) -> StoreError {
        if let handle {
            PQfinish(handle)
            self.handle = nil
            events?.connectionLost()
        }
        return .unavailable("the outcome is unknown: \(warning)")
    }

    private func mapError(sqlState: String, message: String) -> StoreError {
        // 25006: the node became read-only under this connection (it is a standby after a
        // failover): unavailable, and the connection goes, so that the next finds the primary.
        let readOnly = sqlState == "25006"
        if !isConnected || sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") || sqlState == "53300" || readOnly {
            if let handle, PQstatus(handle) != CONNECTION_OK || readOnly {
                PQfinish(handle)
                self.handle = nil
                events?.connectionLost()
            }
            return .unavailable(message)
        }
        if sqlState == "23505" { return .duplicate(message) }
        if sqlState == "23503" { return .notFound(message) }
        if sqlState == "23514" || sqlState.hasPrefix("22") { return .invalid(message) }
        return .database(sqlState: sqlState, message: message)
    }

    static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: true).first ?? "")
    }
}

/// Calls `body` with NUL-terminated copies of `strings`, valid only during the call.
func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    withParameters(strings.map(PGValue.text)) { pointers, _, _ in body(pointers) }
}

/// When a pipelined transaction (`PGConnection.transaction(_:timing:)`) reached each step: its
/// statements sent, the last statement's result read, the commit confirmed (fsync included).
public struct PipelineTiming: Sendable {
    public var sent: ContinuousClock.Instant?
    public var executed: ContinuousClock.Instant?
    public var committed: ContinuousClock.Instant?

    /// No step reached yet.
    public init() {}
}
