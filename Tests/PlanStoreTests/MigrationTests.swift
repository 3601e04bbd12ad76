import ChronoSketchCore
import Glibc
import PlanStore
import PlanTestSupport
import Testing

@Suite("PlanStore migrations: upgrading a database that holds plans", .database)
struct MigrationTests {
    /// A fresh, empty database on the test cluster, dropped by `drop`.
    struct ScratchDatabase {
        let name = String(TestDatabase.unique("upgrade").map { $0 == "-" ? "_" : $0 })
        let admin: PGConnection

        init() throws {
            admin = try PGConnection(conninfo: TestDatabase.url)
            try admin.query("CREATE DATABASE \(name)")
        }

        /// The test cluster's URL with this database (libpq lets a later `dbname` win).
        var url: String {
            let separator = TestDatabase.url.contains("?") ? "&" : "?"
            return "\(TestDatabase.url)\(separator)dbname=\(name)"
        }

        func drop() {
            _ = try? admin.query("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        }
    }

    /// A directory holding only the first migration, as a database created before 002 had it.
    static func firstMigrationOnly() throws -> String {
        let directory = "/tmp/chronosketch-migrations-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let status = shell("mkdir -p \(directory) && cp \(TestDatabase.migrationsDirectory)/001_*.sql \(directory)/")
        guard status.status == 0 else { throw HarnessError("cannot prepare \(directory): \(status.output)") }
        return directory
    }

    @Test("002 keeps stored order; adds and links take keys after the largest ones, gaps and old-style adds included")
    func positionCountersFromExistingRows() throws {
        let scratch = try ScratchDatabase()
        defer { scratch.drop() }
        let old = try Self.firstMigrationOnly()
        defer { shell("rm -rf \(old)") }

        let connection = try PGConnection(conninfo: scratch.url)
        #expect(try Migrator(directory: old).migrate(using: connection) == ["001_schema.sql"])
        // Rows as the old schema wrote them: gap-tolerant keys after removals and reorders.
        _ = try connection.transaction([
            PGStatement("INSERT INTO plans (id, title) VALUES ('p', 'Old plan')"),
            PGStatement(
                """
                INSERT INTO tasks (plan_id, id, position, parent_id, title, kind, progress) VALUES
                    ('p', 'g', 2, NULL, 'Group', 'summary', NULL),
                    ('p', 'b', 9, 'g', 'B', 'activity', 10),
                    ('p', 'a', 5, 'g', 'A', 'activity', 20)
                """),
            PGStatement(
                "INSERT INTO dependencies (plan_id, predecessor_id, successor_id, position) VALUES ('p', 'a', 'b', 3)"),
        ])
        #expect(
            try Migrator(directory: TestDatabase.migrationsDirectory).migrate(using: connection).first
                == "002_position_counters.sql")
        let counters = try connection.query(
            "SELECT next_task_position, next_dependency_position FROM plans WHERE id = 'p'")
        #expect(counters.int(0, 0) == 10)
        #expect(counters.int(0, 1) == 4)

        // A server from before 002, still running during a rolling upgrade, adds the old way
        // (max + 1, the counter untouched): the trigger keeps the counter above it.
        try connection.query(
            """
            INSERT INTO tasks (plan_id, id, position, parent_id, title, kind, progress)
            SELECT 'p', 'old', max(position) + 1, 'g', 'Old', 'activity', 0 FROM tasks WHERE plan_id = 'p'
            """)
        #expect(try connection.query("SELECT next_task_position FROM plans WHERE id = 'p'").int(0, 0) == 11)

        let store = PlanStore(conninfo: scratch.url, connections: 1)
        var state = try #require(try store.loadPlan("p")).document.state
        #expect(state.tasks.tasks.map(\.id) == ["g", "a", "b", "old"])
        // 008: existing plans take the default settings, existing dependencies finish-to-start with no lag.
        #expect(state.settings == .default)
        #expect(state.tasks.dependencies == [TaskDependency(predecessorID: "a", successorID: "b")])
        let added = try GanttTask(id: "c", title: "C", parentID: "g", kind: .activity(schedule: nil, progress: 0))
        let add = try StoreFixtures.mutation(.add(added), on: &state, id: "add")
        let link = try StoreFixtures.mutation(
            .link(TaskDependency(predecessorID: "b", successorID: "c")), on: &state, id: "link")
        #expect(try store.commit(plan: "p", baseVersion: 0, mutations: [add, link]) == 2)
        let loaded = try #require(try store.loadPlan("p"))
        #expect(loaded.document.state == state)
        #expect(loaded.document.state.tasks.tasks.map(\.id) == ["g", "a", "b", "old", "c"])
        let keys = try connection.query(
            """
            SELECT (SELECT position FROM tasks WHERE plan_id = 'p' AND id = 'c'),
                   (SELECT position FROM dependencies WHERE plan_id = 'p' AND successor_id = 'c'),
                   next_task_position, next_dependency_position FROM plans WHERE id = 'p'
            """)
        #expect([keys.int(0, 0), keys.int(0, 1), keys.int(0, 2), keys.int(0, 3)] == [11, 4, 12, 5])
    }

