/// The cascade a confirmed version decided, as its `changes` record it (scheduling.md §7): the
/// final value of each task `changes.pushed` names, taken from `changes.upsert`. Another process,
/// or a past version rebuilt from the log, applies it as data and never settles again.
public enum LoggedCascade {
    /// The pushed tasks of a version's `changes` JSON text (empty when it pushed nothing).
    /// - Throws: when the text does not read or `pushed` names a task `upsert` does not carry.
    public static func pushedTasks(inChangesJSON text: String) throws -> [GanttTask] {
        // Most versions push nothing: their text has no `"pushed":` member (inside a string the
        // quotes would be escaped), and need not be parsed.
        guard text.utf8.count > 10, text.contains("\"pushed\":") else { return [] }
        return try pushedTasks(inChanges: try JSONValue(parsing: Array(text.utf8))) ?? []
    }

    /// The pushed tasks of a version's `changes` object, in `pushed` order; nil when it pushed nothing.
    /// - Throws: `DecodingFailure` when `pushed` names a task that `upsert` does not carry.
    public static func pushedTasks(inChanges json: JSONValue) throws(DecodingFailure) -> [GanttTask]? {
        let changes = try JSONObjectReader(json, path: "changes")
        guard changes.isPresent("pushed") else { return nil }
        let ids = try changes.map("pushed") { value, path throws(DecodingFailure) in
            guard case .string(let id) = value else {
                throw DecodingFailure(path: path, reason: "expected a task id, found \(value.typeName)")
            }
            return id
        }
        let upserted = try changes.map("upsert", optional: true) { value, path throws(DecodingFailure) in
            try GanttTask(json: value, path: path)
        }
        let byID = Dictionary(upserted.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        return try ids.map { id throws(DecodingFailure) in
            guard let task = byID[id] else {
                throw changes.failure("pushed", "\"\(id)\" is not among the upserted tasks")
            }
            return task
        }
    }
}
