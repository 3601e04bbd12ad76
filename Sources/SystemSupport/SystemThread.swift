import Glibc

/// A POSIX thread running one closure, started with its result checked.
public struct SystemThread: Sendable {
    /// The pthread handle.
    public let handle: pthread_t

    /// Starts a thread that runs `body` once and ends.
    /// - Throws: `SystemError` when `pthread_create` fails (the closure is released, never run).
    public init(_ body: sending @escaping () -> Void) throws(SystemError) {
        let box = Unmanaged.passRetained(ThreadBody(body))
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, systemThreadMain, box.toOpaque())
        guard result == 0 else {
            box.release()
            throw SystemError("cannot start a thread", code: result)
        }
        handle = thread
    }

    /// Starts a thread that nobody joins: its resources go back when it ends.
    /// - Throws: `SystemError` when `pthread_create` fails.
    public static func detached(_ body: sending @escaping () -> Void) throws(SystemError) {
        let thread = try SystemThread(body)
        pthread_detach(thread.handle)
    }

    /// Waits for the thread to end. Call it once, and never for a detached thread.
    public func join() {
        pthread_join(handle, nil)
    }

    /// Starts a detached thread that runs `body` every `interval` (first after one interval)
    /// for as long as it returns true. A periodic chore on a thread of its own: a sleeping task
    /// of Swift's concurrency wakes Dispatch's timer and pool machinery every time instead.
    /// - Throws: `SystemError` when `pthread_create` fails.
    public static func repeating(every interval: Duration, _ body: sending @escaping () -> Bool) throws(SystemError) {
        try detached {
            repeat { sleep(for: interval) } while body()
        }
    }

    /// Blocks the calling thread for `duration` (resuming after a signal until it has passed).
    public static func sleep(for duration: Duration) {
        let nanoseconds = duration.inNanoseconds
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
}

/// A thread that is joined at most once, by whoever asks first: the owner of a service thread
/// keeps one and calls `join()` when it stops (from the thread itself, `join()` detaches instead).
public final class JoinableThread: Sendable {
    private let handle = Locked<pthread_t?>(nil)

    /// Creates a slot with no thread yet.
    public init() {}

    /// Starts the thread.
    /// - Throws: `SystemError` when `pthread_create` fails.
    public func start(_ body: sending @escaping () -> Void) throws(SystemError) {
        let thread = try SystemThread(body)
        handle.withLock { $0 = thread.handle }
    }

    /// Waits for the thread to end; later calls, and calls before `start`, do nothing.
    public func join() {
        guard
            let running = handle.withLock({ current -> pthread_t? in
                defer { current = nil }
                return current
            })
        else { return }
        if pthread_equal(running, pthread_self()) != 0 {
            pthread_detach(running)
        } else {
            pthread_join(running, nil)
        }
    }
}

private final class ThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// The C entry point every `SystemThread` starts in.
private func systemThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let body = Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue()
    body.run()
    return nil
}

/// A failed system call: what was attempted and the error number.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What could not be done, e.g. "cannot open /tmp/x".
    public let message: String
    /// The `errno` (or the returned error number) when there is one.
    public let code: Int32

    /// Creates an error; `code` defaults to the current `errno`.
    public init(_ message: String, code: Int32 = errno) {
        self.message = message
        self.code = code
    }

    /// The message and the system's text for the code.
    public var description: String {
        code == 0 ? message : "\(message): \(String(cString: strerror(code)))"
    }
}
