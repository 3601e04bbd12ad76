// One connection floods, another measures: a normal client's query round trips (p50, p99, max)
// on a quiet plan, first alone, then while a second connection sends FLOOD watch or query
// requests for a large timeline page. Prints one JSON object. Run it through `ops/bench-flood`.
//
// Usage: flood-bench --server URL --token T --plan P --calm C [--flood N] [--kind watch|query]
//        [--assignments N] [--quiet-seconds S] [--seconds S]
import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import SystemSupport

struct Options {
    var server = ""
    var token = ""
    var plan = ""
    var calm = ""
    var flood = 2000
    var kind = "watch"
    /// Assignments booked on one resource for the flooded page, added in entries of 1,000.
    var assignments = 15_000
    var quietSeconds = 3.0
    var seconds = 20.0

    init(_ arguments: [String]) {
        var index = 1
        while index + 1 < arguments.count {
            let value = arguments[index + 1]
            switch arguments[index] {
            case "--server": server = value
            case "--token": token = value
            case "--plan": plan = value
            case "--calm": calm = value
            case "--flood": flood = Int(value) ?? flood
            case "--kind": kind = value
            case "--assignments": assignments = Int(value) ?? assignments
            case "--quiet-seconds": quietSeconds = Double(value) ?? quietSeconds
            case "--seconds": seconds = Double(value) ?? seconds
            default: fatalError("unknown option \(arguments[index])")
            }
            index += 2
        }
    }
}

/// One raw connection: frames in, counted and kept for whoever waits.
final class Connection: Sendable {
    struct State {
        var frames: [[UInt8]] = []
        var closedWith: UInt16?? = .none
        var answers = 0
        /// When the welcome arrived.
        var welcomed: ContinuousClock.Instant?
        /// Answers with a ref `n<number>` and when they arrived, not yet collected.
        var answered: [(Int, ContinuousClock.Instant)] = []
    }

    let transport: ClientTransport
    let id: UInt64
    let state = Locked(State())
    let keepFrames: Bool
    let created = ContinuousClock.now

