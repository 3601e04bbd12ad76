import CommandLineOptions
// Revocation timing (issue 14 §4, protocol §11): SESSIONS sessions of one user, spread round-robin
// over the given server processes. Once every session is welcomed it prints `ready N` on stderr
// and waits until each is closed by the server (at most TIMEOUT s), then prints one JSON object:
// the sessions, how many were welcomed, closed and closed with 1008, and each close's wall time
// (unix ms), which `ops/bench revoke` sets against the time of `plan-server user revoke`.
//
// Usage: revoke-bench --server URL[,URL…] --token T [--sessions N] [--timeout S]
import Glibc
import PlanClient
import Synchronization
import SystemSupport

struct Options {
    var servers: [String] = []
    var token = ""
    var sessions = 200
    var timeout = 30.0

    /// Reads the command line with the project's one parser; a bad one ends the program.
    init(_ arguments: [String]) {
        do {
            let parsed = try ParsedArguments(
                Array(arguments.dropFirst()), valueOptions: ["--server", "--token", "--sessions", "--timeout"])
            try parsed.noPositionals(after: 0)
            servers = (parsed.value("--server") ?? "").split(separator: ",").map(String.init)
            token = parsed.value("--token") ?? ""
            sessions = try parsed.number("--sessions", atLeast: 1) ?? sessions
            timeout = try parsed.number("--timeout", atLeast: 0.1) ?? timeout
        } catch {
            fatalError("revoke-bench: \(error)")
        }
        guard !servers.isEmpty, !token.isEmpty else {
            fatalError("usage: revoke-bench --server URL[,URL…] --token T [--sessions N] [--timeout S]")
        }
    }
}

/// What the sessions saw: welcomes, and each close's wall time and code.
final class Tally: Sendable {
    let welcomed = Atomic<Int>(0)
    let closes = Locked<[(unixMilliseconds: Double, code: UInt16?)]>([])

    var closed: Int { closes.withLock { $0.count } }

    /// Follows one session's events until it is closed.
    func follow(_ connection: PlanConnection) async {
        for await event in connection.events {
            switch event {
            case .welcome:
                welcomed.add(1, ordering: .relaxed)
            case .disconnected(let code, _, _):
                let now = ProcessIO.unixSeconds() * 1000
                closes.withLock { $0.append((now, code)) }
                return
            case .message:
                break
            }
        }
    }
}

/// Polls `condition` every 5 ms until it holds or `seconds` pass.
/// - Returns: whether it held.
func waitUntil(_ seconds: Double, _ condition: () -> Bool) async -> Bool {
    let deadline = ProcessIO.monotonicNanoseconds() + UInt64(seconds * 1e9)
    while !condition() {
        if ProcessIO.monotonicNanoseconds() > deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

let options = Options(CommandLine.arguments)
let transport = try ClientTransport()
let tally = Tally()
let connections = try (0..<options.sessions).map { index in
    try PlanConnection(
        options: PlanConnection.Options(
            url: options.servers[index % options.servers.count], token: options.token, clientName: "revoke-bench",
            reconnect: false),
        transport: transport)
}
let followers = connections.map { connection in Task { await tally.follow(connection) } }
for connection in connections { connection.start() }
if await waitUntil(options.timeout, { tally.welcomed.load(ordering: .relaxed) == options.sessions }) {
    ProcessIO.printError("ready \(options.sessions)")
} else {
    ProcessIO.printError("only \(tally.welcomed.load(ordering: .relaxed)) of \(options.sessions) sessions welcomed")
}
_ = await waitUntil(options.timeout, { tally.closed == options.sessions })
let closes = tally.closes.withLock { $0 }
let times = closes.map { String(Int($0.unixMilliseconds)) }.joined(separator: ",")
ProcessIO.print(
    #"{"sessions":\#(options.sessions),"welcomed":\#(tally.welcomed.load(ordering: .relaxed)),"#
        + #""closed":\#(closes.count),"closed_1008":\#(closes.filter { $0.code == 1008 }.count),"#
        + #""close_unix_ms":[\#(times)]}"#)
for follower in followers { follower.cancel() }
withExtendedLifetime((transport, connections)) { exit(0) }
