import ChronoSketchCore
import SystemSupport
import Testing

@testable import PlanServer

/// The hub's inbox: worker results first, everything else in the order posted (no socket, no
/// database). A lost wake-up would block a test: the time limit makes it fail instead.
@Suite("Hub: the inbox's two lanes", .timeLimit(.minutes(1)))
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
    func resultsFirst() {
        let inbox = HubInbox()
        inbox.post(.externalCommit(plan: "a", version: 1))
        inbox.post(.tick)
        inbox.post(.committed(plan: "a", .success(2)), lane: .results)
        inbox.post(.externalCommit(plan: "a", version: 3))
        inbox.post(.committed(plan: "a", .success(4)), lane: .results)
        inbox.finish()
        var taken: [String] = []
        while let posted = inbox.next() { taken.append(Self.describe(posted)) }
        #expect(
            taken == ["committed a 2", "committed a 4", "announced a 1", "tick", "announced a 3"])
        #expect(Self.describe(inbox.next()) == "end")
    }

    @Test("a taking thread gets each post, waiting or not; after finish() posts are dropped and next() ends")
    func waitsAndEnds() throws {
        let inbox = HubInbox()
        let taken = Locked<[String]>([])
        let taker = try SystemThread {
            for _ in 0..<3 {
                let posted = inbox.next()
                taken.withLock { $0.append(Self.describe(posted)) }
            }
        }
        // The taker may block before or after each post: either way it takes it.
        inbox.post(.committed(plan: "p", .success(7)), lane: .results)
        inbox.post(.tick)
        inbox.finish()
        inbox.post(.committed(plan: "p", .success(8)), lane: .results)
        taker.join()
        #expect(taken.withLock { $0 } == ["committed p 7", "tick", "end"])
        #expect(Self.describe(inbox.next()) == "end", "finished and empty: every later call ends at once")
    }

    @Test("events posted from many threads are each taken once")
    func manyThreads() throws {
        let inbox = HubInbox()
        let posters = 4
        let each = 500
        let threads = try (0..<posters).map { poster in
            try SystemThread {
                for index in 0..<each {
                    inbox.post(
                        .externalCommit(plan: "p", version: poster * each + index),
                        lane: index.isMultiple(of: 2) ? .results : .arrivals)
                }
            }
        }
        var seen = Set<Int>()
        for _ in 0..<(posters * each) {
            if case .externalCommit(_, let version)? = inbox.next()?.event { seen.insert(version) }
        }
        for thread in threads { thread.join() }
        #expect(seen.count == posters * each)
        inbox.finish()
        #expect(Self.describe(inbox.next()) == "end", "nothing left over")
    }
}
