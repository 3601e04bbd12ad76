import SystemSupport

/// The first refusal by policy (close code 1008) any connection of a run met: an unknown or
/// revoked token, a connection limit. Reconnecting cannot help (protocol.md §6 says not to retry
/// blindly), so the run stops and says why instead of reconnecting in silence.
final class Refusal: Sendable {
    private let first = Locked<String?>(nil)

    /// Records the close of `who` with `code` and `reason`, when it is a refusal by policy;
    /// returns whether it is.
    @discardableResult
    func record(_ who: String, code: UInt16?, reason: String) -> Bool {
        guard code == 1008 else { return false }
        first.withLock { first in
            if first == nil {
                first = "the server closed \(who) with 1008 (policy): \(reason.isEmpty ? "no reason given" : reason)"
            }
        }
        return true
    }

    /// What stopped the run, if anything did.
    var message: String? { first.withLock { $0 } }

    /// Throws the refusal when there was one.
    func check() throws {
        if let message { throw RunStopped(message) }
    }
}

/// A run stopped before its end: why.
struct RunStopped: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
