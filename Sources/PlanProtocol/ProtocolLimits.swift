import ChronoSketchCore

/// The limits of protocol.md §1, which the server enforces and reports in `welcome.limits`.
///
/// Lengths of ids and titles count Unicode scalar values, as protocol.md §3 says.
public struct ProtocolLimits: Sendable, Hashable, JSONEncodable {
    /// The largest frame the server reads; a larger one closes the connection with 1009.
    public var maxMessageBytes: Int
    /// The deepest nesting of arrays and objects in a message.
    public var maxDepth: Int
    /// The longest id (plan, proposal, watch, task, entry, resource, assignment) in scalars; ids
    /// have at least one.
    public var maxIDLength: Int
    /// The longest title in scalars.
    public var maxTitleLength: Int
    /// The most tasks a plan may hold (beyond it a proposal is rejected with `tooLarge`).
    public var maxTasksPerPlan: Int
    /// The most unsent bytes queued for one connection before it is closed with 1013.
    public var maxQueueBytes: Int
    /// The most proposals one connection may send per second (beyond it: `rateLimited`).
    public var maxProposalsPerSecond: Int
    /// The most watches one connection may hold at once, over all plans (a further `watch` with a
    /// new id gets `error` `tooLarge`; re-sending a watch id it holds replaces that watch).
    public var maxWatchesPerConnection: Int
    /// The most assignments one timeline entry may have: a `timeline.add` with more is
    /// `rejected` `tooLarge`. It bounds the work of one timeline op (adding, moving or removing
    /// an entry touches each of its assignments) and of the pages and fan-out it causes.
    public var maxAssignmentsPerEntry: Int
    /// The most unsent bytes the connections of one user may be charged together: a connection is
    /// charged a message queued to it while no other queue holds it (its own answers, and a
    /// broadcast only where it is the first queue the broadcast waits in, so a broadcast is charged
    /// once). Past it, the user's connections charged the most are closed with 1013.
    public var maxUserQueueBytes: Int
    /// Seconds a connection's unsent bytes may wait without a byte of them being taken by the
    /// peer; then the connection is closed with 1013, whatever the peer sends meanwhile.
    public var writeTimeoutSeconds: Int

    /// Creates limits; every parameter defaults to the contract's default.
    public init(
        maxMessageBytes: Int = 1 << 20, maxDepth: Int = 32, maxIDLength: Int = 128, maxTitleLength: Int = 1000,
        maxTasksPerPlan: Int = 200_000, maxQueueBytes: Int = 8 << 20, maxProposalsPerSecond: Int = 200,
        maxWatchesPerConnection: Int = 64, maxAssignmentsPerEntry: Int = 1000, maxUserQueueBytes: Int = 128 << 20,
        writeTimeoutSeconds: Int = 30
    ) {
        self.maxMessageBytes = maxMessageBytes
        self.maxDepth = maxDepth
        self.maxIDLength = maxIDLength
        self.maxTitleLength = maxTitleLength
        self.maxTasksPerPlan = maxTasksPerPlan
        self.maxQueueBytes = maxQueueBytes
        self.maxProposalsPerSecond = maxProposalsPerSecond
        self.maxWatchesPerConnection = maxWatchesPerConnection
        self.maxAssignmentsPerEntry = maxAssignmentsPerEntry
        self.maxUserQueueBytes = maxUserQueueBytes
        self.writeTimeoutSeconds = writeTimeoutSeconds
    }

    /// The contract's defaults.
    public static let standard = ProtocolLimits()

    /// The members in wire order, with their names in `welcome.limits`.
    private var members: [(String, Int)] {
        [
            ("maxMessageBytes", maxMessageBytes), ("maxDepth", maxDepth), ("maxIDLength", maxIDLength),
            ("maxTitleLength", maxTitleLength), ("maxTasksPerPlan", maxTasksPerPlan),
            ("maxQueueBytes", maxQueueBytes), ("maxProposalsPerSecond", maxProposalsPerSecond),
            ("maxWatchesPerConnection", maxWatchesPerConnection), ("maxAssignmentsPerEntry", maxAssignmentsPerEntry),
            ("maxUserQueueBytes", maxUserQueueBytes), ("writeTimeoutSeconds", writeTimeoutSeconds),
        ]
    }

