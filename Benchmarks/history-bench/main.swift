// The history's read costs, measured as a client sees them over one connection: `subscribe`
// (the current snapshot) beside `fetch` at random versions of the log, and `history` pages of 50
// at random points. Every time is from the request's send to the last byte of its answer (the
// answer is not decoded). Prints one JSON object. Run it through `ops/bench-history`.
//
// Usage: history-bench --server URL --token T --plan P [--samples N] [--seed S]
import ChronoSketchCore
import CommandLineOptions
import Glibc
import PlanClient
import PlanProtocol
import SystemSupport

struct Options {
    var server = ""
    var token = ""
    var plan = ""
    var samples = 200
    var seed: UInt64 = 15

    /// Reads the command line with the project's one parser; a bad one ends the program.
    init(_ arguments: [String]) {
        do {
            let parsed = try ParsedArguments(
                Array(arguments.dropFirst()), valueOptions: ["--server", "--token", "--plan", "--samples", "--seed"])
            try parsed.noPositionals(after: 0)
            server = parsed.value("--server") ?? ""
            token = parsed.value("--token") ?? ""
            plan = parsed.value("--plan") ?? ""
            samples = try parsed.number("--samples", atLeast: 1) ?? samples
            seed = try parsed.number("--seed", atLeast: 0) ?? seed
        } catch {
            fatalError("history-bench: \(error)")
        }
    }
}

/// One connection whose whole messages are kept until someone takes the one with a ref.
final class Connection: Sendable {
    struct State {
        var messages: [(ref: String?, bytes: [UInt8], at: ContinuousClock.Instant)] = []
        var closed = false
    }

    let transport: ClientTransport
    let id: UInt64
    let state = Locked(State())

    init(_ transport: ClientTransport, url: String, token: String) {
        self.transport = transport
        id = transport.reserveConnectionID()
        let id = self.id
        transport.connect(id, to: ClientTransport.Endpoint(url: url)!) { [self] event in
            switch event {
            case .opened:
                transport.send(ClientMessage.hello(token: token, client: "history-bench/1").bytes, on: id)
            case .message(let bytes):
                let now = ContinuousClock.now
                let ref = Connection.ref(in: bytes)
                state.withLock { $0.messages.append((ref, bytes, now)) }
            case .closed:
                state.withLock { $0.closed = true }
            }
        }
    }

    /// The value of the last `"ref":"…"` of a message (direct answers end with it).
    static func ref(in bytes: [UInt8]) -> String? {
        let pattern = Array(#""ref":""#.utf8)
        guard bytes.count > pattern.count + 2 else { return nil }
        // Look from the end: the ref is the last member, a snapshot's body may hold anything.
        var index = bytes.count - pattern.count
        let floor = max(0, bytes.count - 256)
        while index >= floor {
            if Array(bytes[index..<index + pattern.count]) == pattern {
                let start = index + pattern.count
                guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
                return String(decoding: bytes[start..<end], as: UTF8.self)
            }
            index -= 1
        }
        return nil
    }

    func send(_ message: ClientMessage) { transport.send(message.bytes, on: id) }

    /// Waits for the message answering `ref` (or, with `ref` nil, any message containing
    /// `needle`); returns its bytes and arrival.
    func take(ref: String?, containing needle: String = "", within seconds: Double = 60) -> (
        [UInt8], ContinuousClock.Instant
    ) {
        let clock = ContinuousClock()
        let start = clock.now
        let pattern = Array(needle.utf8)
        while clock.now - start < .seconds(seconds) {
            let found = state.withLock { state -> ([UInt8], ContinuousClock.Instant)? in
                guard
                    let index = state.messages.firstIndex(where: { message in
                        ref.map { message.ref == $0 } ?? Connection.contains(message.bytes, pattern)
                    })
                else { return nil }
                let message = state.messages.remove(at: index)
                return (message.bytes, message.at)
            }
            if let found { return found }
            if state.withLock({ $0.closed }) { fatalError("the server closed the connection") }
            usleep(20)
        }
        fatalError("no answer to \(ref ?? needle) within \(seconds) s")
    }

    static func contains(_ bytes: [UInt8], _ pattern: [UInt8]) -> Bool {
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return pattern.isEmpty }
        for index in 0...(bytes.count - pattern.count) where bytes[index] == pattern[0] {
            if Array(bytes[index..<index + pattern.count]) == pattern { return true }
        }
        return false
    }

