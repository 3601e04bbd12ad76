import ChronoSketchCore
import Glibc
import PlanClient
import PlanStore
import PlanTestSupport
import Testing

@testable import PlanLoad

@Suite("plan-load: a whole run against a real server", .serialized, .database)
struct LoadRunTests {
    /// The demo plan of `ops/demo-plan.json` (groups, dependencies, a timeline) under a new id,
    /// with a user who may edit it; returns the plan id and the token.
    static func demoPlan() throws -> (plan: String, token: String) {
        let path = TestDatabase.repositoryRoot + "/ops/demo-plan.json"
        return try editablePlan(PlanDocument(json: try JSONValue(parsing: try readAll(path))))
    }

    /// `document` imported under a new id, with a user who may edit it.
    static func editablePlan(_ document: PlanDocument) throws -> (plan: String, token: String) {
        let plan = TestDatabase.unique("load")
        try TestDatabase.store.createPlan(id: plan, document: document)
        let user = TestDatabase.unique("loader")
        let token = try TestDatabase.store.createUser(user)
        try TestDatabase.store.grant(user: user, plan: plan, role: .editor)
        return (plan, token)
    }

    /// A run opening every viewer at once, against `server`.
    static func configuration(
        _ server: ServerProcess, token: String, plan: String, viewers: Int, sample: Int, editors: Int,
        rate: Double, duration: Double
    ) -> LoadConfiguration {
        var configuration = LoadConfiguration(server: server.url, token: token, plans: [plan])
        configuration.viewers = viewers
        configuration.ramp = 0
        configuration.sampleViewers = sample
        configuration.editors = editors
        configuration.rate = rate
        configuration.duration = duration
        return configuration
    }

    static func figure(_ report: LoadRun.Report, _ name: String) -> Double? {
        report.fields.first { $0.0 == name }?.1
    }

    /// Checks that a run on a plan at version 0, with every viewer subscribed from the start,
    /// converged without a gap and that each of the `viewers` received every version; returns the
    /// final version.
    static func expectEveryVersionDelivered(_ report: LoadRun.Report, viewers: Int) throws -> Double {
        #expect(report.converged, "notes: \(report.notes)")
        #expect(figure(report, "gaps") == 0)
        let finalVersion = try #require(figure(report, "final_version"))
        #expect(figure(report, "deliveries") == finalVersion * Double(viewers))
        return finalVersion
    }

    @Test(
        "viewers on plain sockets and on lws converge with every mix of ops, stale proposals rejected",
        arguments: [false, true])
    func convergence(viewersOnLWS: Bool) async throws {
        let (plan, token) = try Self.demoPlan()
        let server = try ServerProcess.start()
        defer { _ = server.terminate() }
        // Over 64 subscribers: the server coalesces broadcasts into shared array frames.
        var configuration = Self.configuration(
            server, token: token, plan: plan, viewers: 80, sample: 4, editors: 3, rate: 60, duration: 2.5)
        configuration.watchers = 2
        configuration.staleRatio = 0.2
        configuration.viewersOnLWS = viewersOnLWS
        let report = try await LoadRun.run(configuration)
        #expect(report.converged, "notes: \(report.notes)")
        #expect(report.notes.isEmpty, "\(report.notes)")
        // Enough confirmed to mean something, however busy the machine (the run lasts 2.5 s: 150
        // proposals at most, a fifth of them stale; 32 were confirmed at a load of 9 on 2 cores).
        let confirmed = try #require(Self.figure(report, "confirmed"))
        let outcomes = report.fields.filter { $0.0.hasPrefix("outcome_") || ["proposals", "rejected"].contains($0.0) }
        #expect(confirmed >= 10, "\(outcomes)")
        #expect(Self.figure(report, "gaps") == 0)
        #expect(Self.figure(report, "viewers") == 80)
        // The plan started at version 0 with every viewer subscribed: each received every version.
        let finalVersion = try #require(Self.figure(report, "final_version"))
        #expect(finalVersion == confirmed)
        #expect(Self.figure(report, "deliveries") == finalVersion * 80)
        // Several messages shared frames.
        let frames = try #require(Self.figure(report, "frames"))
        #expect(frames < finalVersion * 80)
        let staleSent = try #require(Self.figure(report, "stale_sent"))
        #expect(staleSent > 0)
        #expect(Self.figure(report, "stale_rejected_stale") == staleSent)
        // The server's own log of the run agrees with the viewers.
        let stored = try #require(try TestDatabase.store.loadPlan(plan))
        #expect(Double(stored.version) == finalVersion)
    }
}

