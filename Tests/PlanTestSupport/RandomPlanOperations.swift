import ChronoSketchCore

/// Random operations, mostly valid, on a `PlanState` with a four-resource timeline: adds, edits,
/// reorders, removals, links, unlinks and timeline ops, with awkward titles, for randomized tests.
/// The same seed gives the same operations.
public struct RandomPlanOperations {
    var rng: SplitMix64
    /// The state the operations are formed from (apply them to it to move on).
    public var state = PlanState()
    var nextID = 0
    let origin = try! CivilDate("2026-09-01")
    static let resourceIDs = ["r0", "r1", "r2", "r3"]
    static let titles = ["Plan", "Design \"α\"", "Build\nnext", "Ünïcødé 🇩🇪", "tab\there", ""]

    /// Starts from an empty plan with resources `r0`…`r3`.
    public init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        state.timeline = try! TimelineData(
            resources: Self.resourceIDs.map { try! TimelineResource(id: $0, label: "Label \($0)") }, entries: [],
            assignments: [])
    }

    mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &rng) }
    /// A random whole number in `range`.
    public mutating func number(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    /// True `percent` times in a hundred.
    public mutating func chance(_ percent: Int) -> Bool { int(0..<100) < percent }
    mutating func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[int(0..<items.count)] }
    mutating func newID(_ prefix: String) -> String {
        nextID += 1
        return "\(prefix)\(nextID)"
    }
    mutating func title() -> String { pick(Self.titles)! + (chance(50) ? " \(int(0..<100))" : "") }

    var tasks: [GanttTask] { state.tasks.tasks }
    var summaryIDs: [String] { tasks.filter(\.kind.isSummary).map(\.id) }

    mutating func kind() -> GanttTaskKind {
        switch int(0..<10) {
        case 0...1: return .summary
        case 2: return .milestone(date: try! origin.adding(days: int(0..<90)))
        case 3: return .activity(schedule: nil, progress: Double(int(0..<101)))
        default:
            let schedule = try! TaskSchedule(start: try! origin.adding(days: int(0..<90)), days: int(1..<30))
            // Thirds make progress values whose decimal forms are long.
            return .activity(schedule: schedule, progress: Double(int(0..<301)) / 3)
        }
    }

    mutating func parentID(excluding id: String? = nil) -> String? {
        chance(25) ? nil : pick(summaryIDs.filter { $0 != id })
    }

    mutating func entryInterval() -> (LocalDateTime, LocalDateTime) {
        let start = LocalDateTime(startOf: try! origin.adding(days: int(0..<30))).minuteNumber + int(0..<1440)
        let end = start + int(1..<3 * 1440)
        func at(_ minutes: Int) -> LocalDateTime {
            try! LocalDateTime(
                date: try! CivilDate(dayNumber: minutes / 1440), hour: minutes % 1440 / 60, minute: minutes % 60)
        }
        return (at(start), at(end))
    }

    /// A random operation; most are valid, some are rejected by the domain rules.
    public mutating func operation() -> PlanOperation? {
        let roll = int(0..<100)
        switch roll {
        case 0..<25:
            return .add(try! GanttTask(id: newID("t"), title: title(), parentID: parentID(), kind: kind()))
        case 25..<45:
            guard let previous = pick(tasks) else { return nil }
            var proposed = previous
            switch int(0..<4) {
            case 0: proposed = previous.with(title: title())
            case 1: proposed = previous.with(kind: kind())
            case 2: proposed = previous.with(parentID: parentID(excluding: previous.id))
            default: proposed = previous.with(kind: kind()).with(parentID: parentID(excluding: previous.id))
            }
            return .replace(previous: previous, proposed: proposed)
        case 45..<60:
            guard let previous = pick(tasks) else { return nil }
            let siblings = tasks.filter { $0.parentID == previous.parentID && $0.id != previous.id }
            guard let target = pick(siblings) else { return nil }
            return .reorder(previous: previous, relativeTo: target, position: chance(50) ? .before : .after)
        case 60..<68:
            guard let previous = pick(tasks) else { return nil }
            return .remove(previous: previous)
        case 68..<80:
            let leaves = tasks.filter { !$0.kind.isSummary }.map(\.id)
            guard let predecessor = pick(leaves), let successor = pick(leaves) else { return nil }
            return .link(TaskDependency(predecessorID: predecessor, successorID: successor))
        case 80..<85:
            guard let dependency = pick(state.tasks.dependencies) else { return nil }
            return .unlink(dependency)
        case 85..<92:
            let (start, end) = entryInterval()
            let entry = try! TimelineEntry(id: newID("e"), title: title(), start: start, end: end)
            var assignments: [TimelineAssignment] = []
            for resourceID in Self.resourceIDs.shuffled(using: &rng).prefix(int(1..<3)) {
                assignments.append(try! TimelineAssignment(id: newID("a"), entryID: entry.id, resourceID: resourceID))
            }
            return .timelineAdd(entry: entry, assignments: assignments)
        case 92..<97:
            guard let assignment = pick(state.timeline.assignments) else { return nil }
            let entry = state.timeline.entry(assignment.entryID)!
            let original = TimelineAssignedEntry(entry: entry, assignment: assignment)
            let (start, end) = entryInterval()
            let proposed = TimelineAssignedEntry(
                entry: chance(50) ? try! entry.with(start: start, end: end) : entry.with(title: title()),
                assignment: chance(50) ? assignment.with(resourceID: pick(Self.resourceIDs)!) : assignment)
            return .timelineApply(original: original, proposed: proposed)
        default:
            guard let entry = pick(state.timeline.entries) else { return nil }
            return .timelineRemove(entry: entry)
        }
    }
}
