import PlanStore
import SystemSupport

/// Commits waiting for their worker thread. The first of a thread's waiting commits to start
/// takes the others waiting on that thread with it, and they are made in one transaction
/// (`PlanStore.commitTogether`): one fsync for several plans. Many plans with small batches
/// each (fifty editors on fifty plans) otherwise wait behind one another's fsyncs.
///
/// A plan has at most one commit in flight (its owner waits for the result), so a group holds
/// at most one batch per plan.
final class CommitGroups: Sendable {
    /// A commit and when it was handed to its worker.
    struct Waiting: Sendable {
        let request: CommitRequest
        let submitted: ContinuousClock.Instant
    }

    /// The most batches one transaction takes.
    static let largest = 16

    private let waiting = Locked<[Int: [Waiting]]>([:])

    /// Notes a commit that waits for worker thread `thread`.
    func add(_ commit: Waiting, thread: Int) {
        waiting.withLock { $0[thread, default: []].append(commit) }
    }

    /// The commits waiting for `thread`, oldest first, at most `largest` (none: an earlier group
    /// took them).
    func take(thread: Int) -> [Waiting] {
        waiting.withLock { all in
            let queued = all[thread] ?? []
            let taken = Array(queued.prefix(CommitGroups.largest))
            all[thread] = queued.count > taken.count ? Array(queued.dropFirst(taken.count)) : nil
            return taken
        }
    }
}

extension CommitRequest {
    /// The request as the store takes it.
    var batch: BatchCommit {
        BatchCommit(
            plan: plan, baseVersion: baseVersion, mutations: mutations, decisions: decisions, logStart: logStart)
    }
}
