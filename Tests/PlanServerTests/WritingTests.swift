import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanTestSupport
import Synchronization
import Testing

@Suite("Server: writing", .serialized)
struct WritingTests {
    @Test("every op of §5 is confirmed: subscribers get the documented changes before the proposer's ack")
    func everyOp() async throws {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let log = ArrivalLog()
        defer { log.close() }
        // Both connections share one client transport, whose single service thread logs what it
        // reads in order across them. The viewer connects first, so on both ends its socket is served
        // before the proposer's: a server that queues the viewer's confirmed before the ack (as it
        // must) delivers it first; one that acks before committing and broadcasting does not.
        try await log.connect("viewer", url: server.url, token: fixture.viewerToken)
        try await log.connect("editor", url: server.url, token: fixture.editorToken)
        log.send("viewer", .subscribe(plan: fixture.plan))
        log.send("editor", .subscribe(plan: fixture.plan))
        guard case .snapshot(let snapshot, _) = try await log.first("viewer", "snapshot").message else {
            throw HarnessError("unexpected message")
        }
        _ = try await log.first("editor", "snapshot")
        let plan = fixture.plan
        var copy = ClientPlanCopy(snapshot)
        var version = 0

        /// Proposes, checks the order of arrivals, returns the changes.
        func confirm(_ operation: PlanOperation, _ id: String) async throws -> PlanChanges {
            version += 1
            let expected = version
            log.send("editor", .propose(id: id, plan: plan, baseVersion: expected - 1, operation: operation))
            let ack = try await log.first("editor", "ack") { $0 == .ack(id: id, plan: plan, version: expected) }
            let seen = try await log.first("viewer", "confirmed") { $0.confirmedVersion == expected }
            let own = try await log.first("editor", "confirmed") { $0.confirmedVersion == expected }
            #expect(seen.position < ack.position, "\(id): the viewer's confirmed arrived after the proposer's ack")
            #expect(own.position < ack.position, "\(id): the proposer's own confirmed arrived after its ack")
            #expect(seen.message == own.message)
            guard case .confirmed(_, _, let mutationID, let user, let changes) = seen.message else {
                throw HarnessError("not a confirmed")
            }
            #expect(mutationID == id && user == fixture.editor)
            try copy.apply(seen.message)
            return changes
        }

        let spec = copy["spec"]!
        let review = copy["review"]!
        let build = copy["build"]!
        let release = copy["release"]!
        let date = Demo.date

        // replace, moving Build from Implementation to Design (a group change) with progress 40.
        let movedBuild = build.with(parentID: "design").with(
            kind: .activity(schedule: build.schedule, progress: 40))
        let replaced = try await confirm(.replace(previous: build, proposed: movedBuild), "op-replace")
        #expect(replaced.upsert == [movedBuild])
        #expect(replaced.remove.isEmpty && replaced.order == nil && replaced.dependencies == nil)
        #expect(replaced.entries == nil)
        #expect(
            replaced.summaries == [
                "design": SummaryValues(
                    start: date("2026-09-08"), end: date("2026-09-21"), lastDate: date("2026-09-20"), progress: 20),
                "impl": SummaryValues(start: nil, end: nil, lastDate: nil, progress: 0),
            ])

