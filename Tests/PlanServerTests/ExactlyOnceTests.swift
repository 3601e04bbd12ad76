import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing

extension WritingTests {
    @Suite("exactly once")
    struct ExactlyOnce {
        @Test("exactly once: re-sent on a new connection, an ack or a rejection comes back unchanged, nothing twice")
        func exactlyOnce() async throws {
            let scene = try await WritingScene.make()
            defer { scene.close() }
            let plan = scene.fixture.plan
            let spec = scene.initial["spec"]!
            let qa = try GanttTask(id: "qa", title: "QA", parentID: "impl", kind: .activity(schedule: nil, progress: 0))
            let add = PlanOperation.add(qa)
            // Stale now (Spec is not yet "Spec v2"), but it would apply after once-rename.
            let early = PlanOperation.replace(
                previous: spec.with(title: "Spec v2"), proposed: spec.with(title: "Spec v3"))
            let rename = PlanOperation.replace(previous: spec, proposed: spec.with(title: "Spec v2"))

            #expect(
                try await scene.editor.propose(add, plan: plan, id: "once-add")
                    == .ack(id: "once-add", plan: plan, version: 1))
            let stale = try await scene.editor.propose(early, plan: plan, id: "once-early")
            #expect(stale.rejectionCode == .staleTask)
            #expect(try await scene.editor.propose(rename, plan: plan, id: "once-rename").ackVersion == 2)
            for version in 1...2 { #expect(try await scene.viewer.nextMessage().confirmedVersion == version) }
            scene.editor.close()
            _ = try await scene.editor.expectDisconnect()

            let again = try TestClient(
                url: scene.server.url, token: scene.fixture.editorToken, transport: SharedTransport.instance)
            defer { again.close() }
            try await again.ready()
            #expect(
                try await again.propose(add, plan: plan, id: "once-add", baseVersion: 0)
                    == .ack(id: "once-add", plan: plan, version: 1))
            #expect(try await again.propose(early, plan: plan, id: "once-early", baseVersion: 0) == stale)
            // The same id twice at once, both before any answer: one confirmed, two identical acks.
            let twice = PlanOperation.link(TaskDependency(predecessorID: "qa", successorID: "release"))
            again.connection.propose(twice, plan: plan, id: "once-twice", baseVersion: 2)
            again.connection.propose(twice, plan: plan, id: "once-twice", baseVersion: 2)
            let firstAnswer = try await again.answer(to: "once-twice")
            let secondAnswer = try await again.answer(to: "once-twice")
            #expect(firstAnswer == .ack(id: "once-twice", plan: plan, version: 3))
            #expect(secondAnswer == firstAnswer)

            // The viewer heard of version 3 only; then the marker is version 4.
            let third = try await scene.viewer.nextMessage()
            #expect(third.confirmedVersion == 3 && third.mutationID == "once-twice")
            let marker = try await scene.proposeMarker(on: again)
            #expect(marker.ackVersion == 4)
            #expect(try await scene.viewer.nextMessage().mutationID == marker.proposalID)
            let copy = try await scene.freshCopy()
            #expect(copy.tasks.filter { $0.id == "qa" }.count == 1)
            #expect(copy["spec"]?.title == "Spec v2")
            #expect(copy.dependencies.filter { $0.predecessorID == "qa" }.count == 1)
        }

        @Test("exactly once survives a server restart: the decisions come from the database")
        func exactlyOnceAfterRestart() async throws {
            let fixture = try PlanFixture.make()
            var server = try ServerProcess.start()
            let editor = try await TestClient.connected(to: server, token: fixture.editorToken)
            let copy = try await editor.subscribe(fixture.plan)
            let plan = fixture.plan
            let spec = copy["spec"]!
            let add = PlanOperation.add(
                try GanttTask(id: "qa", title: "QA", parentID: "impl", kind: .activity(schedule: nil, progress: 0)))
            let early = PlanOperation.replace(
                previous: spec.with(title: "Spec v2"), proposed: spec.with(title: "Spec v3"))
            let rename = PlanOperation.replace(previous: spec, proposed: spec.with(title: "Spec v2"))
            let noop = PlanOperation.replace(previous: spec, proposed: spec)
            #expect(try await editor.propose(add, plan: plan, id: "r-add").ackVersion == 1)
            let noopAck = try await editor.propose(noop, plan: plan, id: "r-noop")
            #expect(noopAck == .ack(id: "r-noop", plan: plan, version: 1, noop: true))
            let stale = try await editor.propose(early, plan: plan, id: "r-early")
            #expect(stale.rejectionCode == .staleTask)
            #expect(try await editor.propose(rename, plan: plan, id: "r-rename").ackVersion == 2)
            editor.close()
            server.terminate()

            server = try ServerProcess.start()
            let viewer = try await TestClient.connected(to: server, token: fixture.viewerToken)
            defer { viewer.close() }
            _ = try await viewer.subscribe(plan)
            let again = try await TestClient.connected(to: server, token: fixture.editorToken)
            defer { again.close() }
            #expect(
                try await again.propose(add, plan: plan, id: "r-add", baseVersion: 0)
                    == .ack(id: "r-add", plan: plan, version: 1))
            #expect(try await again.propose(noop, plan: plan, id: "r-noop", baseVersion: 0) == noopAck)
            #expect(try await again.propose(early, plan: plan, id: "r-early", baseVersion: 0) == stale)
            let markerTask = copy["release"]!
            let marker = try await again.propose(
                .replace(previous: markerTask, proposed: markerTask.with(title: "Launch")), plan: plan, id: "r-marker")
            #expect(marker.ackVersion == 3)
            let next = try await viewer.nextMessage()
            #expect(next.confirmedVersion == 3 && next.mutationID == "r-marker")
        }

        @Test(
            "exactly once for every decision: a baseVersion-above-current rejection re-sent later is not applied")
        func aheadRejectionIsADecision() async throws {
            let scene = try await WritingScene.make()
            defer { scene.close() }
            let plan = scene.fixture.plan
            let review = scene.initial["review"]!
            let ahead = PlanOperation.replace(previous: review, proposed: review.with(title: "Ahead"))
            let first = try await scene.editor.propose(ahead, plan: plan, id: "ahead", baseVersion: 1)
            #expect(first.rejectionCode == .badMessage)
            #expect(try await scene.proposeMarker().ackVersion == 1)
            // The identical message again, now that version 1 exists: the recorded answer, not a fresh judgement.
            let again = try await scene.editor.propose(ahead, plan: plan, id: "ahead", baseVersion: 1)
            #expect(again == first)
            #expect(try await scene.freshCopy()["review"] == review)
        }
    }
}
