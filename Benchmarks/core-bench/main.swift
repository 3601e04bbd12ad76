// Measures the domain core on a generated plan of 100,000 tasks (5 levels of groups) and 50,000
// dependencies; prints one JSON object. Run it through `ops/bench-core` (release build).
import ChronoSketchCore

struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

let taskCount = 100_000
let dependencyCount = 50_000
let operationCount = 10_000

/// Writes the plan JSON: groups with a fan-out of 6 over 5 levels, leaves spread below them in
/// depth-first order, then acyclic dependencies between leaves (earlier → later).
func generatePlanJSON(random: inout SplitMix64) -> [UInt8] {
    let origin = try! CivilDate("2026-01-05")
    var writer = JSONWriter(reservingCapacity: 16 << 20)
    var leaves: [String] = []
    var written = 0
    writer.beginObject()
    writer.key("tasks")
    writer.beginArray()
    func emit(_ task: GanttTask) {
        task.encodeJSON(into: &writer)
        written += 1
    }
    let groupCount = (1...5).reduce(0) { sum, level in sum + Int(pow6(level)) }
    let leavesPerGroup = Double(taskCount - groupCount) / Double(pow6(5))
    var leafBudget = 0.0
    func group(_ id: String, parent: String?, level: Int) {
        emit(try! GanttTask(id: id, title: "Group \(id)", parentID: parent, kind: .summary))
        if level == 5 {
            leafBudget += leavesPerGroup
            while leafBudget >= 1 {
                leafBudget -= 1
                let leafID = "t\(written)"
                let start = try! origin.adding(days: Int.random(in: 0..<365, using: &random))
                let kind: GanttTaskKind
                switch Int.random(in: 0..<20, using: &random) {
                case 0: kind = .milestone(date: start)
                case 1: kind = .activity(schedule: nil, progress: 0)
                default:
                    kind = .activity(
                        schedule: try! TaskSchedule(start: start, days: Int.random(in: 1...20, using: &random)),
                        progress: Double(Int.random(in: 0...100, using: &random)))
                }
                emit(try! GanttTask(id: leafID, title: "Task \(leafID)", parentID: id, kind: kind))
                leaves.append(leafID)
            }
            return
        }
        for child in 0..<6 { group("\(id).\(child)", parent: id, level: level + 1) }
    }
    for root in 0..<6 { group("g\(root)", parent: nil, level: 1) }
    writer.endArray()
    writer.key("dependencies")
    writer.beginArray()
    var pairs = Set<TaskDependency>()
    while pairs.count < dependencyCount {
        let a = Int.random(in: 0..<leaves.count, using: &random)
        let b = Int.random(in: 0..<leaves.count, using: &random)
        guard a != b else { continue }
        let dependency = TaskDependency(predecessorID: leaves[min(a, b)], successorID: leaves[max(a, b)])
        if pairs.insert(dependency).inserted { dependency.encodeJSON(into: &writer) }
    }
    writer.endArray()
    writer.endObject()
    return writer.bytes
}

func pow6(_ exponent: Int) -> Int { (0..<exponent).reduce(1) { value, _ in value * 6 } }

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func microseconds(_ duration: Duration) -> Double { milliseconds(duration) * 1000 }

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.down)))]
}

func run() throws {
    let clock = ContinuousClock()
    var random = SplitMix64(state: 42)
    let json = generatePlanJSON(random: &random)

    // Decode: parse the text and build task and dependency values.
    var tasks: [GanttTask] = []
    var dependencies: [TaskDependency] = []
    let decodeTime = try clock.measure {
        let root = try JSONObjectReader(try JSONValue(parsing: json))
        tasks = try root.map("tasks") { value, path throws(DecodingFailure) in try GanttTask(json: value, path: path) }
        dependencies = try root.map("dependencies") { value, path throws(DecodingFailure) in
            try TaskDependency(json: value, path: path)
        }
    }
    precondition(tasks.count == taskCount && dependencies.count == dependencyCount, "generator produced \(tasks.count)")

    // Validate and derive every summary.
    var collection = TaskCollection()
    let validateTime = try clock.measure {
        collection = try TaskCollection(tasks, dependencies: dependencies)
    }

    // Replace: a progress or date change of a random leaf activity, applied in place.
    let activityIDs = tasks.filter { $0.progress != nil }.map(\.id)
    var replaceTimes: [Double] = []
    replaceTimes.reserveCapacity(operationCount)
    for index in 0..<operationCount {
        let previous = collection[activityIDs.randomElement(using: &random)!]!
        guard case .activity(let schedule, let progress) = previous.kind else { continue }
        let proposed: GanttTask
        if index % 2 == 0 || schedule == nil {
            proposed = previous.with(kind: .activity(schedule: schedule, progress: progress == 100 ? 0 : progress + 1))
        } else {
            let moved = try TaskSchedule(start: schedule!.start.adding(days: 1), days: schedule!.days)
            proposed = previous.with(kind: .activity(schedule: moved, progress: progress))
        }
        let start = clock.now
        try collection.replace(previous: previous, proposed: proposed)
        replaceTimes.append(microseconds(clock.now - start))
    }

    // Reorder: a random task before or after a random sibling.
    var reorderTimes: [Double] = []
    reorderTimes.reserveCapacity(operationCount)
    while reorderTimes.count < operationCount {
        let task = collection.tasks[Int.random(in: 0..<collection.count, using: &random)]
        let siblings = collection.childIDs(of: task.parentID)
        guard siblings.count > 1, let targetID = siblings.randomElement(using: &random), targetID != task.id else {
            continue
        }
        let target = collection[targetID]!
        let position: TaskOrderPosition = Bool.random(using: &random) ? .before : .after
        let start = clock.now
        try collection.reorder(previous: task, relativeTo: target, position: position)
        reorderTimes.append(microseconds(clock.now - start))
    }

    // Rows of the whole (expanded) collection.
    var rowCount = 0
    let rowsTime = clock.measure { rowCount = collection.rows(collapsed: []).count }
    precondition(rowCount == taskCount)

    // The incremental state must still equal a full recomputation.
    let rebuilt = try TaskCollection(collection.tasks, dependencies: collection.dependencies)
    precondition(rebuilt.summaries == collection.summaries, "incremental summaries drifted from a full recomputation")

    replaceTimes.sort()
    reorderTimes.sort()
    func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
    let fields: [(String, Double)] = [
        ("tasks", Double(taskCount)), ("dependencies", Double(dependencyCount)), ("json_bytes", Double(json.count)),
        ("decode_ms", milliseconds(decodeTime)), ("validate_ms", milliseconds(validateTime)),
        ("replace_median_us", percentile(replaceTimes, 0.5)), ("replace_p99_us", percentile(replaceTimes, 0.99)),
        ("reorder_median_us", percentile(reorderTimes, 0.5)), ("reorder_p99_us", percentile(reorderTimes, 0.99)),
        ("rows_ms", milliseconds(rowsTime)),
    ]
    print("{" + fields.map { "\"\($0.0)\":\(format($0.1))" }.joined(separator: ",") + "}")
}

try run()
