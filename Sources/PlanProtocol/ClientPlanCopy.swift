import ChronoSketchCore

/// A client's copy of one plan, as a thin client keeps it: started from a `snapshot` and moved on
/// by the `changes` of each `confirmed`, in version order, without rules of its own.
///
/// Applied to the same stream, it equals the server's fresh snapshot at every version (the
/// convergence the load tester relies on). Two copies are equal when their snapshots are; the
/// session's role is kept beside the data (`role`), so copies of sessions with different roles
/// compare by the plan alone.
public struct ClientPlanCopy: Sendable, Equatable {
    /// The copy's data: plan, version, title, tasks in order, dependencies, resources, summaries
    /// (its `role` is always nil: see `role`).
    public private(set) var snapshot: PlanSnapshot
    /// The session's role on the plan as the server last said it (`snapshot.role`, `resumed.role`,
    /// the `role` event; protocol.md §11); nil when the server did not say.
    public private(set) var role: PlanRole?
    /// Position of each task id in `snapshot.tasks`.
    private var positionByID: [String: Int]

    /// Starts from a snapshot.
    public init(_ snapshot: PlanSnapshot) {
        var data = snapshot
        data.role = nil
        self.snapshot = data
        role = snapshot.role
        positionByID = ClientPlanCopy.positions(of: snapshot.tasks)
    }

    /// The plan id.
    public var plan: String { snapshot.plan }
    /// The confirmed version the copy is at.
    public var version: Int { snapshot.version }
    /// The tasks in confirmed input order.
    public var tasks: [GanttTask] { snapshot.tasks }
    /// The dependencies.
    public var dependencies: [TaskDependency] { snapshot.dependencies }
    /// The derived values of every summary.
    public var summaries: [String: SummaryValues] { snapshot.summaries }

    /// The task with this id, if any.
    public subscript(id: String) -> GanttTask? {
        positionByID[id].map { snapshot.tasks[$0] }
    }

    /// Equal when the snapshots are equal.
    public static func == (lhs: ClientPlanCopy, rhs: ClientPlanCopy) -> Bool {
        lhs.snapshot == rhs.snapshot
    }

    /// Applies the message if it concerns this plan: a `snapshot` replaces the copy, a
    /// `confirmed` is applied with `apply(version:changes:)`, a `resumed` is checked against the
    /// version, a `role` event (or the role in `resumed`) sets `role`. Other messages are ignored.
    /// - Returns: whether the copy changed.
    /// - Throws: `ClientPlanCopyError`; the copy is then unchanged (resubscribe with `since`).
    @discardableResult
    public mutating func apply(_ message: ServerMessage) throws(ClientPlanCopyError) -> Bool {
        switch message {
        case .snapshot(let snapshot, _) where snapshot.plan == plan && !snapshot.historical:
            self = ClientPlanCopy(snapshot)
            return true
        case .confirmed(let plan, let version, _, _, let changes, _, _) where plan == self.plan:
            try apply(version: version, changes: changes)
            return true
        case .resumed(let plan, let version, let role, _) where plan == self.plan:
            guard version == self.version else { throw .versionGap(expected: self.version, received: version) }
            guard let role, role != self.role else { return false }
            self.role = role
            return true
        case .role(let plan, let role) where plan == self.plan:
            guard role != self.role else { return false }
            self.role = role
            return true
        default:
            return false
        }
    }

    /// Applies the changes that produce `version`, which must be exactly one more than the copy's.
    ///
    /// The order is the one `PlanChanges` documents: `remove`, `upsert` (in place, or appended when
    /// new), `order`, `dependencies`, then summaries: values of tasks that are gone or no longer
    /// summaries are dropped and every value of `changes.summaries` is set.
    /// - Throws: `versionGap` unless `version == self.version + 1` (a lower version is a duplicate
    ///   to ignore, a higher one a gap to fill by resubscribing with `since`); `inconsistent` when
    ///   the changes do not fit the copy (an unknown removed id, an `order` that is not a
    ///   permutation of the tasks). The copy is then unchanged.
    public mutating func apply(version: Int, changes: PlanChanges) throws(ClientPlanCopyError) {
        guard version == snapshot.version + 1 else {
            throw .versionGap(expected: snapshot.version + 1, received: version)
        }
        try check(changes)

        let removed = Set(changes.remove)
        if !removed.isEmpty {
            // Only the tasks after the first removed one change position.
            let first = changes.remove.map { positionByID[$0]! }.min()!
            snapshot.tasks.removeAll { removed.contains($0.id) }
            for id in removed { positionByID[id] = nil }
            for position in first..<snapshot.tasks.count { positionByID[snapshot.tasks[position].id] = position }
        }
        for task in changes.upsert {
            if let position = positionByID[task.id] {
                snapshot.tasks[position] = task
            } else {
                positionByID[task.id] = snapshot.tasks.count
                snapshot.tasks.append(task)
            }
        }
        if let order = changes.order { reorder(to: order) }
        if let dependencies = changes.dependencies { snapshot.dependencies = dependencies }
        for id in removed { snapshot.summaries[id] = nil }
        for task in changes.upsert where !task.kind.isSummary { snapshot.summaries[task.id] = nil }
        for (id, values) in changes.summaries { snapshot.summaries[id] = values }
        if let baselines = changes.baselines { snapshot.baselines = baselines }
        if let settings = changes.settings { snapshot.settings = settings }
        snapshot.version = version
    }