    /// Sends `message` and waits for its answer: milliseconds and the answer's size.
    func roundTrip(_ message: ClientMessage) -> (milliseconds: Double, bytes: Int) {
        let sent = ContinuousClock.now
        send(message)
        let (bytes, at) = take(ref: message.ref)
        if Connection.contains(bytes, Array(#""type":"error""#.utf8)) {
            fatalError("\(message.typeName) refused: \(String(decoding: bytes.prefix(300), as: UTF8.self))")
        }
        return ((at - sent).inSeconds * 1000, bytes.count)
    }
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, max(Int((Double(sorted.count) * fraction).rounded(.up)) - 1, 0))]
}

func figures(_ name: String, _ samples: [Double]) -> String {
    let sorted = samples.sorted()
    func format(_ value: Double) -> String { String(Double(Int(value * 100)) / 100) }
    return
        #""\#(name)_p50_ms":\#(format(percentile(sorted, 0.5))),"\#(name)_p99_ms":\#(format(percentile(sorted, 0.99)))"#
}

let options = Options(CommandLine.arguments)
let transport = try ClientTransport()
let connection = Connection(transport, url: options.server, token: options.token)
_ = connection.take(ref: nil, containing: #""type":"welcome""#)

// The current version and the log's start, from a first subscription and a first history page.
let first = connection.roundTrip(.subscribe(plan: options.plan, ref: "s0"))
let (current, logStart) = { () -> (Int, Int) in
    connection.send(.history(plan: options.plan, before: nil, limit: 1, ref: "h0"))
    let (bytes, _) = connection.take(ref: "h0")
    guard case .history(_, let entries, let logStart, _, _) = try? ServerMessage.decode(bytes) else {
        fatalError("no history")
    }
    return (entries.first?.version ?? 0, logStart)
}()
connection.send(.unsubscribe(plan: options.plan))

var generator = SplitMix64(seed: options.seed)
var subscribes: [Double] = []
var fetches: [Double] = []
var histories: [Double] = []
var fetchBytes = 0
for index in 1...options.samples {
    subscribes.append(connection.roundTrip(.subscribe(plan: options.plan, ref: "s\(index)")).milliseconds)
    connection.send(.unsubscribe(plan: options.plan))
    let version = Int.random(in: logStart...current, using: &generator)
    let fetch = connection.roundTrip(.fetch(plan: options.plan, version: version, ref: "f\(index)"))
    fetches.append(fetch.milliseconds)
    fetchBytes = max(fetchBytes, fetch.bytes)
    let before = Int.random(in: (logStart + 1)...(current + 1), using: &generator)
    histories.append(
        connection.roundTrip(.history(plan: options.plan, before: before, limit: 50, ref: "h\(index)")).milliseconds)
}
let ratio = percentile(fetches.sorted(), 0.5) / max(percentile(subscribes.sorted(), 0.5), 0.001)
print(
    "{" + #""version":\#(current),"log_start":\#(logStart),"samples":\#(options.samples),"#
        + #""snapshot_bytes":\#(first.bytes),"fetch_max_bytes":\#(fetchBytes),"first_subscribe_ms":\#(Int(first.milliseconds)),"#
        + [figures("subscribe", subscribes), figures("fetch", fetches), figures("history50", histories)].joined(
            separator: ",")
        + #","fetch_to_subscribe_p50":\#(Double(Int(ratio * 100)) / 100)}"#)
withExtendedLifetime(transport) { exit(0) }
