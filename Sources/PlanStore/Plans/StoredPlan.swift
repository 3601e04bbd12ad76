import ChronoSketchCore

/// A plan as loaded from the database: its confirmed data at one version.
public struct StoredPlan: Sendable {
    /// The plan id.
    public let id: String
    /// The confirmed version the data is at.
    public let version: Int
    /// Title, tasks and timeline, validated as a whole.
    public let document: PlanDocument
    /// The oldest version that can be rebuilt (`PlanStore.readableLogStart`): the log holds the
    /// versions after it, and their undo from it on.
    public var logStart = 0
    /// The newest version with a checkpoint (nil: none, as for plans from before history).
    public var latestCheckpoint: Int?

    /// Creates a plan as loaded (the store does; tests build them to drive a plan owner).
    public init(id: String, version: Int, document: PlanDocument, logStart: Int = 0, latestCheckpoint: Int? = nil) {
        self.id = id
        self.version = version
        self.document = document
        self.logStart = logStart
        self.latestCheckpoint = latestCheckpoint
    }

    /// The JSON of `plan-server plan export`: the document's fields plus `id` and `version`.
    public var exportJSON: String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("id")
        writer.string(id)
        writer.key("version")
        writer.number(version)
        document.encodeMembers(into: &writer, entryTasks: true)
        writer.endObject()
        return writer.string
    }
}

/// One confirmed mutation to be committed: the op, what it changed, and the `changes` object that
/// subscribers receive (kept in the log byte for byte, for resuming subscribers).
public struct CommittedMutation: Sendable {
    /// The proposal id chosen by the client.
    public let proposalID: String
    /// The proposing user.
    public let user: String
    /// The op as applied.
    public let operation: PlanOperation
    /// What the op changed (it decides which rows are written).
    public let change: PlanChange
    /// The JSON text of the `changes` object broadcast for this version.
    public let changesJSON: String
    /// The op that reverts it, formed from the data before it (nil: it cannot be undone).
    public let inverse: PlanOperation?
    /// The version it undoes, when it was built by an `undo`.
    public let undoes: Int?
    /// When the server confirmed it (UTC, RFC 3339 with milliseconds): `confirmed.at`.
    public let at: String

    /// Creates a mutation to commit.
    public init(
        proposalID: String, user: String, operation: PlanOperation, change: PlanChange, changesJSON: String,
        inverse: PlanOperation? = nil, undoes: Int? = nil, at: String = "1970-01-01T00:00:00.000Z"
    ) {
        self.proposalID = proposalID
        self.user = user
        self.operation = operation
        self.change = change
        self.changesJSON = changesJSON
        self.inverse = inverse
        self.undoes = undoes
        self.at = at
    }

    /// Whether its inverse is the op turned round, which the log then does not store
    /// (`PlanOperation.inverseOfItself`).
    var inverseFromOp: Bool {
        inverse != nil && inverse == operation.inverseOfItself
    }
}

/// A decision stored for exactly-once answers without a new version: a rejection or a no-op.
public struct RecordedDecision: Sendable, Hashable {
    /// The proposal id.
    public let proposalID: String
    /// The proposing user.
    public let user: String
    /// The decision.
    public let decision: Decision

    /// Creates a record.
    public init(proposalID: String, user: String, decision: Decision) {
        self.proposalID = proposalID
        self.user = user
        self.decision = decision
    }
}

/// How a proposal was decided.
public enum Decision: Sendable, Hashable {
    /// Acknowledged at `version`; `noop` when it changed nothing.
    case acknowledged(version: Int, noop: Bool)
    /// Rejected, judged against the data of `version`; a `scheduleConflict` names its task and
    /// earliest start in `conflict`.
    case rejected(version: Int, code: RejectionCode, message: String, conflict: ConflictDetail? = nil)
}

/// One row of the mutation log.
public struct LoggedMutation: Sendable, Hashable {
    /// The version this mutation produced.
    public let version: Int
    /// The proposal id.
    public let proposalID: String
    /// The proposing user.
    public let user: String
    /// The op's JSON text.
    public let opJSON: String
    /// The `changes` JSON text, as broadcast.
    public let changesJSON: String
    /// When it was confirmed (UTC, RFC 3339 with milliseconds).
    public let at: String
    /// The op that reverts it, as JSON text, when the log stores one.
    public let inverseJSON: String?
    /// Whether the op that reverts it is the op turned round (`PlanOperation.inverseOfItself`),
    /// which the log does not store. Neither this nor `inverseJSON`: it cannot be undone.
    public let inverseFromOp: Bool

    /// Creates a log row (the store reads them; tests write them to drive a plan owner).
    public init(
        version: Int, proposalID: String, user: String, opJSON: String, changesJSON: String,
        at: String = "1970-01-01T00:00:00.000Z", inverseJSON: String? = nil, inverseFromOp: Bool = false
    ) {
        self.version = version
        self.proposalID = proposalID
        self.user = user
        self.opJSON = opJSON
        self.changesJSON = changesJSON
        self.at = at
        self.inverseJSON = inverseJSON
        self.inverseFromOp = inverseFromOp
    }

    /// The version it undoes, when the op is a confirmed undo (`"undoes"` in the op).
    public var undoes: Int? {
        guard opJSON.contains("\"undoes\""), let op = try? JSONObjectReader(JSONValue(parsing: Array(opJSON.utf8)))
        else { return nil }
        return try? op.optionalInteger("undoes")
    }
}

/// The result of reading the log since a version.
public enum LogRead: Sendable, Hashable {
    /// The mutations after the requested version, in order, up to `currentVersion`.
    case mutations([LoggedMutation], currentVersion: Int)
    /// The log no longer reaches back to the requested version: send a snapshot.
    case trimmed(currentVersion: Int)
}
