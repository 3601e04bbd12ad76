import ChronoSketchCore
import SystemSupport

/// Generates large plans for benchmarks: groups with a fan-out of 6 over 5 levels, leaves spread
/// evenly below them in depth-first order (90 % scheduled activities, 5 % unscheduled, 5 %
/// milestones), then acyclic dependencies between random leaves (earlier → later).
public enum PlanGenerator {
    /// The generated plan as JSON text (`{"tasks":[…],"dependencies":[…]}`) and its leaf ids.
    public static func json(
        tasks taskCount: Int, dependencies dependencyCount: Int, random: inout SplitMix64
    ) -> (bytes: [UInt8], leafIDs: [String]) {
        let origin = try! CivilDate("2026-01-05")
        var writer = JSONWriter(reservingCapacity: taskCount * 170)
        var leaves: [String] = []
        var written = 0
        let groupCount = (1...5).reduce(0) { sum, level in sum + power(6, level) }
        let leavesPerGroup = Double(taskCount - groupCount) / Double(power(6, 5))
        var leafBudget = 0.0
        writer.beginObject()
        writer.key("tasks")
        writer.beginArray()
        func emit(_ task: GanttTask) {
            task.encodeJSON(into: &writer)
            written += 1
        }
        func group(_ id: String, parent: String?, level: Int) {
            emit(try! GanttTask(id: id, title: "Group \(id)", parentID: parent, kind: .summary))
            guard level == 5 else {
                for child in 0..<6 { group("\(id).\(child)", parent: id, level: level + 1) }
                return
            }
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
        return (writer.bytes, leaves)
    }

    /// Decodes generated JSON into a validated collection.
    public static func collection(from bytes: [UInt8]) throws -> TaskCollection {
        let root = try JSONObjectReader(try JSONValue(parsing: bytes))
        let tasks = try root.map("tasks") { value, path throws(DecodingFailure) in
            try GanttTask(json: value, path: path)
        }
        let dependencies = try root.map("dependencies") { value, path throws(DecodingFailure) in
            try TaskDependency(json: value, path: path)
        }
        return try TaskCollection(tasks, dependencies: dependencies)
    }

    private static func power(_ base: Int, _ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { value, _ in value * base }
    }
}

/// Timing helpers for the benchmarks.
public enum BenchClock {
    /// Milliseconds in a duration.
    public static func milliseconds(_ duration: Duration) -> Double {
        duration.inMilliseconds
    }

    /// The value at `fraction` (0…1) of an ascending array.
    public static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.down)))]
    }

    /// One JSON object with numbers rounded to one decimal.
    public static func jsonObject(_ fields: [(String, Double)]) -> String {
        func format(_ value: Double) -> String {
            let rounded = (value * 10).rounded() / 10
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
        return "{" + fields.map { "\"\($0.0)\":\(format($0.1))" }.joined(separator: ",") + "}"
    }
}
