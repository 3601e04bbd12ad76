// Measures the domain core on a generated plan of 100,000 tasks (5 levels of groups) and 50,000
// dependencies; prints one JSON object. Run it through `ops/bench-core` (release build).
import BenchSupport
import ChronoSketchCore

let taskCount = 100_000
let dependencyCount = 50_000
let operationCount = 10_000

func run() throws {
    let clock = ContinuousClock()
    var random = SplitMix64(seed: 42)
    let (json, _) = PlanGenerator.json(tasks: taskCount, dependencies: dependencyCount, random: &random)

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
    precondition(tasks.count == taskCount && dependencies.count == dependencyCount)

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
        replaceTimes.append(BenchClock.milliseconds(clock.now - start) * 1000)
    }

    // Reorder: a random task before or after a random sibling.
    var reorderTimes = try reorders(&collection, random: &random)

    // Rows of the whole (expanded) collection.
    var rowCount = 0
    let rowsTime = clock.measure { rowCount = collection.rows(collapsed: []).count }
    precondition(rowCount == taskCount)

    let checkpoints = try checkpointFigures(collection)

    // The incremental state must still equal a full recomputation.
    let rebuilt = try TaskCollection(collection.tasks, dependencies: collection.dependencies)
    precondition(rebuilt.summaries == collection.summaries, "incremental summaries drifted from a full recomputation")

    replaceTimes.sort()
    reorderTimes.sort()
    print(
        BenchClock.jsonObject(
            [
                ("tasks", Double(taskCount)), ("dependencies", Double(dependencyCount)),
                ("json_bytes", Double(json.count)),
                ("decode_ms", BenchClock.milliseconds(decodeTime)),
                ("validate_ms", BenchClock.milliseconds(validateTime)),
                ("replace_median_us", BenchClock.percentile(replaceTimes, 0.5)),
                ("replace_p99_us", BenchClock.percentile(replaceTimes, 0.99)),
                ("reorder_median_us", BenchClock.percentile(reorderTimes, 0.5)),
                ("reorder_p99_us", BenchClock.percentile(reorderTimes, 0.99)),
                ("rows_ms", BenchClock.milliseconds(rowsTime)),
            ] + checkpoints))
}

/// A checkpoint of the whole plan, written and read back (validated) in the store's column
/// format, beside the import shape read the same way.
func checkpointFigures(_ collection: TaskCollection) throws -> [(String, Double)] {
    let clock = ContinuousClock()
    let document = PlanDocument(title: "Bench", state: PlanState(tasks: collection, timeline: TimelineData()))
    var checkpoint: [UInt8] = []
    let writeTime = clock.measure { checkpoint = document.checkpointJSON }
    var read = document
    let readTime = try clock.measure { read = try PlanDocument(checkpoint: checkpoint) }
    precondition(read == document, "a checkpoint does not read back as the plan")
    let imported = document.bytes
    let importReadTime = try clock.measure { read = try PlanDocument(checkpoint: imported) }
    precondition(read == document)
    return [
        ("checkpoint_bytes", Double(checkpoint.count)), ("checkpoint_write_ms", BenchClock.milliseconds(writeTime)),
        ("checkpoint_read_ms", BenchClock.milliseconds(readTime)),
        ("import_shape_read_ms", BenchClock.milliseconds(importReadTime)),
    ]
}

/// Reorders: a random task before or after a random sibling; microseconds each.
func reorders(_ collection: inout TaskCollection, random: inout SplitMix64) throws -> [Double] {
    let clock = ContinuousClock()
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
        reorderTimes.append(BenchClock.milliseconds(clock.now - start) * 1000)
    }
    return reorderTimes
}

try run()
