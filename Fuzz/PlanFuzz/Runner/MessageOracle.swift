import ChronoSketchCore
import Glibc

/// What the contract says about the answer to one message, computed from its exact bytes with
/// the same parser, limits and rules as the server's decoder (protocol.md §2, §5, §6).
public struct Expectation: Sendable, Hashable {
    /// The limit on a frame's size; one more byte closes with 1009.
    public static let maxMessageBytes = 1 << 20
    /// The nesting limit.
    public static let maxDepth = 32

    /// The close code the message must cause (1009 too big, 1007 invalid UTF-8), if any.
    public var closeCode: UInt16?
    /// The message's readable `type`.
    public var type: String?
    /// The readable `ref`: some answer must carry it (nil when none is promised).
    public var ref: String?
    /// The readable proposal `id`: exactly one `ack` or `rejected` must carry it.
    public var proposalID: String?
    /// The token of a readable `hello`.
    public var helloToken: String?
    /// Whether the bytes hold a NUL character in any form (for findings of the known NUL bug).
    public var mentionsNUL: Bool

    /// The expectation for `bytes` sent as one text message.
    public init(bytes: [UInt8]) {
        mentionsNUL = bytes.contains(0) || bytes.containsSequence(Array(#"\u0000"#.utf8))
        guard bytes.count <= Expectation.maxMessageBytes else {
            closeCode = 1009
            return
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            closeCode = 1007
            return
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes, maxDepth: Expectation.maxDepth)
        } catch {
            if error.isInvalidUTF8 { closeCode = 1007 }
            return
        }
        guard case .object(let object) = json else { return }
        type = object.string("type")
        let readableRef = object.string("ref").flatMap {
            // A longer ref, or one holding U+0000, is not echoed (protocol.md §1.2, §10.16).
            $0.unicodeScalars.count <= HostileStrings.maxIDLength && !$0.utf8.contains(0) ? $0 : nil
        }
        switch type {
        case "unsubscribe", "unwatch":
            ref = nil  // no success reply
        case "hello":
            helloToken = object.string("token")
            ref = nil  // a second hello's answer is not in the contract
        case "propose":
            ref = readableRef
            // An id holding U+0000 cannot be read (protocol.md §1.2): it gets an `error`.
            if let id = object.string("id"), !id.isEmpty, id.unicodeScalars.count <= HostileStrings.maxIDLength,
                !id.utf8.contains(0)
            {
                proposalID = id
            }
        default:
            ref = readableRef
        }
    }
}

/// The close codes the contract lets the server use (§6), plus a normal close.
let allowedCloseCodes: Set<UInt16> = [1000, 1001, 1002, 1007, 1008, 1009, 1013]

/// The answers one session received, summarized for the checks.
struct SessionAnswers {
    var refs: [String: Int] = [:]
    var proposalAnswers: [String: Int] = [:]
    var acks: [(id: String, version: Int, noop: Bool)] = []
    var rejections: [String] = []
    var wrong: [String] = []
    var welcomes = 0

    /// Takes in one server message.
    mutating func record(_ message: JSONObject, plan: String) {
        let type = message.string("type") ?? "?"
        if let ref = message.string("ref") { refs[ref, default: 0] += 1 }
        if type == "welcome" { welcomes += 1 }
        if ["snapshot", "ack", "page", "resumed", "confirmed"].contains(type), let other = message.string("plan"),
            other != plan
        {
            wrong.append("\(type) for plan \(other.debugDescription), not \(plan.debugDescription)")
        }
        guard type == "ack" || type == "rejected", let id = message.string("id") else { return }
        proposalAnswers[id, default: 0] += 1
        if type == "ack" {
            acks.append((id, message.integer("version") ?? -1, message["noop"] == .bool(true)))
        } else {
            let code = message.string("code") ?? "?"
            rejections.append(code)
            if code == "unavailable" {
                wrong.append(
                    "proposal \(id.debugDescription) rejected with unavailable: \(message.string("message") ?? "")")
            }
        }
    }

    /// Whether everything `expected` promises has arrived (the sync ref included).
    func complete(_ expected: [Expectation], sync: String) -> Bool {
        refs[sync] != nil && missing(expected).isEmpty
    }

    /// What `expected` promises and did not arrive, and proposals answered more than once.
    func missing(_ expected: [Expectation]) -> [String] {
        var problems: [String] = []
        var wantedIDs: [String: Int] = [:]
        for expectation in expected {
            if let id = expectation.proposalID { wantedIDs[id, default: 0] += 1 }
            if let ref = expectation.ref, refs[ref] == nil, expectation.proposalID == nil {
                problems.append("no answer with ref \(ref.debugDescription) to \(expectation.type ?? "?")")
            }
        }
        for (id, count) in wantedIDs where proposalAnswers[id, default: 0] != count {
            problems.append(
                "proposal \(id.debugDescription) sent \(count)×, answered \(proposalAnswers[id, default: 0])×")
        }
        return problems
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in the bytes. Every fuzzed message is asked, megabyte frames
    /// included: each occurrence of the first byte (`memchr`) is compared whole (`memcmp`), where
    /// comparing a slice at every offset took four fifths of the fuzz tests' time.
    func containsSequence(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, count >= needle.count else { return false }
        return withUnsafeBytes { haystack in
            needle.withUnsafeBytes { pattern in
                guard let base = haystack.baseAddress, let first = pattern.first, let wanted = pattern.baseAddress
                else { return false }
                let lastStart = haystack.count - pattern.count
                var start = 0
                while start <= lastStart, let found = memchr(base + start, Int32(first), lastStart - start + 1) {
                    if memcmp(found, wanted, pattern.count) == 0 { return true }
                    start = base.distance(to: UnsafeRawPointer(found)) + 1
                }
                return false
            }
        }
    }
}
