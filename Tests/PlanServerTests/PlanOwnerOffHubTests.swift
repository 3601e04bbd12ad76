import ChronoSketchCore
import PlanProtocol
import PlanStore
import Testing
import WebSocketServer

@testable import PlanServer

/// A whole-plan settle of a big plan judged on a worker (`PlanOwner+OffHub`): the hub thread is
/// not held by it, the plan's later proposals wait behind it in order, and a step taken from a
/// candidate that changed meanwhile is judged again instead of taken.
@Suite("Plan owner: whole-plan settles off the hub")
struct PlanOwnerOffHubTests {
    typealias F = OwnerFixture

    /// An owner of a manual plan of `PlanOwner.workerSettleTasks` activities, the second starting
    /// before the first ends, linked to it: switching to automatic pushes it.
    static func bigOwner() throws -> OwnerDriver {
        let owner = F.owner(version: 5)
        let day = try CivilDate("2026-09-07")
        let tasks = try (0..<PlanOwner.workerSettleTasks).map { index in
            try GanttTask(
                id: "t\(index)", title: "T\(index)",
                kind: .activity(schedule: TaskSchedule(start: day.adding(days: index % 5), days: 3), progress: 0))
        }
        let state = PlanState(
            tasks: try TaskCollection(tasks, dependencies: [TaskDependency(predecessorID: "t0", successorID: "t1")]))
        owner.owner.confirmed = state
        owner.owner.candidate = state
        return owner
    }

    static let automatic = PlanSettings(scheduling: .automatic, calendar: .allDaysWorking)

    static func origin(_ id: String, role: PlanRole) -> ProposalOrigin {
        ProposalOrigin(connection: ConnectionID(1), user: "olga", proposalID: id, ref: nil, role: role)
    }

    /// The step a worker takes for `owner`'s pending off-hub judge.
    static func step(_ owner: OwnerDriver) throws -> (PlanState, CandidateStep, epoch: Int, version: Int) {
        let pending = try #require(owner.owner.offHub)
        var state = owner.owner.candidate
        let step = CandidateStep.apply(
            pending.operation, to: &state,
            context: JudgingContext(version: pending.version, logStart: 0, at: pending.at))
        return (state, step, pending.epoch, pending.version)
    }

    @Test("the switch goes to a worker; a later edit waits behind it; both commit in order, the push included")
    func switchOffHub() throws {
        let owner = try Self.bigOwner()
        let switching = QueuedProposal.Verdict.judge(.settingsReplace(previous: .default, proposed: Self.automatic))
        #expect(
            owner.propose(Self.origin("s", role: .owner), switching, role: .owner) == ["judge off hub at 5 epoch 0"])
        #expect(!owner.isIdle)
        let previous = owner.owner.candidate.tasks["t7"]!
        let rename = QueuedProposal.Verdict.judge(.replace(previous: previous, proposed: previous.with(title: "Seven")))
        #expect(owner.propose(Self.origin("r", role: .editor), rename) == [], "held behind the switch")
        let (state, step, epoch, version) = try Self.step(owner)
        let lines = ActionLines.lines(owner.handle(.judgedOffHub(epoch: epoch, version: version, state: state, step)))
        #expect(lines == ["commit 5+1"], "the switch commits; the rename is judged behind it, for the next transaction")
        // Judged from the confirmed data itself: its commit takes the worker's result as it is.
        #expect(owner.owner.settledOffHub?.version == 6)
        #expect(owner.committed(.success(6)).prefix(1) == ["commit 6+1"])
        #expect(owner.owner.settledOffHub == nil && owner.confirmed.tasks.tasks == state.tasks.tasks)
        _ = owner.committed(.success(7))
        #expect(owner.version == 7 && owner.confirmed.settings == Self.automatic)
        #expect(owner.confirmed.tasks["t1"]?.schedule?.start == owner.confirmed.tasks["t0"]?.schedule?.end)
        #expect(owner.confirmed.tasks["t7"]?.title == "Seven" && owner.isIdle)
    }

    @Test("a step taken from a candidate set back meanwhile (a failed commit) is judged again, not taken")
    func staleStepJudgedAgain() throws {
        let owner = try Self.bigOwner()
        let previous = owner.owner.candidate.tasks["t3"]!
        let rename = QueuedProposal.Verdict.judge(.replace(previous: previous, proposed: previous.with(title: "Three")))
        #expect(owner.propose(Self.origin("r", role: .editor), rename) == ["commit 5+1"])
        let switching = QueuedProposal.Verdict.judge(.settingsReplace(previous: .default, proposed: Self.automatic))
        #expect(
            owner.propose(Self.origin("s", role: .owner), switching, role: .owner) == ["judge off hub at 6 epoch 0"])
        let (state, step, epoch, version) = try Self.step(owner)
        // The rename's commit fails: the candidate goes back to version 5 (epoch 1).
        _ = owner.committed(.failure(.unavailable("down")))
        let again = ActionLines.lines(owner.handle(.judgedOffHub(epoch: epoch, version: version, state: state, step)))
        #expect(again == ["judge off hub at 5 epoch 1"])
        #expect(owner.owner.settledOffHub == nil)
        let (state2, step2, epoch2, version2) = try Self.step(owner)
        #expect(
            ActionLines.lines(owner.handle(.judgedOffHub(epoch: epoch2, version: version2, state: state2, step2))) == [
                "commit 5+1"
            ])
        _ = owner.committed(.success(6))
        #expect(
            owner.version == 6 && owner.confirmed.settings == Self.automatic
                && owner.confirmed.tasks["t3"]?.title == "T3")
    }

    @Test("small plans, editors and settings that settle nothing are judged on the hub as before")
    func onTheHub() throws {
        let small = F.owner(version: 5)
        let switching = QueuedProposal.Verdict.judge(.settingsReplace(previous: .default, proposed: Self.automatic))
        #expect(small.propose(Self.origin("s", role: .owner), switching, role: .owner) == ["commit 5+1"])
        let big = try Self.bigOwner()
        #expect(big.propose(Self.origin("e", role: .editor), switching, role: .editor) == ["commit 5+0 decisions e"])
        let manual = PlanSettings(
            scheduling: .manual, calendar: try PlanCalendar(workingDays: [1, 2, 3, 4, 5], holidays: []))
        let calendarOnly = QueuedProposal.Verdict.judge(.settingsReplace(previous: .default, proposed: manual))
        #expect(big.propose(Self.origin("m", role: .owner), calendarOnly, role: .owner) == [])
    }
}
