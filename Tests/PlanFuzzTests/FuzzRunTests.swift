import ChronoSketchCore
import PlanFuzz
import PlanStore
import PlanTestSupport
import Testing

/// A fresh copy of the demo plan (`ops/demo-plan.json`) and its owner, on a real server process.
struct FuzzScene {
    let plan: String
    let token: String
    let server: ServerProcess

    static func make() throws -> FuzzScene {
        let store = TestDatabase.store
        let plan = TestDatabase.unique("fuzz")
        let json = try JSONValue(parsing: readAll(TestDatabase.repositoryRoot + "/ops/demo-plan.json"))
        try store.createPlan(id: plan, document: try PlanDocument(json: json))
        let user = TestDatabase.unique("fuzzer")
        let token = try store.createUser(user)
        try store.grant(user: user, plan: plan, role: .owner)
        return FuzzScene(plan: plan, token: token, server: try ServerProcess.start())
    }

    func options(seed: UInt64, seconds: Double, mode: FuzzOptions.Mode) -> FuzzOptions {
        FuzzOptions(
            port: server.port, token: token, plan: plan, seed: seed, seconds: seconds, mode: mode, pid: server.pid)
    }
}

@Suite("Fuzzing a real server (bounded)", .serialized, .database)
struct FuzzRunTests {
    /// Both fuzzers with a fixed seed, about a minute in all, NUL strings and every boundary length
    /// included.
    @Test("frames and messages for 60 s with seed 20260: no findings")
    func boundedRun() async throws {
        let scene = try FuzzScene.make()
        let options = scene.options(seed: 20260, seconds: 60, mode: .both)
        let report = try await offThePool { FuzzRunner(options: options).run() }
        #expect(report.findings.isEmpty, "\(report)\nserver log: \(scene.server.log.suffix(2000))")
        #expect(report.frameCases > 50 && report.messageSessions > 50, "\(report)")
        #expect(report.acks > 0, "some proposals were confirmed: \(report)")
        scene.server.terminate()
    }
}
