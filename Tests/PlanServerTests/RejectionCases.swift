import ChronoSketchCore
import PlanClient
import PlanProtocol
import PlanTestSupport
import Testing

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
                .invalidDependency, #"a "type":"start-to-begin" dependency"#,
                json:
                    #"{"type":"link","dependency":{"predecessorID":"review","successorID":"release","type":"start-to-begin"}}"#
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
