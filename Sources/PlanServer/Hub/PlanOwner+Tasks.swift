import ChronoSketchCore
import PlanProtocol
import WebSocketServer

/// `tasks` (docs/protocol.md, "Tasks by id"): a few tasks as they are at the confirmed version,
/// answered from memory, so that a client naming them need not hold the plan.
extension PlanOwner {
    /// Answers with the tasks `ids` names, each once, in the order first asked, and the ids the
    /// plan does not hold.
    mutating func tasks(_ ids: [String], ref: String?, for connection: ConnectionID) {
        var seen: Set<String> = []
        var found: [GanttTask] = []
        var missing: [String] = []
        for id in ids where seen.insert(id).inserted {
            if let task = confirmed.tasks[id] { found.append(task) } else { missing.append(id) }
        }
        send(.tasks(plan: self.id, version: version, tasks: found, missing: missing, ref: ref), to: connection)
    }
}
