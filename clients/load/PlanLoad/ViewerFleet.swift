import ChronoSketchCore
import Glibc
import PlanClient
import PlanProtocol
import Synchronization

/// Many subscribed viewers on one client transport. Per received frame a viewer does only a
/// little byte scanning: the version of each `confirmed` (for gaps) and the send timestamp the
/// editor put into the task title (for fan-out latency). A running hash of the confirmed stream
/// per viewer is compared at the end: every viewer must have seen the same stream.
final class ViewerFleet: Sendable {
    /// State only the client service thread touches (all viewer callbacks run there).
    final class Tallies: @unchecked Sendable {
        var lastVersion: [Int]
        var streamHash: [UInt64]
        var gaps = 0
        var deliveries = 0
        var latencies: [Double] = []
        var subscribed = 0
        var closed = 0

        init(count: Int) {
            lastVersion = [Int](repeating: -1, count: count)
            streamHash = [UInt64](repeating: 0xcbf2_9ce4_8422_2325, count: count)
            latencies.reserveCapacity(1 << 20)
        }
    }

    let tallies: Tallies
    let subscribedCount = Atomic<Int>(0)
    let count: Int

    init(count: Int) {
        self.count = count
        tallies = Tallies(count: count)
    }

    /// Connects every viewer and subscribes it.
    func start(configuration: LoadConfiguration, transport: ClientTransport, endpoint: ClientTransport.Endpoint) {
        let hello = ClientMessage.hello(token: configuration.token, client: "plan-load/viewer").bytes
        let subscribe = ClientMessage.subscribe(plan: configuration.plan).bytes
        for index in 0..<count {
            let id = transport.reserveConnectionID()
            transport.connect(id, to: endpoint) { [self] event in
                switch event {
                case .opened:
                    transport.send(hello, on: id)
                    transport.send(subscribe, on: id)
                case .message(let bytes):
                    self.receive(bytes, viewer: index)
                case .closed:
                    self.tallies.closed += 1
                }
            }
        }
    }

    private func receive(_ bytes: [UInt8], viewer: Int) {
        let now = monotonicNanoseconds()
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while let found = find(Array("\"type\":\"".utf8), in: buffer, from: index) {
                index = found
                if starts(buffer, at: found, with: Array("\"type\":\"snapshot\"".utf8)) {
                    if let version = number(after: Array("\"version\":".utf8), in: buffer, from: found) {
                        tallies.lastVersion[viewer] = version
                    }
                    subscribedCount.wrappingAdd(1, ordering: .relaxed)
                } else if starts(buffer, at: found, with: Array("\"type\":\"confirmed\"".utf8)) {
                    guard let version = number(after: Array("\"version\":".utf8), in: buffer, from: found) else {
                        continue
                    }
                    if tallies.lastVersion[viewer] >= 0, version != tallies.lastVersion[viewer] + 1 {
                        tallies.gaps += 1
                    }
                    tallies.lastVersion[viewer] = version
                    tallies.streamHash[viewer] = (tallies.streamHash[viewer] ^ UInt64(version)) &* 0x100_0000_01b3
                    tallies.deliveries += 1
                    if let sent = number(after: Array("sent=".utf8), in: buffer, from: found) {
                        tallies.latencies.append(Double(now - UInt64(sent)) / 1e6)
                    }
                }
                index += 8
            }
        }
    }
}

/// Nanoseconds of CLOCK_MONOTONIC, comparable between processes on one machine.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

func find(_ needle: [UInt8], in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard needle.count <= buffer.count else { return nil }
    var index = start
    while index + needle.count <= buffer.count {
        if buffer[index] == needle[0], starts(buffer, at: index, with: needle) { return index }
        index += 1
    }
    return nil
}

func starts(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int, with prefix: [UInt8]) -> Bool {
    guard index + prefix.count <= buffer.count else { return false }
    for offset in 0..<prefix.count where buffer[index + offset] != prefix[offset] { return false }
    return true
}

/// The integer right after the first `key` at or after `start`.
func number(after key: [UInt8], in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard let found = find(key, in: buffer, from: start) else { return nil }
    var index = found + key.count
    var value = 0
    var digits = 0
    while index < buffer.count, buffer[index] >= 48, buffer[index] <= 57 {
        value = value * 10 + Int(buffer[index] - 48)
        digits += 1
        index += 1
    }
    return digits > 0 ? value : nil
}