        // add: QA under Implementation, which gets bounds again.
        let qa = try GanttTask(
            id: "qa", title: "QA", parentID: "impl",
            kind: .activity(schedule: try TaskSchedule(start: date("2026-09-22"), days: 3), progress: 50))
        let added = try await confirm(.add(qa), "op-add")
        #expect(added.upsert == [qa] && added.remove.isEmpty && added.order == nil && added.dependencies == nil)
        #expect(
            added.summaries == [
                "impl": SummaryValues(
                    start: date("2026-09-22"), end: date("2026-09-25"), lastDate: date("2026-09-24"), progress: 50)
            ])

        // reorder: Review before Spec; only Design's child slots are permuted.
        let reordered = try await confirm(.reorder(previous: review, relativeTo: spec, position: .before), "op-reorder")
        #expect(reordered.order == ["design", "review", "spec", "impl", "build", "release", "qa"])
        #expect(reordered.upsert.isEmpty && reordered.remove.isEmpty && reordered.dependencies == nil)
        #expect(reordered.summaries.isEmpty)

        // remove: Spec, with its dependency Spec → Build.
        let removed = try await confirm(.remove(previous: spec), "op-remove")
        #expect(removed.remove == ["spec"] && removed.upsert.isEmpty && removed.order == nil)
        #expect(removed.dependencies == [TaskDependency(predecessorID: "build", successorID: "release")])
        #expect(
            removed.summaries == [
                "design": SummaryValues(
                    start: date("2026-09-11"), end: date("2026-09-21"), lastDate: date("2026-09-20"), progress: 20)
            ])

        // link and unlink.
        let linked = try await confirm(.link(TaskDependency(predecessorID: "qa", successorID: "release")), "op-link")
        #expect(
            linked.dependencies == [
                TaskDependency(predecessorID: "build", successorID: "release"),
                TaskDependency(predecessorID: "qa", successorID: "release"),
            ])
        #expect(linked.upsert.isEmpty && linked.remove.isEmpty && linked.summaries.isEmpty && linked.order == nil)
        let unlinked = try await confirm(
            .unlink(TaskDependency(predecessorID: "build", successorID: "release")), "op-unlink")
        #expect(unlinked.dependencies == [TaskDependency(predecessorID: "qa", successorID: "release")])
        #expect(unlinked.upsert.isEmpty && unlinked.summaries.isEmpty)

        // timeline.apply: the Workshop one hour later, then its booking moves to Room 2.
        let e1 = Demo.document.state.timeline.entry("e1")!
        let a1 = Demo.document.state.timeline.assignment("a1")!
        let later = try e1.with(start: Demo.time("2026-09-09T10:00"), end: Demo.time("2026-09-09T13:30"))
        let moved = try await confirm(
            .timelineApply(
                original: TimelineAssignedEntry(entry: e1, assignment: a1),
                proposed: TimelineAssignedEntry(entry: later, assignment: a1)), "op-timeline-move")
        #expect(moved == PlanChanges(entries: ["e1"]))
        let rebooked = try await confirm(
            .timelineApply(
                original: TimelineAssignedEntry(entry: later, assignment: a1),
                proposed: TimelineAssignedEntry(entry: later, assignment: a1.with(resourceID: "room-2"))),
            "op-timeline-rebook")
        #expect(rebooked == PlanChanges(entries: ["e1"]))

        // timeline.add: a Planning booked in both rooms; timeline.remove: the Retro.
        let planning = try TimelineEntry(
            id: "e3", title: "Planning", start: Demo.time("2026-09-15T10:00"), end: Demo.time("2026-09-15T11:00"))
        let bookings = [
            try TimelineAssignment(id: "a3", entryID: "e3", resourceID: "room-1"),
            try TimelineAssignment(id: "a4", entryID: "e3", resourceID: "room-2"),
        ]
        let addedEntry = try await confirm(.timelineAdd(entry: planning, assignments: bookings), "op-timeline-add")
        #expect(addedEntry == PlanChanges(entries: ["e3"]))
        let e2 = Demo.document.state.timeline.entry("e2")!
        let removedEntry = try await confirm(.timelineRemove(entry: e2), "op-timeline-remove")
        #expect(removedEntry == PlanChanges(entries: ["e2"]))

        // The viewer never got an ack; the copy fed only by the changes equals a fresh snapshot.
        let arrivals = await log.all()
        #expect(arrivals.allSatisfy { $0.tag == "editor" || $0.message.typeName != "ack" })
        let fresh = try await TestClient.connected(to: server, token: fixture.viewerToken)
        defer { fresh.close() }
        let freshCopy = try await fresh.subscribe(plan)
        #expect(freshCopy == copy)
        #expect(freshCopy.version == 10)
        #expect(freshCopy["build"] == movedBuild && freshCopy["spec"] == nil && freshCopy["release"] == release)
        let page = try await fresh.timelinePage(plan)
        #expect(Set(page.entries) == [later, planning])
        #expect(Set(page.assignments) == Set([a1.with(resourceID: "room-2")] + bookings))
    }

    @Test("a proposal that changes nothing is acked noop at the current version, with no broadcast")
    func noops() async throws {
        let scene = try await WritingScene.make()
        defer { scene.close() }
        let plan = scene.fixture.plan
        let spec = scene.initial["spec"]!
        let review = scene.initial["review"]!
        let renamed = spec.with(title: "Spec v2")
        let first = try await scene.editor.propose(.replace(previous: spec, proposed: renamed), plan: plan)
        #expect(first.ackVersion == 1)
        let firstSeen = try await scene.viewer.nextMessage()
        #expect(firstSeen.confirmedVersion == 1, "\(firstSeen)")

        let noop = ServerMessage.ack(id: "", plan: plan, version: 1, noop: true)
        let same = try await scene.editor.propose(
            .replace(previous: renamed, proposed: renamed), plan: plan, id: "noop-replace")
        #expect(same == noop.with(id: "noop-replace"))
        // Spec is directly before Review: both ways of saying so are no-ops.
        let before = try await scene.editor.propose(
            .reorder(previous: renamed, relativeTo: review, position: .before), plan: plan, id: "noop-before")
        #expect(before == noop.with(id: "noop-before"))
        let after = try await scene.editor.propose(
            .reorder(previous: review, relativeTo: renamed, position: .after), plan: plan, id: "noop-after")
        #expect(after == noop.with(id: "noop-after"))
        let e1 = Demo.document.state.timeline.entry("e1")!
        let a1 = Demo.document.state.timeline.assignment("a1")!
        let workshop = TimelineAssignedEntry(entry: e1, assignment: a1)
        let unmoved = try await scene.editor.propose(
            .timelineApply(original: workshop, proposed: workshop), plan: plan, id: "noop-timeline")
        #expect(unmoved == noop.with(id: "noop-timeline"))

        // Nothing was broadcast: the viewer's next message is the next real change, version 2.
        let marker = try await scene.proposeMarker()
        #expect(marker.ackVersion == 2)
        let next = try await scene.viewer.nextMessage()
        #expect(next.confirmedVersion == 2 && next.mutationID == marker.proposalID)
        // A no-op is a decision: re-sent later, the same noop ack at version 1.
        let again = try await scene.editor.propose(
            .replace(previous: renamed, proposed: renamed), plan: plan, id: "noop-replace")
        #expect(again == noop.with(id: "noop-replace"))
        #expect(try await scene.freshCopy().version == 2)
    }

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
        guard case .rejected(let id, let answeredPlan, let code, let message, let version, _) = answer else {
            Issue.record("expected rejected \(rejection.code.rawValue), got \(answer)")
            return
        }
        #expect(code == rejection.code, "message: \(message)")
        #expect(id == "rejected-1" && answeredPlan == plan)
        if rejection.code.judgesData { #expect(version == 0, "version of a judgement") }
        try await scene.expectUnchanged()
    }

    @Test("more than 200 proposals in a burst on one connection: the excess is rateLimited and never applied")
    func rateLimited() async throws {
        let scene = try await WritingScene.make()
        defer { scene.close() }
        let plan = scene.fixture.plan
        let count = 1000
        var operations: [String: PlanOperation] = [:]
        for index in 0..<count {
            let task = try GanttTask(
                id: "burst-\(index)", title: "Burst \(index)", kind: .milestone(date: Demo.date("2026-10-02")))
            operations[task.id] = .add(task)
            scene.editor.connection.propose(.add(task), plan: plan, id: task.id, baseVersion: 0)
        }
        var acked: [String: Int] = [:]
        var limited: Set<String> = []
        for _ in 0..<count {
            switch try await scene.editor.nextAnswer() {
            case .ack(let id, _, let version, false, _): acked[id] = version
            case .rejected(let id, _, .rateLimited, _, _, _): limited.insert(id)
            case let other: Issue.record("unexpected answer \(other)")
            }
        }
        #expect(acked.count + limited.count == count)
        #expect(acked.count >= 200, "the first 200 fit the limit")
        #expect(!limited.isEmpty, "1000 proposals at once exceed 200 per second")
        // (The ack versions themselves are not checked here: see pipelinedChains.)
        let copy = try await scene.freshCopy()
        let burst = Set(copy.tasks.map(\.id).filter { $0.hasPrefix("burst-") })
        #expect(burst == Set(acked.keys))
        #expect(burst.isDisjoint(with: limited))
        #expect(copy.version == acked.count)

        // rateLimited is not a decision: the same id, re-sent on a fresh connection, is judged afresh.
        let retry = try #require(limited.sorted().first)
        let again = try TestClient(
            url: scene.server.url, token: scene.fixture.editorToken, transport: SharedTransport.instance)
        defer { again.close() }
        try await again.ready()
        // (baseVersion 0 and any ack version: after a burst the server's candidate version can be
        // wrong, see pipelinedChains; that is not what this test is about.)
        let answer = try await again.propose(operations[retry]!, plan: plan, id: retry, baseVersion: 0)
        #expect(answer.ackVersion != nil, "\(answer)")
        let after = try await scene.freshCopy()
        #expect(after[retry] != nil && after.version == acked.count + 1)
    }

    @Test("exactly once: re-sent on a new connection, an ack or a rejection comes back unchanged, nothing twice")
    func exactlyOnce() async throws {
        let scene = try await WritingScene.make()
        defer { scene.close() }
        let plan = scene.fixture.plan
        let spec = scene.initial["spec"]!
        let qa = try GanttTask(id: "qa", title: "QA", parentID: "impl", kind: .activity(schedule: nil, progress: 0))
        let add = PlanOperation.add(qa)
        // Stale now (Spec is not yet "Spec v2"), but it would apply after once-rename.
        let early = PlanOperation.replace(previous: spec.with(title: "Spec v2"), proposed: spec.with(title: "Spec v3"))
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
        let early = PlanOperation.replace(previous: spec.with(title: "Spec v2"), proposed: spec.with(title: "Spec v3"))
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
        scene.editor.connection.propose(.replace(previous: spec, proposed: one), plan: plan, id: "race", baseVersion: 0)
        second.connection.propose(.replace(previous: spec, proposed: two), plan: plan, id: "race", baseVersion: 0)
        let answers = [try await scene.editor.answer(to: "race"), try await second.answer(to: "race")]
        let acks = answers.compactMap(\.ackVersion)
        let rejections = answers.compactMap(\.rejectionCode)
        #expect(acks == [1] && rejections == [.staleTask])
        if case .rejected(_, _, _, _, let version, _)? = answers.first(where: { $0.rejectionCode != nil }) {
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
        guard case .rejected(_, _, .staleTask, _, 3, _) = stale else {
            Issue.record("expected staleTask at version 3, got \(stale)")
            return
        }
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
        guard case .rejected(_, let plan, .invalidSchedule, _, let version, _) = answer else {
            Issue.record("expected invalidSchedule, got \(answer)")
            return
        }
        #expect(plan == scene.fixture.plan)
        #expect(version == 1, "the version the proposal was judged against")
    }

    @Test("tooLarge: an add to a plan of maxTasksPerPlan tasks is rejected; after a removal it fits again")
    func tooLarge() async throws {
        let limit = ProtocolLimits.standard.maxTasksPerPlan
        let date = Demo.date("2026-10-01")
        let tasks = try (0..<limit).map { try GanttTask(id: "m-\($0)", title: "M", kind: .milestone(date: date)) }
        let fixture = try PlanFixture.make(
            PlanDocument(title: "Full", state: PlanState(tasks: try TaskCollection(tasks))))
        let server = try ServerProcess.start()
        let editor = try await TestClient.connected(to: server, token: fixture.editorToken)
        defer { editor.close() }
        let extra = try GanttTask(id: "one-more", title: "One more", kind: .milestone(date: date))
        let refused = try await editor.propose(.add(extra), plan: fixture.plan, id: "too-many", baseVersion: 0)
        guard case .rejected(_, _, .tooLarge, _, 0, _) = refused else {
            Issue.record("expected tooLarge at version 0, got \(refused)")
            return
        }
        // Nothing was stored: the next change is version 1, and after it one more task fits.
        let removed = try await editor.propose(.remove(previous: tasks[0]), plan: fixture.plan, baseVersion: 0)
        #expect(removed.ackVersion == 1)
        let added = try await editor.propose(.add(extra), plan: fixture.plan, id: "fits-now", baseVersion: 1)
        #expect(added.ackVersion == 2)
    }

    @Test(
        "chains of dependent proposals sent at once: each is acked in order with the version of its confirmed")
    func pipelinedChains() async throws {
        // The fault needs the server's own commit notification to overtake the commit's completion:
        // a race, so many chains run on many plans, round after round, until one goes wrong.
        let server = try ServerProcess.start()
        for round in 1...40 {
            let problems = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<12 {
                    group.addTask { try await WritingTests.chain(190, on: server) }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            guard problems.isEmpty else {
                Issue.record("round \(round): \(problems.count) problems, first \(problems.prefix(3))")
                return
            }
        }
    }

    /// On a fresh plan: `count` renames of Review, each naming the previous one's result, sent at
    /// once. Returns what went wrong: every ack must carry the version its confirmed carries.
    static func chain(_ count: Int, on server: ServerProcess) async throws -> [String] {
        let fixture = try PlanFixture.make()
        let plan = fixture.plan
        let editor = try await TestClient.connected(to: server, token: fixture.editorToken)
        defer { editor.close() }
        let copy = try await editor.subscribe(plan)
        let review = copy["review"]!
        for index in 0..<count {
            let previous = index == 0 ? review : review.with(title: "R\(index)")
            editor.connection.propose(
                .replace(previous: previous, proposed: review.with(title: "R\(index + 1)")), plan: plan,
                id: "chain-\(index)", baseVersion: 0)
        }
        var acks: [String: ServerMessage] = [:]
        var confirmed: [Int: String] = [:]
        while acks.count < count {
            switch try await editor.nextMessage() {
            case .confirmed(_, let version, let id, _, _): confirmed[version] = id
            case let answer where answer.proposalID != nil: acks[answer.proposalID!] = answer
            default: break
            }
        }
        return (0..<count).compactMap { index in
            let id = "chain-\(index)"
            guard acks[id] != .ack(id: id, plan: plan, version: index + 1) || confirmed[index + 1] != id else {
                return nil
            }
            return
                "\(id): answered \(String(describing: acks[id])); version \(index + 1) confirmed \(confirmed[index + 1] ?? "-")"
        }
    }
}

// MARK: - Rejection cases

/// One way to provoke a rejection code, proposed against the untouched demo plan.
struct RejectionCase: Sendable, CustomTestStringConvertible {
    enum Proposer: Sendable { case editor, viewer, stranger }

    let code: RejectionCode
    let label: String
    /// The `op` member, as JSON text.
    let op: String
    var proposer = Proposer.editor
    var baseVersion = 0
    var missingPlan = false

    var testDescription: String { "\(code.rawValue): \(label)" }

    init(
        _ code: RejectionCode, _ label: String, _ operation: PlanOperation, proposer: Proposer = .editor,
        baseVersion: Int = 0, missingPlan: Bool = false
    ) {
        self.init(code, label, json: operation.json, proposer: proposer, baseVersion: baseVersion)
        self.missingPlan = missingPlan
    }

    init(_ code: RejectionCode, _ label: String, json: String, proposer: Proposer = .editor, baseVersion: Int = 0) {
        self.code = code
        self.label = label
        op = json
        self.proposer = proposer
        self.baseVersion = baseVersion
    }

    static let all: [RejectionCase] = {
        let tasks = Demo.document.state.tasks
        let timeline = Demo.document.state.timeline
        let spec = tasks["spec"]!
        let review = tasks["review"]!
        let build = tasks["build"]!
        let design = tasks["design"]!
        let impl = tasks["impl"]!
        let e1 = timeline.entry("e1")!
        let a1 = timeline.assignment("a1")!
        let a2 = timeline.assignment("a2")!
        let workshop = TimelineAssignedEntry(entry: e1, assignment: a1)
        let ghost = try! GanttTask(id: "ghost", title: "Ghost", kind: .activity(schedule: nil, progress: 0))
        let e3 = try! TimelineEntry(
            id: "e3", title: "Planning", start: Demo.time("2026-09-15T10:00"), end: Demo.time("2026-09-15T11:00"))
        func link(_ from: String, _ to: String) -> TaskDependency {
            TaskDependency(predecessorID: from, successorID: to)
        }
        func booking(_ id: String, _ entry: String, _ resource: String) -> TimelineAssignment {
            try! TimelineAssignment(id: id, entryID: entry, resourceID: resource)
        }
        func addEntry(start: String, end: String) -> String {
            #"{"type":"timeline.add","entry":{"id":"e3","title":"Planning","start":"\#(start)","end":"\#(end)"},"assignments":[{"id":"a3","entryID":"e3","resourceID":"room-1"}]}"#
        }
        let valid = PlanOperation.replace(previous: review, proposed: review.with(title: "Review!"))
        return [
            RejectionCase(
                .staleTask, "replace whose previous is not the current task",
                .replace(previous: spec.with(title: "Spec (old)"), proposed: spec.with(title: "Spec v2"))),
            RejectionCase(
                .staleTask, "reorder relative to a stale sibling",
                .reorder(previous: spec, relativeTo: review.with(title: "Old review"), position: .after)),
            RejectionCase(.staleTask, "remove a task that does not exist", .remove(previous: ghost)),
            RejectionCase(.duplicateID, "add with an existing task id", .add(spec.with(title: "Spec again"))),
            RejectionCase(
                .duplicateID, "timeline.add with an existing entry id",
                .timelineAdd(entry: e1.with(title: "Copy"), assignments: [])),
            RejectionCase(
                .duplicateID, "timeline.add with an existing assignment id",
                .timelineAdd(entry: e3, assignments: [booking("a1", "e3", "room-1")])),
            RejectionCase(
                .blankID, "add a task whose id is white space",
                json: #"{"type":"add","task":{"id":"  ","title":"Blank","kind":"activity"}}"#),
            RejectionCase(
                .blankID, "add a task whose id is empty",
                json: #"{"type":"add","task":{"id":"","title":"Empty","kind":"summary"}}"#),
            RejectionCase(
                .blankID, "timeline.add an entry whose id is blank",
                json:
                    #"{"type":"timeline.add","entry":{"id":" ","title":"Blank","start":"2026-09-15T10:00","end":"2026-09-15T11:00"},"assignments":[]}"#
            ),
            RejectionCase(
                .identityChanged, "replace that changes the id",
                .replace(
                    previous: spec,
                    proposed: try! GanttTask(id: "spec-2", title: "Spec", parentID: "design", kind: spec.kind))),
            RejectionCase(
                .identityChanged, "timeline.apply that changes the entry id",
                .timelineApply(
                    original: workshop,
                    proposed: TimelineAssignedEntry(
                        entry: try! TimelineEntry(id: "e9", title: e1.title, start: e1.start, end: e1.end),
                        assignment: a1))),
            RejectionCase(
                .identityChanged, "timeline.apply whose assignment would name another entry",
                .timelineApply(
                    original: workshop,
                    proposed: TimelineAssignedEntry(entry: e1, assignment: booking("a1", "e2", "room-1")))),
            RejectionCase(
                .identityChanged, "timeline.add with an assignment naming another entry",
                .timelineAdd(entry: e3, assignments: [booking("a9", "e1", "room-1")])),
            RejectionCase(
                .invalidProgress, "replace with progress 150",
                .replace(previous: spec, proposed: spec.with(kind: .activity(schedule: spec.schedule, progress: 150)))),
            RejectionCase(
                .invalidProgress, "add with progress -1",
                json: #"{"type":"add","task":{"id":"neg","title":"Negative","kind":"activity","progress":-1}}"#),
            RejectionCase(
                .invalidSchedule, "a start of 2026-02-30",
                json:
                    #"{"type":"add","task":{"id":"feb","title":"Feb","kind":"activity","schedule":{"start":"2026-02-30","end":"2026-03-05"}}}"#
            ),
            RejectionCase(
                .invalidSchedule, "an end equal to the start",
                json:
                    #"{"type":"replace","previous":\#(spec.json),"proposed":{"id":"spec","title":"Spec","parentID":"design","kind":"activity","schedule":{"start":"2026-09-08","end":"2026-09-08"},"progress":20}}"#
            ),
            RejectionCase(
                .invalidSchedule, "an end before the start",
                json:
                    #"{"type":"add","task":{"id":"back","title":"Back","kind":"activity","schedule":{"start":"2026-09-10","end":"2026-09-08"}}}"#
            ),
            RejectionCase(
                .invalidSchedule, "a milestone on 2026-9-8 (not YYYY-MM-DD)",
                json: #"{"type":"add","task":{"id":"m","title":"M","kind":"milestone","date":"2026-9-8"}}"#),
            RejectionCase(
                .invalidSchedule, "a milestone in year 0",
                json: #"{"type":"add","task":{"id":"m","title":"M","kind":"milestone","date":"0000-12-31"}}"#),
            RejectionCase(
                .invalidHierarchy, "add under a parent that does not exist",
                .add(ghost.with(parentID: "nope"))),
            RejectionCase(
                .invalidHierarchy, "add under a parent that is not a summary", .add(ghost.with(parentID: "spec"))),
            RejectionCase(
                .invalidHierarchy, "replace making a summary its own parent",
                .replace(previous: impl, proposed: impl.with(parentID: "impl"))),
            RejectionCase(
                .invalidHierarchy, "reorder relative to a task with another parent",
                .reorder(previous: spec, relativeTo: build, position: .before)),
            RejectionCase(
                .invalidHierarchy, "reorder relative to itself",
                .reorder(previous: spec, relativeTo: spec, position: .after)),
            RejectionCase(.invalidHierarchy, "remove a task that has children", .remove(previous: design)),
            RejectionCase(
                .invalidHierarchy, "turn a summary with children into an activity",
                .replace(previous: design, proposed: design.with(kind: .activity(schedule: nil, progress: 0)))),
            RejectionCase(.invalidDependency, "link a task to itself", .link(link("spec", "spec"))),
            RejectionCase(.invalidDependency, "link to a task that does not exist", .link(link("spec", "ghost"))),
            RejectionCase(.invalidDependency, "link a summary", .link(link("design", "release"))),
            RejectionCase(
                .invalidDependency, #"a "type":"start-to-start" dependency"#,
                json:
                    #"{"type":"link","dependency":{"predecessorID":"review","successorID":"release","type":"start-to-start"}}"#
            ),
            RejectionCase(
                .invalidDependency, "turn a dependency endpoint into a summary",
                .replace(previous: spec, proposed: spec.with(kind: .summary))),
            RejectionCase(.duplicateDependency, "link a pair already linked", .link(link("spec", "build"))),
            RejectionCase(.dependencyCycle, "link that closes a cycle", .link(link("release", "spec"))),
            RejectionCase(.staleDependency, "unlink a dependency that is not there", .unlink(link("spec", "release"))),
            RejectionCase(.staleDependency, "unlink a dependency the wrong way round", .unlink(link("build", "spec"))),
            RejectionCase(
                .staleEntry, "timeline.apply whose original entry changed",
                .timelineApply(
                    original: TimelineAssignedEntry(entry: e1.with(title: "Old workshop"), assignment: a1),
                    proposed: TimelineAssignedEntry(entry: e1.with(title: "New workshop"), assignment: a1))),
            RejectionCase(
                .staleEntry, "timeline.remove of an entry whose interval changed",
                .timelineRemove(entry: try! e1.with(start: e1.start, end: Demo.time("2026-09-09T13:00")))),
            RejectionCase(.staleEntry, "timeline.remove of an entry that does not exist", .timelineRemove(entry: e3)),
            RejectionCase(
                .staleAssignment, "timeline.apply whose original assignment moved",
                .timelineApply(
                    original: TimelineAssignedEntry(entry: e1, assignment: a1.with(resourceID: "room-2")),
                    proposed: workshop)),
            RejectionCase(
                .staleAssignment, "timeline.apply whose original assignment belongs to another entry",
                .timelineApply(
                    original: TimelineAssignedEntry(entry: e1, assignment: a2),
                    proposed: TimelineAssignedEntry(entry: e1.with(title: "Moved"), assignment: a2))),
            RejectionCase(
                .unknownResource, "timeline.apply moving a booking to an unknown resource",
                .timelineApply(
                    original: workshop,
                    proposed: TimelineAssignedEntry(entry: e1, assignment: a1.with(resourceID: "room-9")))),
            RejectionCase(
                .unknownResource, "timeline.add booking an unknown resource",
                .timelineAdd(entry: e3, assignments: [booking("a9", "e3", "room-9")])),
            RejectionCase(
                .invalidInterval, "a start with seconds",
                json: addEntry(start: "2026-09-15T10:00:00", end: "2026-09-15T11:00")),
            RejectionCase(
                .invalidInterval, "an end at 24:00", json: addEntry(start: "2026-09-15T10:00", end: "2026-09-15T24:00")),
            RejectionCase(
                .invalidInterval, "a start with an offset",
                json: addEntry(start: "2026-09-15T10:00Z", end: "2026-09-15T11:00")),
            RejectionCase(
                .invalidInterval, "an impossible date",
                json: addEntry(start: "2026-02-30T10:00", end: "2026-03-01T11:00")),
            RejectionCase(
                .invalidInterval, "an end equal to the start",
                json: addEntry(start: "2026-09-15T10:00", end: "2026-09-15T10:00")),
            RejectionCase(
                .invalidInterval, "timeline.apply moving the end before the start",
                json:
                    #"{"type":"timeline.apply","original":\#(workshop.json),"proposed":{"entry":{"id":"e1","title":"Workshop","start":"2026-09-09T09:00","end":"2026-09-09T08:00"},"assignment":\#(a1.json)}}"#
            ),
            RejectionCase(.forbidden, "a viewer proposing", valid, proposer: .viewer),
            RejectionCase(.badMessage, "an unknown op type", json: #"{"type":"explode"}"#),
            RejectionCase(.badMessage, "an add without its task", json: #"{"type":"add"}"#),
            RejectionCase(
                .badMessage, #"a task of kind "task""#,
                json: #"{"type":"add","task":{"id":"t","title":"T","kind":"task"}}"#),
            RejectionCase(
                .badMessage, "a position that is neither before nor after",
                json: #"{"type":"reorder","previous":\#(spec.json),"relativeTo":\#(review.json),"position":"beside"}"#),
            RejectionCase(.badMessage, "an op that is a string", json: #""replace""#),
            RejectionCase(.badMessage, "a baseVersion above the current version", valid, baseVersion: 5),
            RejectionCase(.badMessage, "a negative baseVersion", valid, baseVersion: -1),
            RejectionCase(.unknownPlan, "a stranger proposing", valid, proposer: .stranger),
            RejectionCase(.unknownPlan, "a plan that does not exist", valid, missingPlan: true),
        ]
    }()
}

extension RejectionCode {
    /// Whether the code judges the plan's data (so `version` names the data judged).
    var judgesData: Bool {
        ![.forbidden, .rateLimited, .badMessage, .unknownPlan, .unavailable].contains(self)
    }
}

extension TimelineAssignedEntry {
    /// `{"entry":…,"assignment":…}`.
    var json: String {
        var writer = JSONWriter()
        encodeJSON(into: &writer)
        return writer.string
    }
}

// MARK: - Scene

/// A server, a fresh demo plan, its editor (not subscribed; it asked one query, so its role is
/// known) and a subscribed viewer who watches the stream.
struct WritingScene {
    let fixture: PlanFixture
    let server: ServerProcess
    let editor: TestClient
    let viewer: TestClient
    let initial: ClientPlanCopy
    let initialTimeline: TimelinePage

    static func make() async throws -> WritingScene {
        let fixture = try PlanFixture.make()
        let server = try ServerProcess.start()
        let editor = try TestClient(url: server.url, token: fixture.editorToken, transport: SharedTransport.instance)
        let viewer = try TestClient(url: server.url, token: fixture.viewerToken, transport: SharedTransport.instance)
        try await editor.ready()
        try await viewer.ready()
        let initial = try await viewer.subscribe(fixture.plan)
        let timeline = try await editor.timelinePage(fixture.plan)
        return WritingScene(
            fixture: fixture, server: server, editor: editor, viewer: viewer, initial: initial,
            initialTimeline: timeline)
    }

    func close() {
        editor.close()
        viewer.close()
    }

    /// A fresh subscriber's copy.
    func freshCopy() async throws -> ClientPlanCopy {
        let client = try await TestClient.connected(to: server, token: fixture.viewerToken)
        defer { client.close() }
        return try await client.subscribe(fixture.plan)
    }

    /// Renames Release (from the untouched demo plan's value onwards, whatever its title now).
    func proposeMarker(on client: TestClient? = nil) async throws -> ServerMessage {
        let copy = try await freshCopy()
        let release = copy["release"]!
        return try await (client ?? editor).propose(
            .replace(previous: release, proposed: release.with(title: release.title + "!")), plan: fixture.plan,
            id: TestDatabase.unique("marker"), baseVersion: copy.version)
    }

    /// Nothing changed: a fresh snapshot and the timeline are as at the start, the viewer heard
    /// nothing, and the next change takes version 1.
    func expectUnchanged(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await freshCopy() == initial, sourceLocation: sourceLocation)
        let timeline = try await editor.timelinePage(fixture.plan)
        #expect(Set(timeline.entries) == Set(initialTimeline.entries), sourceLocation: sourceLocation)
        #expect(Set(timeline.assignments) == Set(initialTimeline.assignments), sourceLocation: sourceLocation)
        let marker = try await proposeMarker()
        #expect(marker.ackVersion == 1, sourceLocation: sourceLocation)
        let next = try await viewer.nextMessage()
        #expect(
            next.confirmedVersion == 1 && next.mutationID == marker.proposalID, "the viewer's next message: \(next)",
            sourceLocation: sourceLocation)
    }
}

extension TestClient {
    /// Sends a `propose` written by hand and waits for its answer.
    func proposeRaw(id: String, plan: String, baseVersion: Int, op: String) async throws -> ServerMessage {
        connection.sendRaw(
            Array(
                #"{"type":"propose","id":"\#(id)","plan":"\#(plan)","baseVersion":\#(baseVersion),"op":\#(op)}"#.utf8))
        return try await answer(to: id)
    }

    /// The next message other than `presence` (and the `welcome`, which `ready()` leaves behind).
    func nextMessage(within seconds: Double = 10) async throws -> ServerMessage {
        let event = await inbox.next(within: seconds) { event in
            if case .message(let message) = event { return !["presence", "welcome"].contains(message.typeName) }
            return false
        }
        guard case .message(let message)? = event else { throw HarnessError("no message within \(seconds) s") }
        return message
    }

    /// The next `ack` or `rejected`, whatever its id.
    func nextAnswer(within seconds: Double = 10) async throws -> ServerMessage {
        let event = await inbox.next(within: seconds) { event in
            if case .message(let message) = event { return ["ack", "rejected"].contains(message.typeName) }
            return false
        }
        guard case .message(let message)? = event else { throw HarnessError("no answer within \(seconds) s") }
        return message
    }

    /// The whole demo timeline (both rooms, September and October 2026) as a one-off query sees it.
    func timelinePage(_ plan: String) async throws -> TimelinePage {
        let ref = TestDatabase.unique("page")
        let query = try TimelineQuery(
            start: Demo.time("2026-09-01T00:00"), end: Demo.time("2026-11-01T00:00"),
            resourceIDs: ["room-1", "room-2"])
        connection.sendRaw(ClientMessage.query(plan: plan, query: query, ref: ref).bytes)
        guard case .page(_, _, _, _, let page, _) = try await expect("page", where: { $0.ref == ref }) else {
            throw HarnessError("no page")
        }
        return page
    }
}

extension ServerMessage {
    /// The version of a `confirmed`, else nil.
    var confirmedVersion: Int? {
        if case .confirmed(_, let version, _, _, _) = self { return version }
        return nil
    }

    /// The mutation id of a `confirmed`, else nil.
    var mutationID: String? {
        if case .confirmed(_, _, let id, _, _) = self { return id }
        return nil
    }

    /// The proposal id of an `ack` or `rejected`, else nil.
    var proposalID: String? {
        switch self {
        case .ack(let id, _, _, _, _), .rejected(let id, _, _, _, _, _): id
        default: nil
        }
    }

    /// The same `ack` or `rejected` for another proposal id.
    func with(id: String) -> ServerMessage {
        switch self {
        case .ack(_, let plan, let version, let noop, let ref):
            .ack(id: id, plan: plan, version: version, noop: noop, ref: ref)
        case .rejected(_, let plan, let code, let message, let version, let ref):
            .rejected(id: id, plan: plan, code: code, message: message, version: version, ref: ref)
        default: self
        }
    }
}

// MARK: - Arrival order across connections

/// Connections on a client transport of their own, whose server messages are logged in the one
/// order in which that transport's single service thread read them, across all connections.
final class ArrivalLog: Sendable {
    struct Arrival: Sendable {
        let tag: String
        let message: ServerMessage
    }

    /// A transport of its own, used by one test at a time (the suite is serialized), so that no
    /// other connections share its service loop; never stopped (see the report on `stop()`).
    private static let sharedTransport: ClientTransport = try! ClientTransport()

    private let transport = ArrivalLog.sharedTransport
    private let inbox = ArrivalInbox()
    private let continuation: AsyncStream<Arrival>.Continuation
    private let connections = Mutex<[String: UInt64]>([:])

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Arrival.self)
        self.continuation = continuation
        let inbox = self.inbox
        Task {
            for await arrival in stream { await inbox.append(arrival) }
        }
    }

    /// Connects a connection named `tag`, says hello and waits for the welcome.
    func connect(_ tag: String, url: String, token: String) async throws {
        guard let endpoint = ClientTransport.Endpoint(url: url) else { throw HarnessError("bad URL \(url)") }
        let id = transport.reserveConnectionID()
        connections.withLock { $0[tag] = id }
        let transport = self.transport
        let continuation = self.continuation
        transport.connect(id, to: endpoint) { event in
            switch event {
            case .opened:
                transport.send(ClientMessage.hello(token: token, client: "arrival-log/1").bytes, on: id)
            case .message(let bytes):
                for message in (try? ServerMessage.decodeFrame(bytes)) ?? [] {
                    continuation.yield(Arrival(tag: tag, message: message))
                }
            case .closed:
                break
            }
        }
        _ = try await first(tag, "welcome")
    }

    /// Sends a request on the connection named `tag`.
    func send(_ tag: String, _ message: ClientMessage) {
        guard let id = connections.withLock({ $0[tag] }) else { return }
        transport.send(message.bytes, on: id)
    }

    /// The first message ever logged for `tag` of `type` that matches, waiting for it, with its
    /// position in the log.
    func first(
        _ tag: String, _ type: String, within seconds: Double = 10,
        where match: @escaping @Sendable (ServerMessage) -> Bool = { _ in true }
    ) async throws -> (position: Int, message: ServerMessage) {
        let found = await inbox.first(within: seconds) {
            $0.tag == tag && $0.message.typeName == type && match($0.message)
        }
        guard let found else { throw HarnessError("no \(type) for \(tag) within \(seconds) s") }
        return found
    }

    /// Everything logged so far.
    func all() async -> [Arrival] {
        await inbox.all()
    }

    /// Closes every connection.
    func close() {
        for id in connections.withLock({ Array($0.values) }) { transport.close(id) }
        continuation.finish()
    }
}

/// The arrivals in order, with awaitable look-ups; nothing is ever removed.
actor ArrivalInbox {
    private var log: [ArrivalLog.Arrival] = []
    private var waiters:
        [(
            id: Int, match: @Sendable (ArrivalLog.Arrival) -> Bool,
            continuation: CheckedContinuation<(position: Int, message: ServerMessage)?, Never>
        )] = []
    private var nextWaiter = 0

    func append(_ arrival: ArrivalLog.Arrival) {
        log.append(arrival)
        let position = log.count - 1
        while let index = waiters.firstIndex(where: { $0.match(arrival) }) {
            waiters.remove(at: index).continuation.resume(returning: (position, arrival.message))
        }
    }

    func first(within seconds: Double, where match: @escaping @Sendable (ArrivalLog.Arrival) -> Bool) async
        -> (position: Int, message: ServerMessage)?
    {
        if let index = log.firstIndex(where: match) { return (index, log[index].message) }
        nextWaiter += 1
        let id = nextWaiter
        return await withCheckedContinuation { continuation in
            waiters.append((id, match, continuation))
            Task {
                try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                self.expire(id)
            }
        }
    }

    func all() -> [ArrivalLog.Arrival] { log }

    private func expire(_ id: Int) {
        if let index = waiters.firstIndex(where: { $0.id == id }) {
            waiters.remove(at: index).continuation.resume(returning: nil)
        }
    }
}
