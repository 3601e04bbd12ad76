import ChronoSketchCore
import PlanProtocol
import PlanStore
import Testing
import WebSocketServer
import WebSocketWire

@testable import PlanServer

/// Resuming under every interleaving a seed can make: subscribers resume from random versions
/// (from memory, or through log reads that finish in any order and may be kept in memory), while
/// versions commit and subscribers leave. Whatever happens, each subscriber hears every version
/// after the one it resumed from exactly once and in order, then `resumed` at the version it has
/// reached, then the live stream without a gap.
@Suite("Plan owner: resuming, randomized")
struct ResumeRandomizedTests {
    typealias F = OwnerFixture

    /// What one member heard: confirmed versions and `resumed`, in order.
    struct Heard {
        let since: Int
        var versions: [Int] = []
        var resumedAt: Int?
    }

    /// A log read the owner asked for and that has not come back yet.
    struct Read {
        let member: UInt64
        let since: Int
        let limit: Int
    }

    @Test("every subscriber hears each version after its own exactly once, in order", arguments: 0..<40)
    func resumes(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let owner = F.owner()  // version 5; the log holds 1…5, memory starts empty at 6
        var title = "a"
        var heard: [UInt64: Heard] = [:]
        var reads: [Read] = []
        var nextMember: UInt64 = 10
        func take(_ actions: [HubAction]) throws {
            for action in actions {
                let (buffer, targets): (OutgoingBuffer, [ConnectionID])
                switch action {
                case .send(let one, let connection): (buffer, targets) = (one, [connection])
                case .broadcast(let one, let connections): (buffer, targets) = (one, connections)
                case .run(.readLog(_, let since, let limit?, .resume(let connection, _))):
                    reads.append(Read(member: connection.rawValue, since: since, limit: limit))
                    continue
                default: continue
                }
                let text = ActionLines.message(buffer) ?? ""
                for target in targets where heard[target.rawValue] != nil {
                    let parts = text.split(separator: " ")
                    guard parts.count >= 2, let version = Int(parts[1]) else { continue }
                    if parts[0] == "confirmed" { heard[target.rawValue]!.versions.append(version) }
                    if parts[0] == "resumed" { heard[target.rawValue]!.resumedAt = version }
                }
            }
        }
        for _ in 0..<60 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<3:
                let next = "a\(owner.version + 1)"
                _ = owner.propose(F.origin("p\(owner.version + 1)"), F.rename("a", from: title, to: next))
                try take(owner.committed(.success(owner.version + 1), now: F.start))
                title = next
            case 3..<7:
                let member = nextMember
                nextMember += 1
                let since = Int.random(in: 0...owner.version, using: &random)
                heard[member] = Heard(since: since)
                try take(owner.subscribe(F.member(member), since: since, ref: nil).0)
            case 7..<9 where !reads.isEmpty:
                let read = reads.remove(at: Int.random(in: 0..<reads.count, using: &random))
                let rows = (read.since + 1)...(read.since + read.limit)
                let log = rows.map { F.logged($0, "o\($0)", rename: "a", from: "a", to: "a") }
                try take(
                    owner.resumeRead(
                        F.member(read.member), since: read.since, ref: nil,
                        .success(.mutations(log, currentVersion: owner.version))))
            default:
                // A subscriber leaves (with its read, if any: the hub drops a read of a gone session).
                guard let member = heard.keys.sorted().randomElement(using: &random) else { continue }
                heard[member] = nil
                reads.removeAll { $0.member == member }
                _ = owner.disconnected(ConnectionID(member), watches: [])
            }
        }
        for (member, record) in heard where !reads.contains(where: { $0.member == member }) {
            let expected = Array(stride(from: record.since + 1, through: owner.version, by: 1))
            #expect(record.versions == expected, "seed \(seed), member \(member) from \(record.since)")
            #expect(record.resumedAt != nil, "seed \(seed), member \(member) never heard resumed")
        }
    }
}
