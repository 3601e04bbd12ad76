import ChronoSketchCore
import PlanStore
import PlanTestSupport
import Testing

/// An entry's task (interchange.md §6) through the store: written by an import, loaded, kept in
/// checkpoints, and dropped with its task or its entry, in memory and in the rows alike.
@Suite("PlanStore: bookings that belong to a task")
struct EntryTaskLinkTests {
    /// The store's demo plan with e1 belonging to Review and e2 to Spec.
    static func linkedDemo() -> PlanDocument {
        var document = StoreFixtures.demo
        document.state.entryTasks = EntryTaskLinks(["e1": "review", "e2": "spec"])
        return document
    }

    @Test("links survive the store and a checkpoint, and go with a removed task or entry")
    func linksThroughTheStore() throws {
        let store = TestDatabase.store
        let id = TestDatabase.unique("entry-tasks")
        try store.createPlan(id: id, document: Self.linkedDemo())
        var state = try #require(try store.loadPlan(id)).document.state
        #expect(state.entryTasks == EntryTaskLinks(["e1": "review", "e2": "spec"]))

        let removeReview = try StoreFixtures.mutation(.remove(previous: state.tasks["review"]!), on: &state, id: "p1")
        #expect(state.entryTasks == EntryTaskLinks(["e2": "spec"]))
        var version = try store.commit(plan: id, baseVersion: 0, mutations: [removeReview])
        // The row lost its task by the foreign key's action; the entry itself stays.
        let afterRemove = try #require(try store.loadPlan(id)).document.state
        #expect(afterRemove == state && afterRemove.timeline.entry("e1") != nil)

        let removeRetro = try StoreFixtures.mutation(
            .timelineRemove(entry: state.timeline.entry("e2")!), on: &state, id: "p2")
        version = try store.commit(plan: id, baseVersion: version, mutations: [removeRetro])
        #expect(state.entryTasks.isEmpty)
        #expect(try store.loadPlan(id)?.document.state == state)

        // The past: version 0 from its checkpoint keeps both links, version 1 replays the removal.
        guard case .document(let first) = try store.plan(id, asOf: 0),
            case .document(let second) = try store.plan(id, asOf: 1)
        else { Issue.record("history unavailable"); return }
        #expect(first.state.entryTasks == EntryTaskLinks(["e1": "review", "e2": "spec"]))
        #expect(second.state.entryTasks == EntryTaskLinks(["e2": "spec"]))
        #expect(version == 2)
    }

    @Test("a task added again under a removed task's id is not linked again")
    func readdedTaskIsNotLinked() throws {
        var state = Self.linkedDemo().state
        let review = state.tasks["review"]!
        try state.apply(.remove(previous: review))
        try state.apply(.add(review))
        #expect(state.entryTasks[entry: "e1"] == nil && state.entryTasks[entry: "e2"] == "spec")
    }

    @Test("the plan file carries taskID on entries, refuses one naming no task, and a snapshot leaves it out")
    func planFile() throws {
        let document = Self.linkedDemo()
        var writer = JSONWriter()
        document.encodeJSON(into: &writer)
        let text = writer.string
        #expect(text.contains(#""taskID":"review""#))
        let back = try PlanDocument(json: try JSONValue(parsing: Array(text.utf8)))
        #expect(back.state.entryTasks == document.state.entryTasks)
        var members = JSONWriter()
        members.beginObject()
        document.encodeMembers(into: &members)
        members.endObject()
        #expect(!members.string.contains("taskID"))
        let broken = text.replacing(#""taskID":"review""#, with: #""taskID":"nobody""#)
        #expect(throws: DecodingFailure.self) {
            try PlanDocument(json: try JSONValue(parsing: Array(broken.utf8)))
        }
        // A checkpoint holds them too.
        let checkpoint = try PlanDocument(checkpoint: document.checkpointJSON)
        #expect(checkpoint.state.entryTasks == document.state.entryTasks)
    }
}
