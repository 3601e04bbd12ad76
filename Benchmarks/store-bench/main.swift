// Measures PlanStore against a real PostgreSQL (DATABASE_URL): committed single-task edits per
// second on one plan with batches of 1, 16 and 128 mutations per transaction, and the load time
// of a 100,000-task plan. Prints one JSON object. Run it through `ops/bench-store`.
import BenchSupport
import ChronoSketchCore
import Glibc
import PlanProtocol
import PlanStore

func run() throws {
    guard let url = getenv("DATABASE_URL").map({ String(cString: $0) }) else {
        fatalError("DATABASE_URL is not set")
    }
    let seconds = Double(getenv("BENCH_SECONDS").map { String(cString: $0) } ?? "") ?? 8
    let store = PlanStore(conninfo: url, connections: 1)
    try store.migrate(directory: Migrator.defaultDirectory(environment: [:]))
    let clock = ContinuousClock()
    var random = SplitMix64(seed: 7)

    // One plan of 10,000 tasks for the edits.
    let (smallJSON, _) = PlanGenerator.json(tasks: 10_000, dependencies: 2_000, random: &random)
    let small = try PlanGenerator.collection(from: smallJSON)
    let editPlan = "bench-edits-\(UInt32.random(in: 0...UInt32.max))"
    try store.createPlan(id: editPlan, document: PlanDocument(title: "edits", state: PlanState(tasks: small)))
    var state = PlanState(tasks: small)
    var version = 0
    let activityIDs = small.tasks.filter { $0.progress != nil }.map(\.id)
    var proposalNumber = 0

    func editsPerSecond(batch: Int) throws -> Double {
        var committed = 0
        let start = clock.now
        while BenchClock.milliseconds(clock.now - start) < seconds * 1000 {
            var mutations: [CommittedMutation] = []
            while mutations.count < batch {
                let previous = state.tasks[activityIDs.randomElement(using: &random)!]!
                guard case .activity(let schedule, let progress) = previous.kind else { continue }
                let operation = PlanOperation.replace(
                    previous: previous,
                    proposed: previous.with(
                        kind: .activity(schedule: schedule, progress: progress == 100 ? 0 : progress + 1)))
                let change = try state.apply(operation)
                proposalNumber += 1
                // The same `changes` the server logs (the task and every summary above it).
                mutations.append(
                    CommittedMutation(
                        proposalID: "b\(proposalNumber)", user: "bench", operation: operation, change: change,
                        changesJSON: PlanChanges(after: state, change: change).json))
            }
            version = try store.commit(plan: editPlan, baseVersion: version, mutations: mutations)
            committed += mutations.count
        }
        return Double(committed) / (BenchClock.milliseconds(clock.now - start) / 1000)
    }

    let batch1 = try editsPerSecond(batch: 1)
    let batch16 = try editsPerSecond(batch: 16)
    let batch128 = try editsPerSecond(batch: 128)

    // Load a 100,000-task plan (5 levels of groups, 50,000 dependencies).
    let (bigJSON, _) = PlanGenerator.json(tasks: 100_000, dependencies: 50_000, random: &random)
    let big = try PlanGenerator.collection(from: bigJSON)
    let bigPlan = "bench-load-\(UInt32.random(in: 0...UInt32.max))"
    let createTime = try clock.measure {
        try store.createPlan(id: bigPlan, document: PlanDocument(title: "big", state: PlanState(tasks: big)))
    }
    var loaded: StoredPlan?
    _ = try store.loadPlan(bigPlan)  // warm the cache, as a running server would have it
    let loadTime = try clock.measure { loaded = try store.loadPlan(bigPlan) }
    precondition(loaded?.document.state.tasks == big, "the loaded plan differs from the created one")

    print(
        BenchClock.jsonObject([
            ("edits_per_s_batch1", batch1), ("edits_per_s_batch16", batch16), ("edits_per_s_batch128", batch128),
            ("create_100k_ms", BenchClock.milliseconds(createTime)),
            ("load_100k_ms", BenchClock.milliseconds(loadTime)),
        ]))
}

try run()