    init(_ transport: ClientTransport, url: String, token: String, keepFrames: Bool) {
        self.transport = transport
        self.keepFrames = keepFrames
        id = transport.reserveConnectionID()
        let id = self.id
        transport.connect(id, to: ClientTransport.Endpoint(url: url)!) { [self] event in
            switch event {
            case .opened:
                transport.send(ClientMessage.hello(token: token, client: "flood-bench/1").bytes, on: id)
            case .message(let bytes):
                let answers =
                    Connection.count(#""type":"page""#, in: bytes) + Connection.count(#""type":"error""#, in: bytes)
                let welcome = Connection.count(#""type":"welcome""#, in: bytes) > 0
                let refs = Connection.numberedRefs(in: bytes)
                let now = ContinuousClock.now
                state.withLock { state in
                    state.answered += refs.map { ($0, now) }
                    state.answers += answers
                    if welcome, state.welcomed == nil { state.welcomed = .now }
                    if keepFrames { state.frames.append(bytes) }
                }
            case .closed(let code, _):
                state.withLock { $0.closedWith = .some(code) }
            }
        }
    }

    /// How often `needle` occurs in `bytes`.
    static func count(_ needle: String, in bytes: [UInt8]) -> Int {
        let pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count else { return 0 }
        var found = 0
        var index = 0
        while index <= bytes.count - pattern.count {
            if bytes[index] == pattern[0], Array(bytes[index..<index + pattern.count]) == pattern {
                found += 1
                index += pattern.count
            } else {
                index += 1
            }
        }
        return found
    }

    /// The numbers of the refs `"ref":"n<number>"` in a frame (one message or an array).
    static func numberedRefs(in bytes: [UInt8]) -> [Int] {
        let pattern = Array(#""ref":"n"#.utf8)
        var numbers: [Int] = []
        var index = 0
        while index + pattern.count <= bytes.count {
            guard bytes[index] == pattern[0], Array(bytes[index..<index + pattern.count]) == pattern else {
                index += 1
                continue
            }
            index += pattern.count
            var number = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                number = number * 10 + Int(bytes[index] - 48)
                index += 1
            }
            numbers.append(number)
        }
        return numbers
    }

    func send(_ message: ClientMessage) { transport.send(message.bytes, on: id) }

    /// Waits until a kept frame contains `needle`; returns the seconds waited, nil on timeout.
    func wait(for needle: String, within seconds: Double) -> Double? {
        let clock = ContinuousClock()
        let start = clock.now
        let pattern = needle
        while clock.now - start < .milliseconds(Int(seconds * 1000)) {
            let hit = state.withLock { state -> Bool in
                guard let index = state.frames.firstIndex(where: { Connection.count(pattern, in: $0) > 0 }) else {
                    return false
                }
                state.frames.removeFirst(index + 1)
                return true
            }
            if hit { return (clock.now - start).inSeconds }
            usleep(50)
        }
        return nil
    }

}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
}

/// Query round trips on the calm plan for `seconds`, one sent every 10 ms whether or not the
/// earlier ones were answered (open loop: a stall shows in every request it delays, not just
/// one); latencies in milliseconds, sorted. Requests still unanswered at the end count with the
/// time they have waited.
func roundTrips(_ client: Connection, calm: String, seconds: Double, from first: Int) -> [Double] {
    let query = try! TimelineQuery(
        start: LocalDateTime("2026-09-07T00:00"), end: LocalDateTime("2026-09-14T00:00"), resourceIDs: ["room-aurora"])
    let clock = ContinuousClock()
    let start = clock.now
    var sent: [Int: ContinuousClock.Instant] = [:]
    var latencies: [Double] = []
    var number = first
    func collect() {
        let answered = client.state.withLock { state -> [(Int, ContinuousClock.Instant)] in
            defer { state.answered = [] }
            return state.answered
        }
        for (ref, at) in answered {
            guard let sentAt = sent.removeValue(forKey: ref) else { continue }
            latencies.append((at - sentAt).inSeconds * 1000)
        }
    }
    while (clock.now - start).inSeconds < seconds {
        sent[number] = clock.now
        client.send(.query(plan: calm, query: query, ref: "n\(number)"))
        number += 1
        usleep(10_000)
        collect()
    }
    // Give the last ones a moment, then count what is still waiting as waited so far.
    for _ in 0..<200 where !sent.isEmpty {
        usleep(10_000)
        collect()
    }
    let end = clock.now
    latencies += sent.values.map { (end - $0).inSeconds * 1000 }
    return latencies.sorted()
}

func summary(_ name: String, _ sorted: [Double]) -> String {
    func format(_ value: Double) -> String { String(Double(Int(value * 100)) / 100) }
    return #""\#(name)":{"samples":\#(sorted.count),"p50_ms":\#(format(percentile(sorted, 0.5))),"#
        + #""p99_ms":\#(format(percentile(sorted, 0.99))),"max_ms":\#(format(sorted.last ?? 0))}"#
}

/// Books `count` assignments on room-aurora in one hour, in entries of at most 1,000 assignments.
func setUp(_ editor: Connection, plan: String, count: Int) {
    var added = 0
    var entryNumber = 0
    while added < count {
        let size = min(1000, count - added)
        let entryID = "flood-\(entryNumber)"
        let entry = try! TimelineEntry(
            id: entryID, title: "Booked", start: LocalDateTime("2026-09-09T09:00"),
            end: LocalDateTime("2026-09-09T10:00"))
        let assignments = (0..<size).map {
            try! TimelineAssignment(id: "\(entryID)-\($0)", entryID: entryID, resourceID: "room-aurora")
        }
        editor.send(
            .propose(
                id: "setup-\(entryNumber)", plan: plan, baseVersion: 0,
                operation: .timelineAdd(entry: entry, assignments: assignments)))
        guard editor.wait(for: #""id":"setup-\#(entryNumber)""#, within: 60) != nil else {
            fatalError("no answer to setup-\(entryNumber)")
        }
        added += size
        entryNumber += 1
    }
}

func main() {
    let options = Options(CommandLine.arguments)
    let transport = try! ClientTransport()
    let editor = Connection(transport, url: options.server, token: options.token, keepFrames: true)
    guard editor.wait(for: #""type":"welcome""#, within: 10) != nil else { fatalError("no welcome") }
    setUp(editor, plan: options.plan, count: options.assignments)

    let normal = Connection(transport, url: options.server, token: options.token, keepFrames: true)
    guard normal.wait(for: #""type":"welcome""#, within: 10) != nil else { fatalError("no welcome") }
    let quiet = roundTrips(normal, calm: options.calm, seconds: options.quietSeconds, from: 0)

    let flooder = Connection(transport, url: options.server, token: options.token, keepFrames: false)
    usleep(300_000)  // its welcome
    let query = try! TimelineQuery(
        start: LocalDateTime("2026-09-07T00:00"), end: LocalDateTime("2026-09-14T00:00"), resourceIDs: ["room-aurora"])
    let clock = ContinuousClock()
    let floodStart = clock.now
    for index in 0..<options.flood {
        flooder.send(
            options.kind == "watch"
                ? .watch(plan: options.plan, query: query, watch: "w\(index)", ref: "f\(index)")
                : .query(plan: options.plan, query: query, ref: "f\(index)"))
    }
    // A newcomer during the flood: how long until its welcome?
    usleep(100_000)
    let newcomer = Connection(transport, url: options.server, token: options.token, keepFrames: true)
    let during = roundTrips(normal, calm: options.calm, seconds: options.seconds, from: 1_000_000)
    for _ in 0..<1200 where newcomer.state.withLock({ $0.welcomed == nil }) { usleep(100_000) }
    let welcome = newcomer.state.withLock { $0.welcomed }.map { ($0 - newcomer.created).inSeconds } ?? -1
    let (answers, closed) = flooder.state.withLock { ($0.answers, $0.closedWith) }
    let closedText = closed.map { code in code.map(String.init) ?? "null" } ?? "open"
    print(
        "{" + summary("quiet", quiet) + "," + summary("flood", during)
            + #","newcomer_welcome_ms":\#(Int(welcome * 1000)),"flood_requests":\#(options.flood),"#
            + #""flood_kind":"\#(options.kind)","flood_answers":\#(answers),"flooder_closed":"\#(closedText)","#
            + #""elapsed_s":\#(Int((clock.now - floodStart).inSeconds))}"#)
    transport.stop()
}

main()
