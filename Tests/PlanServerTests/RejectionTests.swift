import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing

extension WritingTests {
    @Suite("rejections")
    struct Rejections {
        @Test(
            "every rejection code the server produces, provoked: nothing changes, nobody else hears of it",
            .serialized, arguments: RejectionCase.all)
        func rejection(_ rejection: RejectionCase) async throws {
            let scene = try await WritingScene.make()
            defer { scene.close() }
            let proposer: TestClient
            var extra: TestClient?
            switch rejection.proposer {
            case .editor:
                proposer = scene.editor
            case .viewer:
                proposer = scene.viewer
            case .stranger:
                let stranger = try TestClient(
                    url: scene.server.url, token: scene.fixture.strangerToken, transport: SharedTransport.instance)
                try await stranger.ready()
                proposer = stranger
                extra = stranger
            }
            defer { extra?.close() }
            let plan = rejection.missingPlan ? TestDatabase.unique("no-such-plan") : scene.fixture.plan
            let answer = try await proposer.proposeRaw(
                id: "rejected-1", plan: plan, baseVersion: rejection.baseVersion, op: rejection.op)
            guard case .rejected(let id, let answeredPlan, let code, let message, let version, _, _) = answer else {
                Issue.record("expected rejected \(rejection.code.rawValue), got \(answer)")
                return
            }
            #expect(code == rejection.code, "message: \(message)")
            #expect(id == "rejected-1" && answeredPlan == plan)
            if rejection.code.judgesData { #expect(version == 0, "version of a judgement") }
            try await scene.expectUnchanged()
        }

        @Test("two editors racing on the same original: exactly one ack, the other staleTask at the winner's version")
        func race() async throws {
            let scene = try await WritingScene.make()
            defer { scene.close() }
            let plan = scene.fixture.plan
            let second = try TestClient(
                url: scene.server.url, token: try scene.fixture.user(.editor), transport: SharedTransport.instance)
            defer { second.close() }
            try await second.ready()
            let spec = scene.initial["spec"]!
            let one = spec.with(title: "Spec by one")
            let two = spec.with(title: "Spec by two")
            scene.editor.connection.propose(
                .replace(previous: spec, proposed: one), plan: plan, id: "race", baseVersion: 0)
            second.connection.propose(.replace(previous: spec, proposed: two), plan: plan, id: "race", baseVersion: 0)
            let answers = [try await scene.editor.answer(to: "race"), try await second.answer(to: "race")]
            let acks = answers.compactMap(\.ackVersion)
            let rejections = answers.compactMap(\.rejectionCode)
            #expect(acks == [1] && rejections == [.staleTask])
            if case .rejected(_, _, _, _, let version, _, _)? = answers.first(where: { $0.rejectionCode != nil }) {
                #expect(version == 1, "judged against the winner's data")
            }
            let winner = answers[0].ackVersion == 1 ? one : two
            let confirmed = try await scene.viewer.nextMessage()
            #expect(confirmed.confirmedVersion == 1)
            let marker = try await scene.proposeMarker()
            #expect(marker.ackVersion == 2)
            #expect(try await scene.viewer.nextMessage().mutationID == marker.proposalID)
            #expect(try await scene.freshCopy()["spec"] == winner)
        }

        @Test("an old baseVersion is no reason to reject: staleness is judged by values")
        func oldBaseVersion() async throws {
            let scene = try await WritingScene.make()
            defer { scene.close() }
            let plan = scene.fixture.plan
            let spec = scene.initial["spec"]!
            let review = scene.initial["review"]!
            let build = scene.initial["build"]!
            #expect(
                try await scene.editor.propose(.replace(previous: spec, proposed: spec.with(title: "S")), plan: plan)
                    .ackVersion == 1)
            #expect(
                try await scene.editor.propose(
                    .reorder(previous: review, relativeTo: spec.with(title: "S"), position: .before), plan: plan
                )
                .ackVersion == 2)
            // Formed at version 0, still equal to the current Build: applied at version 3.
            let late = try await scene.editor.propose(
                .replace(previous: build, proposed: build.with(title: "Build!")), plan: plan, baseVersion: 0)
            #expect(late.ackVersion == 3)
            // Formed at version 0 with Spec as it was then: stale, judged against version 3.
            let stale = try await scene.editor.propose(
                .replace(previous: spec, proposed: spec.with(title: "Spec?")), plan: plan, baseVersion: 0)
            guard case .rejected(_, _, .staleTask, _, 3, _, _) = stale else {
                Issue.record("expected staleTask at version 3, got \(stale)")
                return
            }
        }

        @Test(
            "a proposal rejected for its values as the connection's first request still names the plan's version")
        func valueRejectionVersion() async throws {
            let scene = try await WritingScene.make()
            defer { scene.close() }
            #expect(try await scene.proposeMarker().ackVersion == 1)
            let fresh = try TestClient(
                url: scene.server.url, token: scene.fixture.editorToken, transport: SharedTransport.instance)
            defer { fresh.close() }
            try await fresh.ready()
            let answer = try await fresh.proposeRaw(
                id: "first-feb", plan: scene.fixture.plan, baseVersion: 1,
                op:
                    #"{"type":"add","task":{"id":"feb","title":"Feb","kind":"activity","schedule":{"start":"2026-02-30","end":"2026-03-05"}}}"#
            )
            guard case .rejected(_, let plan, .invalidSchedule, _, let version, _, _) = answer else {
                Issue.record("expected invalidSchedule, got \(answer)")
                return
            }
            #expect(plan == scene.fixture.plan)
            #expect(version == 1, "the version the proposal was judged against")
        }

        @Test("tooLarge: an add to a plan of maxTasksPerPlan tasks is rejected; after a removal it fits again")
        func tooLarge() async throws {
            // The rule is the same at any limit; the standard one (200,000) made a plan that took
            // seconds to build, store and load.
            let limit = 2_000
            let date = Demo.date("2026-10-01")
            let tasks = try (0..<limit).map { try GanttTask(id: "m-\($0)", title: "M", kind: .milestone(date: date)) }
            let fixture = try PlanFixture.make(
                PlanDocument(title: "Full", state: PlanState(tasks: try TaskCollection(tasks))))
            let server = try ServerProcess.start(arguments: ["--max-tasks-per-plan", String(limit)])
            let editor = try await TestClient.connected(to: server, token: fixture.editorToken)
            defer { editor.close() }
            let extra = try GanttTask(id: "one-more", title: "One more", kind: .milestone(date: date))
            let refused = try await editor.propose(.add(extra), plan: fixture.plan, id: "too-many", baseVersion: 0)
            guard case .rejected(_, _, .tooLarge, _, 0, _, _) = refused else {
                Issue.record("expected tooLarge at version 0, got \(refused)")
                return
            }
            // Nothing was stored: the next change is version 1, and after it one more task fits.
            let removed = try await editor.propose(.remove(previous: tasks[0]), plan: fixture.plan, baseVersion: 0)
            #expect(removed.ackVersion == 1)
            let added = try await editor.propose(.add(extra), plan: fixture.plan, id: "fits-now", baseVersion: 1)
            #expect(added.ackVersion == 2)
        }
    }
}
