import ChronoSketchCore
import Dispatch
import Glibc
import PlanProtocol
import PlanStore
import Synchronization
import Testing

/// The real PostgreSQL the tests use: `DATABASE_URL`, provided by `ops/test` (a throwaway
/// cluster). Migrations are applied once per test process.
public enum TestDatabase {
    /// `DATABASE_URL` when it is set (tests that can run without a database check it).
    public static let configuredURL: String? = getenv("DATABASE_URL").map { String(cString: $0) }.flatMap {
        $0.isEmpty ? nil : $0
    }

    /// The connection string.
    public static let url: String = {
        guard let url = configuredURL else {
            // Only a suite without the `.database` trait gets here.
            fatalError("DATABASE_URL is not set (and a suite that needs it lacks the .database trait)")
        }
        return url
    }()

    /// The repository root (for `sql/` and `ops/`).
    public static let repositoryRoot: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    /// The migrations directory.
    public static let migrationsDirectory = repositoryRoot + "/sql"

    /// A migrated store shared by the tests of this process.
    public static let store: PlanStore = {
        let store = PlanStore(conninfo: url)
        do {
            try store.migrate(directory: migrationsDirectory)
        } catch {
            fatalError("migrations failed: \(error)")
        }
        return store
    }()

    /// Commits `operation` to `plan` directly, as another writer would (a NOTIFY included), and
    /// returns the state after it.
    @discardableResult
    public static func commitOutside(
        _ operation: PlanOperation, to plan: String, baseVersion: Int, state: PlanState, proposalID: String = "outside",
        logStart: Int? = nil
    ) throws -> PlanState {
        var state = state
        let change = try state.apply(operation)
        try store.commit(
            plan: plan, baseVersion: baseVersion,
            mutations: [
                CommittedMutation(
                    proposalID: proposalID, user: "someone", operation: operation, change: change,
                    changesJSON: PlanChanges(after: state, change: change).json)
            ], logStart: logStart)
        return state
    }

    /// A name no other test (or earlier run) uses.
    public static func unique(_ prefix: String) -> String {
        "\(prefix)-\(UInt64.random(in: 0...UInt64.max) % 1_000_000_000)-\(uniqueCounter.add(1, ordering: .relaxed).newValue)"
    }

    /// Makes `unique` names of one process distinct whatever the random part gives.
    private static let uniqueCounter = Atomic<Int>(0)
}

/// A failure of the test harness itself.
public struct HarnessError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// Runs a shell command and returns its exit status and standard output (and error), without
/// trailing newlines.
@discardableResult
public func shell(_ command: String) -> (status: Int32, output: String) {
    guard let pipe = popen(command + " 2>&1", "r") else { return (-1, "") }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, pipe)
        if count <= 0 { break }
        output.append(contentsOf: buffer[0..<count])
    }
    let waitStatus = pclose(pipe)
    // The exit status, as a shell's `$?` gives it (-1 when the command did not exit normally).
    let status = waitStatus & 0x7f == 0 ? (waitStatus >> 8) & 0xff : -1
    var text = String(decoding: output, as: UTF8.self)
    while text.last == "\n" { text.removeLast() }
    return (status, text)
}

/// A whole file's bytes.
public func readAll(_ path: String) throws -> [UInt8] {
    guard let file = fopen(path, "rb") else { throw HarnessError("cannot open \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return bytes
}

/// Runs blocking work (a subprocess, a fuzz run, blocking socket reads) on a thread of its own,
/// off Swift's cooperative pool: that pool has one thread per core, and a test holding one for
/// a minute would stall every other test running beside it.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue(label: "off-the-pool").async { continuation.resume(with: Result { try work() }) }
    }
}

extension Trait where Self == ConditionTrait {
    /// For every suite whose tests need the database (directly or through a server): without
    /// `DATABASE_URL` the suite is skipped, and says why, instead of stopping the test process.
    public static var database: Self {
        .enabled(
            if: TestDatabase.configuredURL != nil,
            "needs DATABASE_URL, a PostgreSQL database (ops/test starts a throwaway cluster)")
    }
}