extension LoadRunTests {
    @Test(
        "1,200 viewers of one plan: each change's pass over them is shared with a write helper, and every viewer gets every version in order"
    )
    func sharedPasses() async throws {
        let (plan, token) = try Self.demoPlan()
        // One token for every viewer: past the default 1,000 connections per user.
        let server = try ServerProcess.start(arguments: ["--max-connections-per-user", "0"])
        defer { _ = server.terminate() }
        // Two changes a second: each viewer's last write is over 100 ms old when the next comes, so
        // every viewer is due in the same round, and the pass holds all 1,200 (shared from 1,024)
        // after a quiet while (the last pass was 500 ms before).
        let configuration = Self.configuration(
            server, token: token, plan: plan, viewers: 1200, sample: 3, editors: 1, rate: 2, duration: 3)
        let report = try await LoadRun.run(configuration)
        #expect(try Self.expectEveryVersionDelivered(report, viewers: 1200) >= 1)
        let metrics = shell("curl -s http://127.0.0.1:\(server.port)/metrics").output
        let shared = metrics.split(separator: "\n").first { $0.hasPrefix("chronosketch_shared_passes_total ") }
        let passes = try #require(shared.flatMap { Int($0.split(separator: " ")[1]) }, "\(metrics)")
        // At least one per change, unless a busy machine let two changes share a round.
        #expect(passes >= 1)
    }

    @Test(
        "an automatic plan of chains and diamonds with typed links: cascades converge everywhere, conflicts on purpose come back scheduleConflict"
    )
    func automaticPlan() async throws {
        var tasks: [GanttTask] = []
        var dependencies: [TaskDependency] = []
        for chain in 0..<4 {
            tasks.append(try GanttTask(id: "c\(chain)", title: "Chain \(chain)", kind: .summary))
            var start = try CivilDate("2026-09-07")
            for index in 0..<10 {
                let schedule = try TaskSchedule(start: start, days: 2)
                tasks.append(
                    try GanttTask(
                        id: "t\(chain)-\(index)", title: "Step \(index)", parentID: "c\(chain)",
                        kind: .activity(schedule: schedule, progress: 0)))
                if index > 0, (index - 1) % 3 != 2 {
                    dependencies.append(
                        TaskDependency(predecessorID: "t\(chain)-\(index - 1)", successorID: "t\(chain)-\(index)"))
                }
                start = schedule.end
                // Every third step forks into a diamond that joins at the next one: a three-day
                // branch (finish-to-start) and a one-day one (start-to-start +1 in, finish-to-finish out).
                guard index % 3 == 2, index < 9 else { continue }
                let (step, next) = ("t\(chain)-\(index)", "t\(chain)-\(index + 1)")
                let long = try TaskSchedule(start: start, days: 3)
                for (suffix, branch) in [("a", long), ("b", try TaskSchedule(start: start, days: 1))] {
                    tasks.append(
                        try GanttTask(
                            id: step + suffix, title: "Branch \(index)\(suffix)", parentID: "c\(chain)",
                            kind: .activity(schedule: branch, progress: 0)))
                }
                dependencies += [
                    TaskDependency(predecessorID: step, successorID: step + "a"),
                    TaskDependency(predecessorID: step + "a", successorID: next),
                    TaskDependency(predecessorID: step, successorID: step + "b", type: .startToStart, lag: 1),
                    TaskDependency(predecessorID: step + "b", successorID: next, type: .finishToFinish, lag: 0),
                ]
                start = long.end
            }
        }
        let settings = PlanSettings(scheduling: .automatic, calendar: .allDaysWorking)
        let (plan, token) = try Self.editablePlan(
            PlanDocument(
                title: "Chains",
                state: PlanState(tasks: try TaskCollection(tasks, dependencies: dependencies), settings: settings)))
        let server = try ServerProcess.start()
        defer { _ = server.terminate() }
        var configuration = Self.configuration(
            server, token: token, plan: plan, viewers: 20, sample: 3, editors: 2, rate: 60, duration: 2)
        configuration.conflictRatio = 0.2
        let report = try await LoadRun.run(configuration)
        #expect(report.converged, "notes: \(report.notes)")
        #expect(report.notes.isEmpty, "\(report.notes)")
        let sent = try #require(Self.figure(report, "conflict_sent"))
        let rejected = try #require(Self.figure(report, "conflict_rejected_conflict"))
        #expect(sent > 0 && rejected > 0)
        #expect(rejected + (Self.figure(report, "conflict_rejected_stale") ?? 0) == sent)
        // Every dependency holds in the stored plan (scheduling.md §4.7).
        let stored = try #require(try TestDatabase.store.loadPlan(plan)).document.state
        let settle = ScheduleSettle(stored.tasks, time: WorkingTime(stored.settings.calendar))
        #expect(settle.settleAll(own: stored.tasks.tasks.map(\.id)) == .settled(pushed: []))
    }

