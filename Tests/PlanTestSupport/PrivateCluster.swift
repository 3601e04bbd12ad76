import Glibc
import PlanStore

/// A PostgreSQL cluster of one test's own (`ops/pg`, fsync off), for faults that must not touch
/// the shared one: killing it, or a trigger whose lock would stall every other test. Migrated;
/// destroyed when released. Blocking work runs off the cooperative pool.
public final class PrivateCluster: @unchecked Sendable {
    /// Its DATABASE_URL.
    public let url: String
    /// A migrated store on it.
    public let store: PlanStore
    private let directory: String
    private let port: Int
    private static let pg = "\(TestDatabase.repositoryRoot)/ops/pg"

    private init(url: String, directory: String, port: Int) {
        self.url = url
        self.directory = directory
        self.port = port
        store = PlanStore(conninfo: url)
    }

    /// Creates, starts and migrates a cluster with its socket on `port` (one port per test, so
    /// that tests running at the same time do not meet).
    public static func start(port: Int) async throws -> PrivateCluster {
        let directory = "/tmp/chronosketch-private-\(port)-\(UInt32.random(in: 0...UInt32.max))"
        let started = try await offThePool {
            shell("PGPORT_PRIVATE=\(port) \(PrivateCluster.pg) start \(directory) --fast")
        }
        guard started.status == 0, let url = started.output.split(separator: "\n").last.map(String.init) else {
            shell("\(PrivateCluster.pg) destroy \(directory)")
            throw HarnessError("cannot start a private cluster: \(started.output)")
        }
        let cluster = PrivateCluster(url: url, directory: directory, port: port)
        try cluster.store.migrate(directory: TestDatabase.migrationsDirectory)
        return cluster
    }

    /// Stops it at once, as a crash would (immediate shutdown); true when it went down.
    public func kill() async throws -> Bool {
        let directory = self.directory
        return try await offThePool { shell("\(PrivateCluster.pg) kill \(directory)").status == 0 }
    }

    /// Starts it again after `kill`; true when it came up.
    public func restart() async throws -> Bool {
        let (directory, port) = (self.directory, self.port)
        return try await offThePool {
            shell("PGPORT_PRIVATE=\(port) \(PrivateCluster.pg) start \(directory) --fast").status == 0
        }
    }

    deinit {
        shell("\(PrivateCluster.pg) destroy \(directory)")
    }
}
