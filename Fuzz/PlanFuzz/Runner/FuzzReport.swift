/// One thing the fuzzer found wrong, with what is needed to replay it.
public struct FuzzFinding: Sendable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: String, Sendable {
        /// The server process died (or stopped accepting connections).
        case crash
        /// The server stopped answering within the deadline while alive.
        case stall
        /// A request the contract answers got no answer, or a proposal got more than one.
        case unanswered
        /// An answer the contract forbids (a welcome for a wrong token, `unavailable`, another plan's data).
        case wrongAnswer
        /// A close code the contract does not allow, or one without a cause.
        case badClose
        /// `/healthz` did not answer 200.
        case unhealthy
        /// The final snapshot breaks the plan rules.
        case planRules
        /// A subscriber's stream had a gap or ended at the wrong version.
        case versions
    }

    /// The kind.
    public var kind: Kind
    /// The stream and case it came from (nil for the checks after the run).
    public var stream: FuzzStream?
    /// The case index within the stream.
    public var caseIndex: Int?
    /// What happened.
    public var detail: String
    /// What was sent: labels, mutations, bytes (escaped, long ones cut).
    public var sent: [String]

    /// Creates a finding.
    public init(kind: Kind, stream: FuzzStream? = nil, caseIndex: Int? = nil, detail: String, sent: [String] = []) {
        self.kind = kind
        self.stream = stream
        self.caseIndex = caseIndex
        self.detail = detail
        self.sent = sent
    }

    /// The finding with its replay information.
    public var description: String {
        var text = "[\(kind.rawValue)]"
        if let stream, let caseIndex {
            text += " \(stream.rawValue) case \(caseIndex) (--mode \(stream.rawValue) --case \(caseIndex))"
        }
        text += ": \(detail)"
        for line in sent { text += "\n    sent: \(line)" }
        return text
    }
}

/// What one run did and found.
public struct FuzzReport: Sendable, CustomStringConvertible {
    /// The seed.
    public var seed: UInt64
    /// Frame-level cases run.
    public var frameCases = 0
    /// Message-level sessions run.
    public var messageSessions = 0
    /// Fuzzed messages sent in those sessions.
    public var messagesSent = 0
    /// Proposals with a readable id, and how they were answered.
    public var proposals = 0
    /// `ack`s received (noop ones included).
    public var acks = 0
    /// `rejected`s received, by code.
    public var rejections: [String: Int] = [:]
    /// Close codes seen, by code ("none" for a connection that ended without one).
    public var closes: [String: Int] = [:]
    /// Everything found wrong.
    public var findings: [FuzzFinding] = []

    /// An empty report for `seed`.
    public init(seed: UInt64) { self.seed = seed }

    /// The summary and every finding.
    public var description: String {
        let rejected = rejections.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let closed = closes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        var text = """
            seed \(seed): \(frameCases) frame cases, \(messageSessions) message sessions, \(messagesSent) messages, \
            \(proposals) proposals (\(acks) acks; rejected: \(rejected.isEmpty ? "none" : rejected))
            closes: \(closed.isEmpty ? "none" : closed)
            findings: \(findings.count)
            """
        for finding in findings { text += "\n" + finding.description }
        return text
    }
}

/// Bytes as readable text: printable ASCII as is, everything else escaped, cut after `limit`.
public func escaped(_ bytes: [UInt8], limit: Int = 600) -> String {
    var text = ""
    for byte in bytes.prefix(limit) {
        switch byte {
        case 0x20...0x7E where byte != UInt8(ascii: "\\"): text.unicodeScalars.append(Unicode.Scalar(byte))
        default: text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }
    }
    return bytes.count > limit ? text + "… (\(bytes.count) bytes)" : text
}
