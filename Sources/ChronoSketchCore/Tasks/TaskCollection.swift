/// A validated set of tasks in confirmed input order, with typed dependencies (one per pair).
///
/// Every instance satisfies all rules of semantics.md ("Collection validity"). Changes come as
/// non-mutating methods that return a new collection (`replacing(previous:proposed:)`, …, as in
/// seed 000) and as mutating methods that change the collection in place and report what changed
/// (`replace(previous:proposed:)`, …), which is what the server uses: an edit costs time in
/// proportion to the depth of the task and its siblings' count, not to the size of the plan.
/// A rejected change throws and leaves the collection exactly as it was.
public struct TaskCollection: Sendable {
    /// The tasks in confirmed input order (which decides sibling order).
    public internal(set) var tasks: [GanttTask]
    /// The dependencies in the order they were added.
    public internal(set) var dependencies: [TaskDependency]

    /// Input position of each task id.
    var positionByID: [String: Int]
    /// Sorted input positions of the children of each parent id (nil: the roots).
    var childPositions: [String?: [Int]]
    /// Derived values of each summary.
    var aggregates: [String: SummaryAggregate]
    /// Every dependency by its pair, for duplicate checks and value comparisons.
    var dependencyByPair: [DependencyPair: TaskDependency]
    /// The dependencies from each task that has any (to its successors), in list order.
    var successorsByID: [String: [TaskDependency]]
    /// The dependencies into each task that has any (from its predecessors), in list order.
    var predecessorsByID: [String: [TaskDependency]]
    /// The dependencies by input position with a topological rank of every task that has one
    /// (`rank(u) < rank(v)` for each `u → v`), kept up to date on each change rather than
    /// recomputed (`DependencyGraph`), once asked for (`keepRanks()`: every `PlanState`); nil
    /// until then, so that a collection decoded or validated alone costs nothing for them.
    var graph: DependencyGraph?

    /// An empty collection.
    public init() {
        self.init(unchecked: [], dependencies: [])
    }

    /// Creates a collection, validating it as a whole.
    /// - Throws: `TaskGanttError` naming the first rule the data breaks.
    public init(_ tasks: [GanttTask], dependencies: [TaskDependency] = []) throws(TaskGanttError) {
        let positions = try TaskCollection.validate(tasks, dependencies: dependencies)
        self.init(unchecked: tasks, dependencies: dependencies, positionByID: positions)
    }

    /// Builds the indexes of data that is known to be valid (`positionByID`: each task's position
    /// by id, when already known).
    init(unchecked tasks: [GanttTask], dependencies: [TaskDependency], positionByID known: [String: Int]? = nil) {
        self.tasks = tasks
        self.dependencies = dependencies
        positionByID = known ?? Dictionary(minimumCapacity: tasks.count)
        childPositions = [:]
        for (position, task) in tasks.enumerated() {
            if known == nil { positionByID[task.id] = position }
            childPositions[task.parentID, default: []].append(position)
        }
        dependencyByPair = Dictionary(minimumCapacity: dependencies.count)
        successorsByID = [:]
        predecessorsByID = [:]
        for dependency in dependencies {
            dependencyByPair[dependency.pair] = dependency
            successorsByID[dependency.predecessorID, default: []].append(dependency)
            predecessorsByID[dependency.successorID, default: []].append(dependency)
        }
        graph = nil
        aggregates = [:]
        // Children come after their parent in depth-first order: fold them in reverse.
        for position in depthFirstPositions(collapsed: []).reversed() where tasks[position].kind.isSummary {
            aggregates[tasks[position].id] = aggregateFromChildren(of: tasks[position].id)
        }
    }

    /// The number of tasks.
    public var count: Int { tasks.count }

    /// The task with this id, if any.
    public subscript(id: String) -> GanttTask? {
        positionByID[id].map { tasks[$0] }
    }

    /// The input position of the task with this id, if any.
    public func position(of id: String) -> Int? {
        positionByID[id]
    }

    /// The ids of the task's direct children in input order.
    public func childIDs(of parentID: String?) -> [String] {
        (childPositions[parentID] ?? []).map { tasks[$0].id }
    }

    /// Whether any task names `id` as its parent.
    public func hasChildren(_ id: String) -> Bool {
        !(childPositions[id]?.isEmpty ?? true)
    }

    /// The derived values of the summary with this id, or nil when it is not a summary.
    public func summaryValues(of id: String) -> SummaryValues? {
        aggregates[id]?.values
    }

    /// The derived values of every summary, keyed by id.
    public var summaries: [String: SummaryValues] {
        aggregates.mapValues(\.values)
    }

    /// The ids of the tasks `id` depends on (its predecessors), in the order they were linked.
    public func predecessorIDs(of id: String) -> [String] {
        (predecessorsByID[id] ?? []).map(\.predecessorID)
    }

    /// The ids of the tasks that depend on `id` (its successors), in the order they were linked.
    public func successorIDs(of id: String) -> [String] {
        (successorsByID[id] ?? []).map(\.successorID)
    }

    /// The dependencies into `id`, in the order they were linked.
    func incoming(_ id: String) -> [TaskDependency] { predecessorsByID[id] ?? [] }

    /// The dependencies from `id`, in the order they were linked.
    func outgoing(_ id: String) -> [TaskDependency] { successorsByID[id] ?? [] }

    /// Starts keeping the dependency graph with its topological ranks (a no-op when it is kept
    /// already).
    public mutating func keepRanks() {
        if graph == nil { graph = currentGraph() }
    }

    /// The graph kept, or built now for this one use.
    func currentGraph() -> DependencyGraph {
        graph ?? DependencyGraph(tasks: tasks, dependencies: dependencies, positionByID: positionByID)
    }

    /// Whether the dependency is part of the collection (with this very type and lag).
    public func contains(_ dependency: TaskDependency) -> Bool {
        dependencyByPair[dependency.pair] == dependency
    }

    /// The dependency from `predecessorID` to `successorID`, if any.
    public func dependency(from predecessorID: String, to successorID: String) -> TaskDependency? {
        dependencyByPair[DependencyPair(predecessorID: predecessorID, successorID: successorID)]
    }
}

extension TaskCollection: Equatable {
    /// Equal when the tasks (in order) and the dependencies (in order) are equal.
    public static func == (lhs: TaskCollection, rhs: TaskCollection) -> Bool {
        lhs.tasks == rhs.tasks && lhs.dependencies == rhs.dependencies
    }
}