    /// Checks, without changing anything, that the changes fit the copy.
    private func check(_ changes: PlanChanges) throws(ClientPlanCopyError) {
        var removed = Set<String>(minimumCapacity: changes.remove.count)
        for id in changes.remove {
            guard positionByID[id] != nil else { throw .inconsistent("removed task \"\(id)\" is not in the copy") }
            guard removed.insert(id).inserted else { throw .inconsistent("task \"\(id)\" is removed twice") }
        }
        var added = Set<String>()
        for task in changes.upsert {
            guard !removed.contains(task.id) else {
                throw .inconsistent("task \"\(task.id)\" is both removed and upserted")
            }
            if positionByID[task.id] == nil { added.insert(task.id) }
        }
        guard let order = changes.order else { return }
        if removed.isEmpty, added.isEmpty, order.count == snapshot.tasks.count {
            return try checkPermutation(order)
        }
        let count = snapshot.tasks.count - removed.count + added.count
        guard order.count == count else {
            throw .inconsistent("the order lists \(order.count) tasks, the copy has \(count)")
        }
        var seen = Set<String>(minimumCapacity: order.count)
        for id in order {
            guard (positionByID[id] != nil && !removed.contains(id)) || added.contains(id) else {
                throw .inconsistent("the order names task \"\(id)\", which is not in the copy")
            }
            guard seen.insert(id).inserted else { throw .inconsistent("the order names task \"\(id)\" twice") }
        }
    }

    /// Checks that `order` names the copy's tasks, each once: only the ids that are not already
    /// in place need looking at (a reorder moves a few tasks of many).
    private func checkPermutation(_ order: [String]) throws(ClientPlanCopyError) {
        var moved = Set<String>()
        for (position, id) in order.enumerated() where snapshot.tasks[position].id != id {
            guard let from = positionByID[id] else {
                throw .inconsistent("the order names task \"\(id)\", which is not in the copy")
            }
            // An id also left in place, or moved twice, is named twice.
            guard order[from] != id, moved.insert(id).inserted else {
                throw .inconsistent("the order names task \"\(id)\" twice")
            }
        }
    }

    /// Puts the tasks in `order` (checked, as many as the copy holds), touching only the
    /// positions that change.
    private mutating func reorder(to order: [String]) {
        var moved: [(position: Int, task: GanttTask)] = []
        for (position, id) in order.enumerated() where snapshot.tasks[position].id != id {
            moved.append((position, snapshot.tasks[positionByID[id]!]))
        }
        for (position, task) in moved {
            snapshot.tasks[position] = task
            positionByID[task.id] = position
        }
    }

    private static func positions(of tasks: [GanttTask]) -> [String: Int] {
        var positions: [String: Int] = Dictionary(minimumCapacity: tasks.count)
        for (position, task) in tasks.enumerated() { positions[task.id] = position }
        return positions
    }
}

/// Why a `ClientPlanCopy` could not apply a message.
public enum ClientPlanCopyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The version is not the next one: `received < expected` is a duplicate to ignore,
    /// `received > expected` a gap (resubscribe with `since`).
    case versionGap(expected: Int, received: Int)
    /// The changes do not fit the copy; resubscribe without `since` for a fresh snapshot.
    case inconsistent(String)

    /// Whether the message is one the copy has already applied.
    public var isDuplicate: Bool {
        if case .versionGap(let expected, let received) = self { return received < expected }
        return false
    }

    /// An English explanation.
    public var description: String {
        switch self {
        case .versionGap(let expected, let received): "expected version \(expected), received \(received)"
        case .inconsistent(let reason): reason
        }
    }
}