    @Test("a snapshot over 64 KiB arrives in fragments: hashed in pieces by viewers, joined by the sample")
    func largeSnapshot() async throws {
        var tasks: [GanttTask] = []
        for group in 0..<8 {
            tasks.append(try GanttTask(id: "g\(group)", title: "Group \(group)", kind: .summary))
            for index in 0..<150 {
                let schedule = try TaskSchedule(start: try CivilDate("2026-09-01"), days: 1 + index % 20)
                tasks.append(
                    try GanttTask(
                        id: "t\(group)-\(index)", title: "Task \(group)-\(index) with a longer title",
                        parentID: "g\(group)", kind: .activity(schedule: schedule, progress: Double(index % 101))))
            }
        }
        let (plan, token) = try Self.editablePlan(
            PlanDocument(title: "Large", state: PlanState(tasks: try TaskCollection(tasks))))
        let server = try ServerProcess.start()
        defer { _ = server.terminate() }
        let configuration = Self.configuration(
            server, token: token, plan: plan, viewers: 30, sample: 3, editors: 2, rate: 30, duration: 1.5)
        let report = try await LoadRun.run(configuration)
        #expect(try Self.expectEveryVersionDelivered(report, viewers: 30) > 10)
        // Every viewer's snapshot came in pieces (the plan is well over the 64 KiB of one fragment).
        #expect(try #require(Self.figure(report, "fragmented_messages")) >= 30)
    }
}

@Suite("plan-load: failures are reported", .serialized, .database)
struct LoadRunFailureTests {
    @Test("nothing listening: the run fails at once, saying that no viewer could subscribe", .timeLimit(.minutes(1)))
    func unreachable() async throws {
        // A port nothing listens on: bind one, note it, close it.
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(probe, generic, length) == 0 && getsockname(probe, generic, &length) == 0
            }
        }
        close(probe)
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        var configuration = LoadConfiguration(server: "ws://127.0.0.1:\(port)/ws", token: "t", plans: ["p"])
        configuration.viewers = 5
        do {
            _ = try await LoadRun.run(configuration)
            Issue.record("a run against a closed port succeeded")
        } catch {
            #expect(
                "\(error)".contains("no viewer could subscribe at ws://127.0.0.1:\(port)/ws (5 closed)"), "\(error)")
        }
    }

    @Test("a server killed mid-run: the run does not converge and says why")
    func serverKilled() async throws {
        let (plan, token) = try LoadRunTests.demoPlan()
        let server = try ServerProcess.start()
        var configuration = LoadRunTests.configuration(
            server, token: token, plan: plan, viewers: 20, sample: 2, editors: 1, rate: 20, duration: 3)
        configuration.settleTimeout = 2
        // The plan's commits, heard as NOTIFY; the stream ends after 30 s at the latest.
        let (versions, heard) = AsyncStream<Int>.makeStream()
        let listener = try PlanListener(conninfo: TestDatabase.url) { event in
            if case .committed(plan, let version) = event { heard.yield(version) }
        }
        try listener.start()
        defer { listener.stop() }
        let timeout = Task {
            try await Task.sleep(for: .seconds(30))
            heard.finish()
        }
        defer { timeout.cancel() }
        let run = Task { [configuration] in try await LoadRun.run(configuration) }
        // Once proposals are flowing (the fifth version is committed), kill the server.
        var reached = 0
        for await version in versions where version >= 5 {
            reached = version
            break
        }
        try #require(reached >= 5, "no proposals were committed")
        server.crash()
        let report = try await run.value
        #expect(!report.converged)
        #expect(LoadRunTests.figure(report, "viewer_closes") == 20)
        #expect(!report.notes.isEmpty)
    }
}
