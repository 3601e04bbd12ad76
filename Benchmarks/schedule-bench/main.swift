// Measures automatic scheduling (scheduling.md §9) on a generated plan of 100,000 tasks and
// 50,000 dependencies, Monday to Friday with holidays; prints one JSON object (graph_at_load_ms: the
// dependency graph every plan builds when it loads, outside the switch). Run it through
// `ops/bench-schedule` (release build).
import BenchSupport
import ChronoSketchCore
import Glibc

let taskCount = 100_000
let dependencyCount = 50_000
let leafEdits = 2_000
let chainLength = 10_000
/// How often the chain's head is moved (the figure is the median; SCHEDULE_BENCH_CHAIN_MOVES
/// raises it, for a profiler).
let chainMoves = getenv("SCHEDULE_BENCH_CHAIN_MOVES").flatMap { Int(String(cString: $0)) } ?? 5

func run() throws {
    let clock = ContinuousClock()
    var random = SplitMix64(seed: 29)
    let (json, leafIDs) = PlanGenerator.json(tasks: taskCount, dependencies: dependencyCount, random: &random)
    let collection = try PlanGenerator.collection(from: json)
    let holidays = (2026...2028).flatMap { year in
        ["01-01", "05-01", "12-25", "12-26"].map { try! CivilDate("\(year)-\($0)") }
    }
    let settings = PlanSettings(
        scheduling: .automatic, calendar: try PlanCalendar(workingDays: [1, 2, 3, 4, 5], holidays: holidays))

    // The dependency graph every plan state keeps, built once when the plan loads.
    var graphed = collection
    let graphTime = clock.measure { graphed.keepRanks() }

    // Switching to automatic settles the whole plan in one version.
    var state = PlanState(tasks: graphed)
    let switchStart = clock.now
    let switched = try state.apply(.settingsReplace(previous: .default, proposed: settings))
    let switchTime = clock.now - switchStart
    let switchPushed = switched.cascade?.count ?? 0
    // The server judges this on a worker and, when nothing was judged in between, takes the
    // worker's result as the confirmed data; otherwise the hub applies the op again with its
    // cascade as data, which this measures.
    var confirmed = PlanState(tasks: graphed)
    let publishTime = try clock.measure {
        _ = try confirmed.apply(.settingsReplace(previous: .default, proposed: settings), cascade: switched.cascade)
    }

    let scheduled = leafIDs.filter { state.tasks[$0]?.schedule != nil }
    var (editTimes, editPushes) = try leafEdits(scheduled, in: &state, random: &random)

    // A chain of 10,000 tasks, each finish-to-start after the one before: its head moved a week
    // later, `chainMoves` times (each move pushes the whole chain).
    let (chainTimes, chainPushed) = try moveChainHead(try chainHead(&state), in: &state)

    // The figures of a version, once; then an answer of 50 ids.
    let time = WorkingTime(settings.calendar)
    var figures: ScheduleFigures?
    let figuresTime = clock.measure { figures = ScheduleFigures(state.tasks, time: time) }
    var answerTimes: [Double] = []
    for _ in 0..<200 {
        let ids = (0..<50).map { _ in leafIDs.randomElement(using: &random)! }
        let start = clock.now
        let rows = ids.compactMap { figures![$0] }
        answerTimes.append(BenchClock.milliseconds(clock.now - start) * 1000)
        precondition(rows.count <= 50)
    }

    let copyTime = try editWhileHeld(&state, leafID: scheduled[0])

    editTimes.sort()
    answerTimes.sort()
    print(
        BenchClock.jsonObject([
            ("tasks", Double(state.tasks.count)), ("dependencies", Double(state.tasks.dependencies.count)),
            ("graph_at_load_ms", BenchClock.milliseconds(graphTime)),
            ("switch_to_automatic_ms", BenchClock.milliseconds(switchTime)), ("switch_pushed", Double(switchPushed)),
            ("switch_published_ms", BenchClock.milliseconds(publishTime)),
            ("leaf_edit_p50_us", BenchClock.percentile(editTimes, 0.5)),
            ("leaf_edit_p99_us", BenchClock.percentile(editTimes, 0.99)),
            ("leaf_edit_pushes_mean", Double(editPushes) / Double(leafEdits)),
            ("chain_head_ms", BenchClock.percentile(chainTimes.sorted(), 0.5)),
            ("chain_head_max_ms", chainTimes.max() ?? 0), ("chain_pushed", Double(chainPushed)),
            ("figures_ms", BenchClock.milliseconds(figuresTime)),
            ("answer_50_ids_p50_us", BenchClock.percentile(answerTimes, 0.5)),
            ("edit_while_figures_held_ms", BenchClock.milliseconds(copyTime)),
        ]))
}

/// `leafEdits` scheduled activities moved 1…5 days later, each judged and applied, settle
/// included: each edit's time in µs, and the tasks pushed in all.
func leafEdits(_ scheduled: [String], in state: inout PlanState, random: inout SplitMix64) throws -> ([Double], Int) {
    let clock = ContinuousClock()
    var times: [Double] = []
    var pushes = 0
    for _ in 0..<leafEdits {
        let previous = state.tasks[scheduled.randomElement(using: &random)!]!
        let schedule = previous.schedule!
        let moved = try TaskSchedule(
            start: schedule.start.adding(days: Int.random(in: 1...5, using: &random)), days: schedule.days)
        let proposed = previous.with(kind: .activity(schedule: moved, progress: previous.progress ?? 0))
        let start = clock.now
        let change = try state.apply(.replace(previous: previous, proposed: proposed))
        times.append(BenchClock.milliseconds(clock.now - start) * 1000)
        pushes += change.cascade?.count ?? 0
    }
    return (times, pushes)
}

/// Moves the chain's head a week later `chainMoves` times; each move's time and the last one's pushes.
func moveChainHead(_ chain: String, in state: inout PlanState) throws -> (times: [Double], pushed: Int) {
    let clock = ContinuousClock()
    var times: [Double] = []
    var pushed = 0
    for _ in 0..<chainMoves {
        let head = state.tasks[chain]!
        let later = try TaskSchedule(start: head.schedule!.start.adding(days: 7), days: head.schedule!.days)
        let start = clock.now
        let change = try state.apply(
            .replace(previous: head, proposed: head.with(kind: .activity(schedule: later, progress: 0))))
        times.append(BenchClock.milliseconds(clock.now - start))
        pushed = change.cascade?.count ?? 0
    }
    return (times, pushed)
}

/// Adds a chain of `chainLength` three-day activities, each linked finish-to-start to the one
/// before and starting right after it; returns the head's id.
func chainHead(_ state: inout PlanState) throws -> String {
    var start = try CivilDate("2027-01-04")
    var previous: String?
    for index in 0..<chainLength {
        let id = "chain\(index)"
        let schedule = try TaskSchedule(start: start, days: 3)
        try state.apply(.add(try GanttTask(id: id, title: id, kind: .activity(schedule: schedule, progress: 0))))
        if let previous { try state.apply(.link(TaskDependency(predecessorID: previous, successorID: id))) }
        previous = id
        start = schedule.end
    }
    return "chain0"
}

try run()

/// What a worker holding the collection (a `schedule` computation) costs the hub: its next edit
/// copies the storage it changes.
func editWhileHeld(_ state: inout PlanState, leafID: String) throws -> Duration {
    let clock = ContinuousClock()
    let held = state.tasks
    let leaf = state.tasks[leafID]!
    let start = clock.now
    try state.apply(.replace(previous: leaf, proposed: leaf.with(title: "copied")))
    let time = clock.now - start
    precondition(held.count == state.tasks.count)
    return time
}
