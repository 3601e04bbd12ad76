#if THREAD_SANITIZER
    import Glibc
#else
    import Synchronization
#endif

/// A value that threads share, reached only under its lock: the project's one mutual exclusion.
///
/// It is the standard library's `Mutex` (a futex, inlined into the caller), except in a build for
/// the thread sanitizer (`-DTHREAD_SANITIZER`, `ops/test-tsan`): there it is a `pthread_mutex_t`,
/// which the sanitizer intercepts. `Mutex` locks inside the uninstrumented Synchronization
/// library, so the sanitizer sees no order between two holders and reports every value a
/// `Mutex` guards as a race; with the pthread lock, what it reports is ours.
#if THREAD_SANITIZER
    public struct Locked<Value: ~Copyable>: ~Copyable, @unchecked Sendable {
        private let lock: UnsafeMutablePointer<pthread_mutex_t>
        private let value: UnsafeMutablePointer<Value>

        /// Guards `initialValue`.
        public init(_ initialValue: consuming sending Value) {
            lock = .allocate(capacity: 1)
            pthread_mutex_init(lock, nil)
            value = .allocate(capacity: 1)
            value.initialize(to: initialValue)
        }

        deinit {
            value.deinitialize(count: 1)
            value.deallocate()
            pthread_mutex_destroy(lock)
            lock.deallocate()
        }

        /// Runs `body` with the value while holding the lock, and returns what it returns.
        public borrowing func withLock<Result: ~Copyable, E: Error>(
            _ body: (inout sending Value) throws(E) -> sending Result
        ) throws(E) -> sending Result {
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            nonisolated(unsafe) let value = value
            return try body(&value.pointee)
        }
    }
#else
    public struct Locked<Value: ~Copyable>: ~Copyable, Sendable {
        @usableFromInline let mutex: Mutex<Value>

        /// Guards `initialValue`.
        @inlinable
        public init(_ initialValue: consuming sending Value) {
            mutex = Mutex(initialValue)
        }

        /// Runs `body` with the value while holding the lock, and returns what it returns.
        @inlinable
        public borrowing func withLock<Result: ~Copyable, E: Error>(
            _ body: (inout sending Value) throws(E) -> sending Result
        ) throws(E) -> sending Result {
            try mutex.withLock(body)
        }
    }
#endif