    @Test("an imported plan's counters follow its rows, so adds after an import come last")
    func importSetsCounters() throws {
        let store = TestDatabase.store
        let id = try StoreFixtures.newDemoPlan("counters")
        var state = StoreFixtures.demo.state
        let connection = try PGConnection(conninfo: TestDatabase.url)
        let counters = try connection.query(
            "SELECT next_task_position, next_dependency_position FROM plans WHERE id = $1", [id])
        #expect(counters.int(0, 0) == state.tasks.tasks.count)
        #expect(counters.int(0, 1) == state.tasks.dependencies.count)
        let parent = try #require(state.tasks.tasks.first { $0.kind.isSummary })
        let added = try GanttTask(
            id: "late", title: "Late", parentID: parent.id, kind: .activity(schedule: nil, progress: 0))
        let mutation = try StoreFixtures.mutation(.add(added), on: &state, id: "late")
        try store.commit(plan: id, baseVersion: 0, mutations: [mutation])
        let loaded = try #require(try store.loadPlan(id))
        #expect(loaded.document.state == state)
        #expect(loaded.document.state.tasks.tasks.last?.id == "late")
    }

    @Test("the log stays contiguous: a commit logs every version it advances over and none beyond")
    func logContiguity() throws {
        let id = try StoreFixtures.newDemoPlan("contiguous")
        let connection = try PGConnection(conninfo: TestDatabase.url)
        /// Advances the plan to `version` and logs `versions` in one transaction.
        func log(_ versions: [Int], advancingTo version: Int) throws {
            _ = try connection.transaction([
                PGStatement("UPDATE plans SET version = $2 WHERE id = $1", [id, String(version)]),
                PGStatement(
                    """
                    INSERT INTO mutations (plan_id, version, proposal_id, user_name, op, changes)
                    SELECT $1, v, 'p' || v, 'tester', '{}', '{}' FROM unnest($2::bigint[]) AS v
                    """, [id, "{\(versions.map(String.init).joined(separator: ","))}"]),
            ])
        }
        func refused(_ versions: [Int], advancingTo version: Int, _ reason: String) {
            do {
                try log(versions, advancingTo: version)
                Issue.record("logged \(versions) at version \(version)")
            } catch {
                #expect("\(error)".contains(reason), "\(error)")
            }
        }
        refused([2], advancingTo: 2, "versions 1 to 2 of plan \(id) are not all logged")
        refused([1, 3], advancingTo: 3, "versions 1 to 3 of plan \(id) are not all logged")
        refused([1, 2], advancingTo: 1, "logged mutations beyond its version")
        try log([1, 2], advancingTo: 2)
        refused([4], advancingTo: 4, "versions 3 to 4 of plan \(id) are not all logged")
        try log([3, 4], advancingTo: 4)
        // A change of the log's start alone: the version it stays at must still be logged.
        do {
            _ = try connection.transaction([
                PGStatement("DELETE FROM mutations WHERE plan_id = $1 AND version = 4", [id]),
                PGStatement("UPDATE plans SET log_start = 2 WHERE id = $1", [id]),
            ])
            Issue.record("the log's start moved while the plan's version had no log row")
        } catch {
            #expect("\(error)".contains("version 4 of plan \(id) has no logged mutation"), "\(error)")
        }
        let stored = try connection.query("SELECT count(*), max(version) FROM mutations WHERE plan_id = $1", [id])
        #expect([stored.int(0, 0), stored.int(0, 1)] == [4, 4])
    }

    @Test("deleting a plan deletes its tasks, dependencies, log and decisions, and nothing of other plans")
    func planDeletion() throws {
        let store = TestDatabase.store
        let doomed = TestDatabase.unique("doomed")
        let kept = TestDatabase.unique("kept")
        for id in [doomed, kept] {
            try store.createPlan(id: id, document: StoreFixtures.demo)
            var state = StoreFixtures.demo.state
            let spec = try #require(state.tasks["spec"])
            let edit = try StoreFixtures.mutation(
                .replace(previous: spec, proposed: spec.with(title: "Edited")), on: &state, id: "e")
            let rejection = RecordedDecision(
                proposalID: "r", user: "tester", decision: .rejected(version: 0, code: .staleTask, message: "stale"))
            try store.commit(plan: id, baseVersion: 0, mutations: [edit], decisions: [rejection])
        }
        let connection = try PGConnection(conninfo: TestDatabase.url)
        let count = """
            SELECT (SELECT count(*) FROM tasks WHERE plan_id = $1), (SELECT count(*) FROM dependencies WHERE plan_id = $1),
                   (SELECT count(*) FROM mutations WHERE plan_id = $1), (SELECT count(*) FROM decisions WHERE plan_id = $1)
            """
        func rows(_ id: String) throws -> [Int?] {
            let result = try connection.query(count, [id])
            return (0..<4).map { result.int(0, $0) }
        }
        let demo = StoreFixtures.demo.state.tasks
        let full: [Int?] = [demo.tasks.count, demo.dependencies.count, 1, 2]
        #expect(try rows(doomed) == full)
        try connection.query("DELETE FROM plans WHERE id = $1", [doomed])
        #expect(try rows(doomed) == [0, 0, 0, 0])
        // A late commit of decisions only (a rejection) for the deleted plan leaves no orphans.
        let late = RecordedDecision(
            proposalID: "late", user: "tester", decision: .rejected(version: 1, code: .staleTask, message: "stale"))
        try store.commit(plan: doomed, baseVersion: 1, mutations: [], decisions: [late])
        #expect(try rows(doomed) == [0, 0, 0, 0])
        #expect(try rows(kept) == full)
        #expect(try store.loadPlan(doomed) == nil)
    }
}
