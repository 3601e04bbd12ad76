/// Every task's incoming dependencies by input position, with their predecessors' positions, in
/// flat arrays (each task's run at `first[position]`, `count[position]` long): built once for a
/// whole-plan settle, so that judging 100,000 tasks reads no id.
struct IncomingByPosition {
    private var first: [Int]
    private var count: [Int]
    /// Per dependency, the predecessor's input position.
    private(set) var predecessor: [Int] = []
    /// The dependencies, grouped by successor.
    private(set) var dependency: [TaskDependency] = []

    /// The incoming dependencies of every task of `tasks`.
    init(_ tasks: TaskCollection) {
        first = [Int](repeating: 0, count: tasks.tasks.count)
        count = [Int](repeating: 0, count: tasks.tasks.count)
        let total = tasks.predecessorsByID.values.reduce(0) { $0 + $1.count }
        predecessor.reserveCapacity(total)
        dependency.reserveCapacity(total)
        for (id, incoming) in tasks.predecessorsByID {
            let to = tasks.positionByID[id]!
            (first[to], count[to]) = (dependency.count, incoming.count)
            for edge in incoming {
                predecessor.append(tasks.positionByID[edge.predecessorID]!)
                dependency.append(edge)
            }
        }
    }

    /// The indexes (into `predecessor` and `dependency`) of the dependencies into `position`.
    func edges(into position: Int) -> Range<Int> { first[position]..<(first[position] + count[position]) }
}
