// JSON coding of proposal ops exactly as protocol.md §5.

extension PlanOperation: JSONEncodable {
    /// Decodes an `op` object by its `type`.
    ///
    /// A malformed shape or an unknown `type` fails with `badMessage` naming the field; invalid
    /// values fail with their rejection code (`invalidSchedule`, `invalidInterval`, …).
    public init(json: JSONValue, path: String = "op") throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        func task(_ key: String) throws(DecodingFailure) -> GanttTask {
            try GanttTask(json: try object.required(key), path: object.path(key))
        }
        switch try object.string("type") {
        case "replace":
            self = .replace(previous: try task("previous"), proposed: try task("proposed"))
        case "add":
            self = try PlanOperation.added(try task("task"), object)
        case "reorder":
            let position = try object.string("position")
            guard let order = TaskOrderPosition(rawValue: position) else {
                throw object.failure("position", "expected \"before\" or \"after\", found \"\(position)\"")
            }
            self = .reorder(previous: try task("previous"), relativeTo: try task("relativeTo"), position: order)
        case "remove":
            self = .remove(previous: try task("previous"))
        case "link":
            self = .link(try TaskDependency(json: try object.required("dependency"), path: object.path("dependency")))
        case "unlink":
            self = .unlink(try TaskDependency(json: try object.required("dependency"), path: object.path("dependency")))
        case "relink":
            self = .relink(
                previous: try TaskDependency(json: try object.required("previous"), path: object.path("previous")),
                proposed: try TaskDependency(json: try object.required("proposed"), path: object.path("proposed")))
        case "settings.replace":
            self = .settingsReplace(
                previous: try PlanSettings(json: try object.required("previous"), path: object.path("previous")),
                proposed: try PlanSettings(json: try object.required("proposed"), path: object.path("proposed")))
        case "timeline.apply":
            self = .timelineApply(
                original: try TimelineAssignedEntry(
                    json: try object.required("original"), path: object.path("original")),
                proposed: try TimelineAssignedEntry(
                    json: try object.required("proposed"), path: object.path("proposed")))
        case "timeline.add":
            let entry = try TimelineEntry(json: try object.required("entry"), path: object.path("entry"))
            let assignments = try object.map("assignments") { value, path throws(DecodingFailure) in
                try TimelineAssignment(json: value, path: path)
            }
            self = .timelineAdd(entry: entry, assignments: assignments)
        case "timeline.remove":
            self = .timelineRemove(
                entry: try TimelineEntry(json: try object.required("entry"), path: object.path("entry")))
        case "baseline.set":
            let version = try object.optionalInteger("version")
            if let version, version < 0 { throw object.failure("version", "a version is not negative") }
            self = .baselineSet(name: try PlanBaseline.validName(object, "name"), version: version)
        case "baseline.remove":
            self = .baselineRemove(name: try PlanBaseline.validName(object, "name"))
        case "undo":
            self = .undo(version: try object.integer("version"))
        case let other:
            throw object.failure("type", "unknown op type \"\(other)\"")
        }
        if object.isPresent("restores") {
            let restores = try object.map("restores") { value, path throws(DecodingFailure) in
                let restore = try JSONObjectReader(value, path: path)
                return TaskRestore(
                    previous: try GanttTask(json: try restore.required("previous"), path: restore.path("previous")),
                    proposed: try GanttTask(json: try restore.required("proposed"), path: restore.path("proposed")))
            }
            self = .restoring(self, restores: restores)
        }
    }

    /// Writes the op as its wire object.
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type")
        writer.string(typeName)
        encodeMembers(into: &writer)
        writer.endObject()
    }

    /// The members after `type`.
    private func encodeMembers(into writer: inout JSONWriter) {
        switch self {
        case .replace(let previous, let proposed):
            writer.key("previous")
            previous.encodeJSON(into: &writer)
            writer.key("proposed")
            proposed.encodeJSON(into: &writer)
        case .add(let task):
            writer.key("task")
            task.encodeJSON(into: &writer)
        case .reorder(let previous, let target, let position):
            writer.key("previous")
            previous.encodeJSON(into: &writer)
            writer.key("relativeTo")
            target.encodeJSON(into: &writer)
            writer.key("position")
            writer.string(position.rawValue)
        case .remove(let previous):
            writer.key("previous")
            previous.encodeJSON(into: &writer)
        case .link(let dependency), .unlink(let dependency):
            writer.key("dependency")
            dependency.encodeJSON(into: &writer)
        case .relink(let previous, let proposed):
            writer.key("previous")
            previous.encodeJSON(into: &writer)
            writer.key("proposed")
            proposed.encodeJSON(into: &writer)
        case .settingsReplace(let previous, let proposed):
            writer.key("previous")
            previous.encodeJSON(into: &writer)
            writer.key("proposed")
            proposed.encodeJSON(into: &writer)
        case .restoring(let base, let restores):
            base.encodeMembers(into: &writer)
            writer.key("restores")
            writer.beginArray()
            for restore in restores {
                writer.beginObject()
                writer.key("previous")
                restore.previous.encodeJSON(into: &writer)
                writer.key("proposed")
                restore.proposed.encodeJSON(into: &writer)
                writer.endObject()
            }
            writer.endArray()
        case .timelineApply(let original, let proposed):
            writer.key("original")
            original.encodeJSON(into: &writer)
            writer.key("proposed")
            proposed.encodeJSON(into: &writer)
        case .timelineAdd(let entry, let assignments):
            writer.key("entry")
            entry.encodeJSON(into: &writer)
            writer.key("assignments")
            writer.array(assignments)
        case .timelineRemove(let entry):
            writer.key("entry")
            entry.encodeJSON(into: &writer)
        case .restore, .baselineSet, .baselineRemove, .undo:
            encodeHistoryMembers(into: &writer)
        }
    }

    /// An `add` (with `before` and `dependencies` when the server built it as an undo).
    private static func added(_ task: GanttTask, _ object: JSONObjectReader) throws(DecodingFailure) -> PlanOperation {
        guard object.isPresent("before") || object.isPresent("dependencies") else { return .add(task) }
        let dependencies = try object.map("dependencies", optional: true) { value, path throws(DecodingFailure) in
            try TaskDependency(json: value, path: path)
        }
        return .restore(task: task, before: try object.optionalString("before"), dependencies: dependencies)
    }

    /// The members of the history ops after `type`.
    private func encodeHistoryMembers(into writer: inout JSONWriter) {
        switch self {
        case .restore(let task, let before, let dependencies):
            writer.key("task")
            task.encodeJSON(into: &writer)
            writer.key("before")
            if let before { writer.string(before) } else { writer.null() }
            writer.key("dependencies")
            writer.array(dependencies)
        case .baselineSet(let name, let version):
            writer.key("name")
            writer.string(name)
            if let version {
                writer.key("version")
                writer.number(version)
            }
        case .baselineRemove(let name):
            writer.key("name")
            writer.string(name)
        case .undo(let version):
            writer.key("version")
            writer.number(version)
        default:
            preconditionFailure("not a history op")
        }
    }

    /// The op as the log keeps it: its wire object, with `"undoes":V` when it was built to undo V.
    public func logJSON(undoes: Int?) -> String {
        guard let undoes else { return json }
        var text = json
        text.removeLast()
        return text + ",\"undoes\":\(undoes)}"
    }
}
