import ChronoSketchCore
import PlanProtocol
import PlanStore
import WebSocketServer

/// History on a plan (protocol.md §9, §10): `history` and `fetch` read on workers, undo built
/// from the op that reverts a version (kept in memory for recent versions, read from the log
/// for older ones) and judged like any proposal, checkpoints written off the commit path.
extension PlanOwner {
    /// `history`: a page of the log, newest first, read on a worker.
    mutating func history(before: Int?, limit: Int?, ref: String?, for connection: ConnectionID) {
        let before = min(before ?? .max, version + 1)
        guard before > 0 else {
            send(
                .error(code: .historyUnavailable, message: "no version is below \(before)", ref: ref), to: connection)
            return
        }
        emit(.run(.readHistory(connection, plan: id, before: before, limit: limit ?? 50, ref: ref)))
    }

    /// `fetch`: the plan as of `requested`, rebuilt on a worker from a checkpoint and the log.
    mutating func fetch(version requested: Int, ref: String?, for connection: ConnectionID) {
        guard requested >= logStart, requested <= version else {
            let message = "version \(requested) is not in the history (it holds \(logStart)…\(version))"
            send(.error(code: .historyUnavailable, message: message, ref: ref), to: connection)
            return
        }
        emit(.run(.fetch(connection, plan: id, version: requested, ref: ref)))
    }

    /// Judges an undo of `target`: with the op that reverts it when that is known, else (nil) once
    /// it has been read from the log (`undoSourceRead`). A version below the log's start is
    /// `historyUnavailable`; so is one at or above it whose row holds no undo (version 0, the
    /// plan's creation, and versions logged before history was kept).
    mutating func judgeUndo(_ proposal: QueuedProposal, of target: Int) -> JudgedProposal? {
        guard target >= logStart else {
            return rejection(
                of: proposal, .historyUnavailable, "version \(target) is older than the log (it starts at \(logStart))")
        }
        guard target <= candidateVersion else {
            return rejection(
                of: proposal, .badMessage, "version \(target) is above the current version \(candidateVersion)")
        }
        switch inverses[target] {
        case .inverse(let inverse)?:
            return judge(QueuedProposal(origin: proposal.origin, verdict: .undo(version: target, inverse: inverse)))
        case .notUndoable?:
            return rejection(
                of: proposal, .notUndoable, "version \(target) set or removed a baseline; that cannot be undone")
        case nil:
            awaitingUndo[target, default: []].append(proposal)
            if awaitingUndo[target]!.count == 1 { emit(.run(.readUndoSource(plan: id, version: target))) }
            return nil
        }
    }

    /// What undoing `target` needs was read: the proposals waiting for it are judged in turn.
    mutating func undoSourceRead(version target: Int, _ result: Result<UndoSource, StoreError>) {
        for proposal in awaitingUndo.removeValue(forKey: target) ?? [] {
            let verdict: QueuedProposal.Verdict
            switch result {
            case .success(.inverse(let inverse)):
                verdict = .undo(version: target, inverse: inverse)
            case .success(.notUndoable):
                verdict = .reject(.notUndoable, "version \(target) set or removed a baseline; that cannot be undone")
            case .success(.trimmed):
                verdict = .reject(.historyUnavailable, "the log holds no undo for version \(target)")
            case .failure:
                answerAll(
                    .rejected(version: version, code: .unavailable, message: PlanOwner.commitFailedMessage),
                    origin: proposal.origin, remember: false)
                continue
            }
            enqueue(QueuedProposal(origin: proposal.origin, verdict: verdict))
        }
    }

    /// After a confirmed version (and once loaded): a checkpoint when `checkpointEvery` versions
    /// passed since the last (or there is none), so that every version from here on can be rebuilt.
    mutating func checkpointIfDue() {
        guard version - checkpointed >= configuration.checkpointEvery else { return }
        checkpointed = version
        emit(.run(.writeCheckpoint(plan: id, version: version, PlanDocument(title: title, state: confirmed))))
    }

    /// Where the log may start when the plan reaches `newVersion`: `logKeep` behind it, but never
    /// after a version a baseline names (the worker that deletes the rows behind it first writes a
    /// checkpoint at the new start, so every version from there on can be rebuilt); nil while it
    /// would move less than a step.
    func nextLogStart(newVersion: Int) -> Int? {
        let keep = configuration.logKeep
        guard keep > 0 else { return nil }
        let step = max(1, min(1_000, keep / 10))
        // Subtracted, not added: any keep up to Int.max is fine.
        guard newVersion - keep > logStart else { return nil }
        let start = min(newVersion - keep, confirmed.baselines.map(\.version).min() ?? .max)
        return start - logStart >= step ? start : nil
    }
}

/// The ops that revert a plan's recent versions, candidate versions included; past `limit` the
/// oldest are forgotten down to nine tenths of it (the log keeps them all). Versions are kept in
/// an array from the oldest on: they are remembered in ascending order (judged, or read from the
/// log while catching up), so remembering and forgetting cost no more than the versions they
/// touch (a dictionary that was filtered on every trim and rejudge cost a twentieth of the
/// server's CPU under a stream of commits).
struct RecentInverses {
    /// How a version can be undone.
    enum Undo {
        /// With this op.
        case inverse(PlanOperation)
        /// Not at all (a baseline op).
        case notUndoable
    }

    static let limit = 2_000
    /// The version of `undos[0]`.
    private var first = 0
    /// How each version from `first` on can be undone; nil: not known.
    private var undos: [Undo?] = []

    /// How many versions are known.
    var count: Int { undos.count { $0 != nil } }

    /// How `version` can be undone, if known.
    subscript(version: Int) -> Undo? {
        let index = version - first
        return undos.indices.contains(index) ? undos[index] : nil
    }

    /// Remembers how `version` can be undone (`inverse` nil: it cannot). A version older than
    /// every one kept is forgotten at once; one more than `limit` past the newest starts afresh.
    mutating func remember(_ version: Int, _ inverse: PlanOperation?) {
        let undo = inverse.map(Undo.inverse) ?? .notUndoable
        if undos.isEmpty || version - (first + undos.count) > RecentInverses.limit {
            first = version
            undos = []
        }
        let index = version - first
        guard index >= 0 else { return }
        if index < undos.count {
            undos[index] = undo
            return
        }
        undos.append(contentsOf: repeatElement(nil, count: index - undos.count))
        undos.append(undo)
        if undos.count > RecentInverses.limit {
            let drop = undos.count - RecentInverses.limit + RecentInverses.limit / 10
            undos.removeFirst(drop)
            first += drop
        }
    }

    /// Forgets the versions above `version` (candidate versions judged again).
    mutating func forget(above version: Int) {
        let keep = max(0, version - first + 1)
        if keep < undos.count { undos.removeLast(undos.count - keep) }
    }
}
