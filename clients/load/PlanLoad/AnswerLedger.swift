import ChronoSketchCore
import Glibc
import PlanProtocol
import Synchronization
import SystemSupport

/// Every decision the editors received, by proposal id, for runs with faults (`ops/bench outage`
/// and `kill`): a proposal re-sent with its id (after `unavailable`, or pending at a reconnect)
/// may be answered more than once, but always with the same decision. With `--answers FILE`, the
/// confirmed proposals are written out, one `VERSION ID` a line, to be compared with the plan's log.
final class AnswerLedger: Sendable {
    struct State: Sendable {
        /// The decision of every answered id: `ack VERSION`, `noop` or `rejected CODE`.
        var decisions: [String: String] = [:]
        /// Confirmed proposals: version and id.
        var confirmed: [(version: Int, id: String)] = []
        var answeredTwice = 0
        var conflicting: [String] = []
        var unavailable = 0
        var resent = 0
    }

    let state = Locked(State())

    /// Records a decision (not `unavailable`, which decides nothing).
    func record(id: String, decision: String, confirmedVersion: Int?) {
        state.withLock { state in
            guard let earlier = state.decisions[id] else {
                state.decisions[id] = decision
                if let confirmedVersion { state.confirmed.append((confirmedVersion, id)) }
                return
            }
            state.answeredTwice += 1
            if earlier != decision, state.conflicting.count < 10 {
                state.conflicting.append("\(id): \(earlier), then \(decision)")
            }
        }
    }

    /// Counts an `unavailable` answer.
    func countUnavailable() { state.withLock { $0.unavailable += 1 } }

    /// Counts proposals sent again with their ids.
    func countResent(_ count: Int) { state.withLock { $0.resent += count } }

    /// A conflicting decision fails the run.
    func check(notes: inout [String], converged: inout Bool) {
        let conflicting = state.withLock { $0.conflicting }
        if !conflicting.isEmpty {
            converged = false
            notes.append("ids answered with different decisions: " + conflicting.joined(separator: "; "))
        }
    }

    /// The ledger's figures.
    var fields: [(String, Double)] {
        let state = state.withLock { $0 }
        return [
            ("unavailable_answers", Double(state.unavailable)), ("resent", Double(state.resent)),
            ("decided_ids", Double(state.decisions.count)), ("answered_twice", Double(state.answeredTwice)),
            ("conflicting_decisions", Double(state.conflicting.count)),
        ]
    }

    /// Writes the confirmed proposals, `VERSION ID` a line, in version order.
    func writeConfirmed(to path: String) throws {
        let lines = state.withLock { $0.confirmed }.sorted { $0.version < $1.version }.map {
            "\($0.version) \($0.id)\n"
        }
        do { try Files.write(Array(lines.joined().utf8), to: path) } catch {
            throw LoadArgumentError("--answers \(path): \(error)")
        }
    }
}

extension LoadEditor {
    /// Records an answer in the ledger (and, at a welcome after a drop, the proposals sent again);
    /// an `unavailable` one, with `--retry-unavailable`, has
    /// the same proposal sent again with its id after 200–500 ms (it stays in flight).
    /// - Returns: whether the answer settles the proposal.
    func recordAnswer(_ message: ServerMessage) -> Bool {
        switch message {
        case .ack(let id, _, let version, let noop, _):
            tallies.ledger.record(
                id: id, decision: noop ? "noop" : "ack \(version)", confirmedVersion: noop ? nil : version)
        case .rejected(let id, _, .unavailable, _, _, _, _):
            tallies.ledger.countUnavailable()
            guard retryUnavailable, let operation = state.withLock({ $0.pending[id]?.operation }) else { return true }
            let delay = 200 + Int.random(in: 0...300)
            Task { [self] in
                try? await Task.sleep(for: .milliseconds(delay))
                tallies.ledger.countResent(1)
                connection.propose(operation, plan: plan, id: id)
            }
            return false
        case .rejected(let id, _, let code, _, _, _, _):
            tallies.ledger.record(id: id, decision: "rejected \(code.rawValue)", confirmedVersion: nil)
        case .welcome where dropped.exchange(false, ordering: .relaxed):
            // After a drop: the connection has just sent every pending proposal with its id
            // (unanswered when the connection dropped, or made while it was down).
            tallies.ledger.countResent(connection.pendingProposalIDs.count)
        default:
            break
        }
        return true
    }
}
