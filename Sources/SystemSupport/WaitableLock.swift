import Glibc

/// A value that threads share under a lock, with a condition to wait on: a thread waits until
/// the value is what it needs, another changes it and wakes the waiters. A `pthread_mutex_t` and a
/// `pthread_cond_t` (`Locked` has no condition, and the standard library offers none).
public final class WaitableLock<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Touched only while `mutex` is held.
    private var value: Value

    /// Guards `initialValue`.
    public init(_ initialValue: Value) {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        pthread_cond_init(condition, nil)
        value = initialValue
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value under the lock, and returns what it returns; waiters are not
    /// woken (use `change` when they may care).
    public func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }

    /// Runs `body` with the value under the lock, then wakes every waiter to look at it again.
    public func change<Result>(_ body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return body(&value)
    }

    /// Waits until `ready` holds for the value (checked under the lock, again after every
    /// `change`), then runs `body` with it, still under the lock, and returns what it returns.
    public func wait<Result>(until ready: (Value) -> Bool, then body: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(value) { pthread_cond_wait(condition, mutex) }
        return body(&value)
    }
}
