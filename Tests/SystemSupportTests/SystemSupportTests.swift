import Glibc
import Synchronization
import SystemSupport
import Testing

@Suite("SystemSupport: threads, files, pipes, environment, clocks, Duration")
struct SystemSupportTests {
    @Test("a thread runs its closure once, and join waits for it")
    func threadRuns() throws {
        let ran = Atomic<Int>(0)
        let thread = try SystemThread { ran.wrappingAdd(1, ordering: .relaxed) }
        thread.join()
        let runs = ran.load(ordering: .relaxed)
        #expect(runs == 1)
    }

    @Test("a joinable thread is joined once; a second join and a join before start do nothing")
    func joinableThread() throws {
        let slot = JoinableThread()
        slot.join()
        let ran = Atomic<Bool>(false)
        try slot.start { ran.store(true, ordering: .relaxed) }
        slot.join()
        slot.join()
        let didRun = ran.load(ordering: .relaxed)
        #expect(didRun)
    }

    @Test("a waiter waits until another thread's changes make the value what it needs, then acts under the lock")
    func waitableLock() throws {
        let counter = WaitableLock(0)
        let seen = Atomic<Int>(-1)
        let waiter = try SystemThread {
            let value = counter.wait(until: { $0 >= 3 }) { value -> Int in
                value += 100
                return value
            }
            seen.store(value, ordering: .relaxed)
        }
        for _ in 0..<3 { counter.change { $0 += 1 } }
        waiter.join()
        // The waiter acted once the value reached 3, and no change came after its own.
        #expect(seen.load(ordering: .relaxed) == 103)
        #expect(counter.withLock { $0 } == 103)
    }

    @Test("a detached thread runs")
    func detached() throws {
        let (read, write) = try Files.pipe()
        defer { close(read) }
        try SystemThread.detached {
            Files.writeAll(Array("done".utf8), to: write)
            close(write)
        }
        #expect(try Files.readAll(fileDescriptor: read, name: "pipe") == Array("done".utf8))
    }

    @Test(
        "a repeating thread runs its chore until it returns false, each run at least an interval after the last",
        .timeLimit(.minutes(1)))
    func repeating() throws {
        let (read, write) = try Files.pipe()
        defer { close(read) }
        let interval = Duration.milliseconds(5)
        let started = ContinuousClock.now
        var runs: [ContinuousClock.Instant] = []
        try SystemThread.repeating(every: interval) {
            runs.append(.now)
            guard runs.count == 3 else { return true }
            let spacedOut = zip([started] + runs, runs).allSatisfy { $1 - $0 >= interval }
            Files.writeAll(Array("\(runs.count) \(spacedOut)".utf8), to: write)
            close(write)
            return false
        }
        #expect(try Files.readAll(fileDescriptor: read, name: "pipe") == Array("3 true".utf8))
    }

    @Test("a file written whole is read back whole; a missing one is an error naming it")
    func files() throws {
        let path = "/tmp/system-support-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(path) }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Files.write(bytes, to: path)
        #expect(try Files.read(path) == bytes)
        try Files.write(Array("grüß\n".utf8), to: path)
        #expect(try Files.readText(path) == "grüß\n")
        #expect(throws: SystemError.self) { try Files.read(path + "-missing") }
        do {
            _ = try Files.read(path + "-missing")
        } catch {
            #expect(error.description.hasPrefix("cannot open \(path)-missing: "))
            #expect(error.code == ENOENT)
        }
    }

    @Test("a pipe is close-on-exec, non-blocking when asked, and carries bytes")
    func pipe() throws {
        let (read, write) = try Files.pipe(nonBlocking: true)
        defer {
            close(read)
            close(write)
        }
        #expect(fcntl(read, F_GETFD) & FD_CLOEXEC != 0 && fcntl(write, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(read, F_GETFL) & O_NONBLOCK != 0)
        var byte: UInt8 = 0
        #expect(Glibc.read(read, &byte, 1) == -1 && errno == EAGAIN)
        #expect(Files.writeAll([42], to: write))
        #expect(Glibc.read(read, &byte, 1) == 1 && byte == 42)
        let blocking = try Files.pipe()
        #expect(fcntl(blocking.read, F_GETFL) & O_NONBLOCK == 0)
        close(blocking.read)
        close(blocking.write)
    }

    @Test("the environment is read from environ, values with = kept whole")
    func environment() {
        setenv("SYSTEM_SUPPORT_TEST", "a=b", 1)
        defer { unsetenv("SYSTEM_SUPPORT_TEST") }
        let environment = ProcessIO.environment()
        #expect(environment["SYSTEM_SUPPORT_TEST"] == "a=b")
        #expect(environment["PATH"] == String(cString: getenv("PATH")))
    }

    @Test("Duration in seconds, milliseconds and nanoseconds")
    func durations() {
        #expect(Duration.milliseconds(1500).inSeconds == 1.5)
        #expect(Duration.microseconds(2500).inMilliseconds == 2.5)
        #expect(Duration.seconds(3).inNanoseconds == 3_000_000_000)
        #expect(Duration.nanoseconds(7).inNanoseconds == 7)
        #expect(Duration.seconds(-1).inNanoseconds == 0)
        #expect(Duration.zero.inSeconds == 0)
    }

    @Test("the monotonic clock does not go back; the wall clock is after 2020")
    func clocks() {
        let first = ProcessIO.monotonicNanoseconds()
        #expect(ProcessIO.monotonicNanoseconds() >= first)
        #expect(ProcessIO.unixSeconds() > 1_577_836_800)
    }

    @Test("a system error says what failed and why")
    func systemError() {
        #expect(SystemError("cannot open x", code: ENOENT).description == "cannot open x: No such file or directory")
        #expect(SystemError("plain", code: 0).description == "plain")
    }
}
