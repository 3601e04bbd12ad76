import ChronoSketchCore

/// One row of the log as `history` lists it.
public struct HistoryRow: Sendable, Hashable {
    /// The version it produced.
    public let version: Int
    /// When it was confirmed (UTC, RFC 3339 with milliseconds).
    public let at: String
    /// The proposal id.
    public let proposalID: String
    /// The proposing user.
    public let user: String
    /// The op as confirmed, as JSON text (nil when the log does not have it).
    public let opJSON: String?
    /// The `changes` JSON text, as broadcast.
    public let changesJSON: String
}

/// A page of the log read for `history`.
public struct HistoryRead: Sendable, Hashable {
    /// The rows, newest first.
    public let entries: [HistoryRow]
    /// The oldest version that can be rebuilt (`fetch`), reported as `logStart`. Older entries
    /// may be listed: those of a log written before history was kept (no checkpoint reaches them).
    public let logStart: Int
    /// The log holds the versions from this one on (at most `logStart`; version 0, the plan's
    /// creation, has no row): trimming keeps the row at the log's start, for its undo.
    public let rowsFrom: Int
    /// The plan's version when it was read.
    public let currentVersion: Int
    /// Whether older rows exist.
    public let more: Bool
}

/// What undoing a version can be built from.
public enum UndoSource: Sendable, Hashable {
    /// The op that reverts it, formed when it was confirmed.
    case inverse(PlanOperation)
    /// A baseline op: it cannot be undone.
    case notUndoable
    /// The log no longer holds it (or holds no inverse for it: written before history existed).
    case trimmed
}

/// The result of reading a plan as of a version.
public enum HistoricalRead: Sendable {
    /// The plan as it was.
    case document(PlanDocument)
    /// No checkpoint and log reach that version.
    case unavailable(logStart: Int, currentVersion: Int)
}

/// Rebuilding a plan from a checkpoint and the log after it.
enum HistoryReplay {
    /// One logged version to replay: its op and, when it pushed tasks, its changes.
    struct Entry {
        let version: Int
        let at: String
        let opJSON: String
        /// The version's `changes` when they name pushed tasks (their cascade is applied as data).
        let changesJSON: String?
    }

    /// The checkpoint's document with every logged op after it applied in order, each cascade
    /// as the log recorded it (scheduling.md §7).
    static func document(checkpoint: String, at base: Int, replaying log: [Entry], plan: String) throws(StoreError)
        -> PlanDocument
    {
        var document: PlanDocument
        do {
            document = try PlanDocument(checkpoint: Array(checkpoint.utf8))
        } catch {
            throw .invalid("the checkpoint of \"\(plan)\" at version \(base) does not read: \(error)")
        }
        for entry in log {
            do {
                let operation = try PlanOperation(json: try JSONValue(parsing: Array(entry.opJSON.utf8)))
                let cascade = try entry.changesJSON.map { text in
                    try LoggedCascade.pushedTasks(inChanges: try JSONValue(parsing: Array(text.utf8))) ?? []
                }
                try document.state.apply(
                    operation, context: JudgingContext(version: entry.version - 1, at: entry.at), cascade: cascade ?? []
                )
            } catch {
                throw .invalid("version \(entry.version) of \"\(plan)\" does not replay: \(error)")
            }
        }
        return document
    }
}
