import ChronoSketchCore
import PlanProtocol
import Testing

@testable import PlanTerminal

/// What `plan history` asks for beyond its page (`CommandWants`), without a server: the titles of
/// the tasks its words name by id alone, by `tasks`, or from the live plan where the server does
/// not know that request.
@Suite("plan history: the titles its page needs")
struct CommandWantsTests {
    /// A page whose newest entry unlinks `review` → `release` and the next links them (each named
    /// by id alone, twice), and an older one that retitles `spec` (named by its title in the entry).
    static func linkedPage() throws -> ServerMessage {
        var link = JSONWriter()
        PlanOperation.link(TaskDependency(predecessorID: "review", successorID: "release")).encodeJSON(into: &link)
        var unlink = JSONWriter()
        PlanOperation.unlink(TaskDependency(predecessorID: "review", successorID: "release"))
            .encodeJSON(into: &unlink)
        let spec = try GanttTask(id: "spec", title: "Spec", kind: .activity(schedule: nil, progress: 0))
        var replace = JSONWriter()
        PlanOperation.replace(previous: spec, proposed: spec.with(title: "Specs")).encodeJSON(into: &replace)
        var upsert = JSONWriter()
        PlanChanges(upsert: [spec.with(title: "Specs")]).encodeJSON(into: &upsert)
        let entries = [
            HistoryEntry(
                version: 3, at: "2026-12-01T10:13:00.000Z", mutationID: "m3", user: "ann", opJSON: unlink.string,
                changesJSON: "{}"),
            HistoryEntry(
                version: 2, at: "2026-12-01T10:12:00.000Z", mutationID: "m2", user: "ann", opJSON: link.string,
                changesJSON: "{}"),
            HistoryEntry(
                version: 1, at: "2026-12-01T10:11:00.000Z", mutationID: "m1", user: "ann", opJSON: replace.string,
                changesJSON: upsert.string),
        ]
        return .history(plan: "demo", entries: entries, logStart: 0, more: false, ref: "history")
    }

    func wants() throws -> CommandWants {
        let options = try PlanOptions(arguments: ["history", "--server", "ws://h/ws", "--token", "t", "--plan", "demo"])
        var wants = CommandWants(options: options)
        let requests = try wants.requests(for: .history, plan: "demo", copy: nil, language: .english)
        #expect(requests.map(\.typeName) == ["history"])
        let taken = wants.receive(try Self.linkedPage())
        #expect(taken)
        return wants
    }

    @Test("the ids named alone are asked for once by tasks; the answer completes the page and names them")
    func asked() throws {
        var wants = try wants()
        let first = wants.titlesRequest(plan: "demo", language: .english)
        #expect(first == .tasks(plan: "demo", ids: ["review", "release"], ref: "titles"))
        let again = wants.titlesRequest(plan: "demo", language: .english)
        #expect(again == nil, "asked twice")
        #expect(!wants.isComplete)
        let review = try GanttTask(id: "review", title: "Review", kind: .activity(schedule: nil, progress: 0))
        let answer = ServerMessage.tasks(plan: "demo", version: 2, tasks: [review], missing: ["release"], ref: "titles")
        let taken = wants.receive(answer)
        #expect(taken)
        #expect(wants.isComplete && !wants.titlesFromLivePlan)
        let titles = wants.titles ?? [:]
        let text = wants.historyText(language: .english) { titles[$0] }
        #expect(text.contains("“Review” → “release”"), "\(text)")
    }

    @Test("a server without tasks answers unsupported: the titles come from the live plan instead")
    func unsupported() throws {
        var wants = try wants()
        let early = wants.titlesUnsupported()
        #expect(!early, "nothing was asked yet")
        _ = wants.titlesRequest(plan: "demo", language: .english)
        let refused = wants.titlesUnsupported()
        #expect(refused)
        #expect(wants.isComplete && wants.titlesFromLivePlan && wants.titles == nil)
        let again = wants.titlesRequest(plan: "demo", language: .english)
        #expect(again == nil, "asked again after the refusal")
    }
}