    /// Writes the `welcome.limits` object:
    /// `{"maxMessageBytes":1048576,"maxDepth":32,"maxIDLength":128,"maxTitleLength":1000,
    /// "maxTasksPerPlan":200000,"maxQueueBytes":8388608,"maxProposalsPerSecond":200,
    /// "maxWatchesPerConnection":64,"maxAssignmentsPerEntry":1000,"maxUserQueueBytes":134217728,
    /// "writeTimeoutSeconds":30}`.
    public func encodeJSON(into writer: inout JSONWriter) {
        writer.beginObject()
        for (name, value) in members {
            writer.key(name)
            writer.number(value)
        }
        writer.endObject()
    }

    /// Decodes a `welcome.limits` object. A missing member keeps its default (an older or newer
    /// server may report fewer or more limits); a present one must be a nonnegative integer.
    public init(json: JSONValue, path: String = "limits") throws(DecodingFailure) {
        let object = try JSONObjectReader(json, path: path)
        func value(_ key: String, _ fallback: Int) throws(DecodingFailure) -> Int {
            guard let value = try object.optionalInteger(key) else { return fallback }
            guard value >= 0 else { throw object.failure(key, "must not be negative") }
            return value
        }
        let standard = ProtocolLimits.standard
        self.init(
            maxMessageBytes: try value("maxMessageBytes", standard.maxMessageBytes),
            maxDepth: try value("maxDepth", standard.maxDepth),
            maxIDLength: try value("maxIDLength", standard.maxIDLength),
            maxTitleLength: try value("maxTitleLength", standard.maxTitleLength),
            maxTasksPerPlan: try value("maxTasksPerPlan", standard.maxTasksPerPlan),
            maxQueueBytes: try value("maxQueueBytes", standard.maxQueueBytes),
            maxProposalsPerSecond: try value("maxProposalsPerSecond", standard.maxProposalsPerSecond),
            maxWatchesPerConnection: try value("maxWatchesPerConnection", standard.maxWatchesPerConnection),
            maxAssignmentsPerEntry: try value("maxAssignmentsPerEntry", standard.maxAssignmentsPerEntry),
            maxUserQueueBytes: try value("maxUserQueueBytes", standard.maxUserQueueBytes),
            writeTimeoutSeconds: try value("writeTimeoutSeconds", standard.writeTimeoutSeconds))
    }

    /// Whether `id` has 1…`maxIDLength` Unicode scalars.
    public func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.unicodeScalars.hasAtMost(maxIDLength)
    }

    /// Whether `title` has at most `maxTitleLength` Unicode scalars.
    public func isValidTitle(_ title: String) -> Bool {
        title.unicodeScalars.hasAtMost(maxTitleLength)
    }

    /// Why `id` breaks the id limit, or nil when it does not.
    public func idProblem(_ id: String) -> String? {
        if id.isEmpty { return "must not be empty" }
        if !id.unicodeScalars.hasAtMost(maxIDLength) { return "is longer than \(maxIDLength) Unicode scalars" }
        return nil
    }

    /// Why `title` breaks the title limit, or nil when it does not.
    public func titleProblem(_ title: String) -> String? {
        isValidTitle(title) ? nil : "is longer than \(maxTitleLength) Unicode scalars"
    }
}

extension Sequence {
    /// Whether the sequence has at most `limit` elements, looking at no more than `limit + 1`.
    func hasAtMost(_ limit: Int) -> Bool {
        var count = 0
        for _ in self {
            count += 1
            if count > limit { return false }
        }
        return true
    }
}
