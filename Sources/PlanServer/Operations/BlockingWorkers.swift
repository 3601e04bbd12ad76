import Dispatch
import Glibc
import Synchronization
import SystemSupport

/// A few dedicated threads for blocking work (libpq calls), so that neither the transport's
/// service thread nor Swift's cooperative pool ever blocks on the database.
///
/// Jobs with the same `lane` run one after another on the same thread, in submission order (a
/// plan's commits use the plan id as the lane); other jobs go to the least loaded thread, so that
/// a commit waiting on the database (a lock, a slow fsync) does not hold up a token check or a
/// role lookup queued behind it.
final class BlockingWorkers: Sendable {
    private final class Lane: Sendable {
        let jobs = Locked<[@Sendable () -> Void]>([])
        let signal = DispatchSemaphore(value: 0)
        let stopping = Atomic<Bool>(false)
        /// Jobs queued or running on this thread.
        let load = Atomic<Int>(0)
    }

    private let lanes: [Lane]
    private let next = Atomic<Int>(0)

    /// Starts `threads` worker threads.
    /// - Throws: `SystemError` when a thread cannot be started.
    init(threads: Int) throws(SystemError) {
        lanes = (0..<max(1, threads)).map { _ in Lane() }
        for lane in lanes {
            try SystemThread.detached { BlockingWorkers.run(lane) }
        }
    }

    /// The thread that runs the jobs of `lane`.
    func thread(of lane: String) -> Int {
        var hasher = Hasher()
        hasher.combine(lane)
        return Int(UInt(bitPattern: hasher.finalize()) % UInt(lanes.count))
    }

    /// Runs `job` on a worker thread; jobs with equal `lane` keep their order.
    func submit(lane key: String? = nil, _ job: @escaping @Sendable () -> Void) {
        let index: Int
        if let key {
            index = thread(of: key)
        } else {
            // The least loaded thread, starting the scan at a rotating one (ties are spread).
            let start = next.wrappingAdd(1, ordering: .relaxed).oldValue
            var best = start % lanes.count
            for offset in 1..<lanes.count {
                let candidate = (start + offset) % lanes.count
                if lanes[candidate].load.load(ordering: .relaxed) < lanes[best].load.load(ordering: .relaxed) {
                    best = candidate
                }
            }
            index = best
        }
        let lane = lanes[index]
        lane.load.wrappingAdd(1, ordering: .relaxed)
        lane.jobs.withLock { $0.append(job) }
        lane.signal.signal()
    }

    /// Lets the threads finish their queued jobs and end.
    func stop() {
        for lane in lanes {
            lane.stopping.store(true, ordering: .releasing)
            lane.signal.signal()
        }
    }

    private static func run(_ lane: Lane) {
        while true {
            lane.signal.wait()
            let job = lane.jobs.withLock { jobs -> (@Sendable () -> Void)? in
                jobs.isEmpty ? nil : jobs.removeFirst()
            }
            if let job {
                job()
                lane.load.wrappingAdd(-1, ordering: .relaxed)
            } else if lane.stopping.load(ordering: .acquiring) {
                return
            }
        }
    }
}
