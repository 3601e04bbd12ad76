import Glibc

/// State that belongs to one thread, reachable only through `value`, which checks in debug
/// builds that it is read or changed on that thread (as swift-nio's `NIOLoopBound` does for an
/// event loop). A service loop's connections are created, read, written and dropped by its own
/// thread alone; other threads hand it work through its shard's outbox. Whatever reaches for
/// them from elsewhere stops a debug build at once instead of racing.
struct ThreadBound<Value> {
    private var storage: Value
    /// The owning thread; nil until `bind()` (a loop is made on one thread and run on another).
    private var owner: pthread_t?

    /// Wraps `value`, not yet bound: the first `bind()` names the owning thread.
    init(_ value: Value) {
        storage = value
    }

    /// Binds to the calling thread (the thread that will own the value from now on).
    mutating func bind() {
        owner = pthread_self()
    }

    /// Whether the calling thread owns the value.
    var isOnOwningThread: Bool {
        guard let owner else { return false }
        return pthread_equal(owner, pthread_self()) != 0
    }

    /// The value, on its own thread only (checked in debug builds).
    var value: Value {
        get {
            assert(isOnOwningThread, "thread-bound state used off its thread")
            return storage
        }
        _modify {
            assert(isOnOwningThread, "thread-bound state used off its thread")
            yield &storage
        }
    }
}
