import ChronoSketchCore
import Testing

@testable import PlanServer

/// The hub's inbox: worker results first, everything else in the order posted (no socket, no
/// database, no threads but the test's own).
@Suite("Hub: the inbox's two lanes")
struct HubInboxTests {
    /// What an event is, for comparing: its kind and the version or plan it names.
    static func describe(_ posted: HubInbox.Posted?) -> String {
        switch posted?.event {
        case .committed(let plan, .success(let version))?: "committed \(plan) \(version)"
        case .externalCommit(let plan, let version)?: "announced \(plan ?? "-") \(version)"
        case .tick?: "tick"
        case nil: "end"
        default: "other"
        }
    }

    @Test("a worker's result is taken before the arrivals that queued ahead of it; each lane keeps its order")
    func resultsFirst() async {
        let inbox = HubInbox()
        inbox.post(.externalCommit(plan: "a", version: 1))
        inbox.post(.tick)
        inbox.post(.committed(plan: "a", .success(2)), lane: .results)
        inbox.post(.externalCommit(plan: "a", version: 3))
        inbox.post(.committed(plan: "a", .success(4)), lane: .results)
        inbox.finish()
        var taken: [String] = []
        while let posted = await inbox.next() { taken.append(Self.describe(posted)) }
        #expect(
            taken == ["committed a 2", "committed a 4", "announced a 1", "tick", "announced a 3"])
        #expect(Self.describe(await inbox.next()) == "end")
    }

    @Test("next() waits for a post; after finish() posts are dropped and a waiting next() ends")
    func waitsAndEnds() async {
        let inbox = HubInbox()
        async let first = inbox.next()
        // The post may come before or after next() suspends: either way it is taken.
        inbox.post(.committed(plan: "p", .success(7)), lane: .results)
        #expect(Self.describe(await first) == "committed p 7")
        async let second = inbox.next()
        inbox.finish()
        #expect(Self.describe(await second) == "end")
        inbox.post(.tick)
        #expect(Self.describe(await inbox.next()) == "end")
    }

    @Test("events posted from many threads are each taken once")
    func manyThreads() async {
        let inbox = HubInbox()
        let posters = 4
        let each = 500
        let count = await withTaskGroup(of: Void.self) { group in
            for poster in 0..<posters {
                group.addTask {
                    for index in 0..<each {
                        inbox.post(
                            .externalCommit(plan: "p", version: poster * each + index),
                            lane: index.isMultiple(of: 2) ? .results : .arrivals)
                    }
                }
            }
            var seen = Set<Int>()
            for _ in 0..<(posters * each) {
                if case .externalCommit(_, let version)? = await inbox.next()?.event { seen.insert(version) }
            }
            await group.waitForAll()
            return seen.count
        }
        #expect(count == posters * each)
    }
}
