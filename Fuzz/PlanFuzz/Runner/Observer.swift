import ChronoSketchCore
import PlanProtocol

/// A subscriber that stays subscribed for the whole run: every `confirmed` must follow the
/// previous version with no gap, and apply to its copy; while the plan is automatic, every
/// dependency between scheduled tasks holds at every version (scheduling.md §4.7).
final class Observer {
    let client: FuzzClient
    let plan: String
    /// The version of the first snapshot.
    let startVersion: Int
    /// The last version seen.
    private(set) var version: Int
    /// The mutation id of each version seen.
    private(set) var mutations: [Int: String] = [:]
    /// Gaps, duplicates and the end of the stream.
    private(set) var problems: [String] = []
    /// Versions at which the copy broke a rule (a change that did not apply, a broken dependency
    /// of an automatic plan).
    private(set) var ruleProblems: [String] = []
    /// The plan as the confirmed changes built it.
    private var copy: ClientPlanCopy?

    /// Connects, says hello and subscribes; nil when any step fails.
    init?(host: String, port: Int, token: String, plan: String) {
        guard let client = FuzzClient(host: host, port: port), client.hello(token: token) else { return nil }
        client.socket.sendText(FuzzJSON.object(["type": "subscribe", "plan": .string(plan), "ref": "observer"]).bytes)
        guard let snapshot = client.next(within: 10_000, where: { $0.string("ref") == "observer" }),
            snapshot.string("type") == "snapshot", let version = snapshot.integer("version")
        else { return nil }
        self.client = client
        self.plan = plan
        startVersion = version
        self.version = version
        copy = (try? PlanSnapshot(json: .object(snapshot))).map(ClientPlanCopy.init)
    }

    /// Applies one `confirmed` to the copy and checks the automatic plan's invariant there.
    private func follow(_ message: JSONObject, version next: Int) {
        guard var current = copy, case .object(let changes)? = message["changes"] else { return }
        do {
            try current.apply(version: next, changes: try PlanChanges(json: .object(changes)))
        } catch {
            ruleProblems.append("version \(next) does not apply to the copy: \(error)")
            copy = nil
            return
        }
        copy = current
        let snapshot = current.snapshot
        guard snapshot.settings.isAutomatic else { return }
        do {
            let tasks = try TaskCollection(snapshot.tasks, dependencies: snapshot.dependencies)
            let settle = ScheduleSettle(tasks, time: WorkingTime(snapshot.settings.calendar))
            if case .conflict(let conflict) = settle.settleAll(own: tasks.tasks.map(\.id)) {
                ruleProblems.append("version \(next) of an automatic plan breaks a dependency: \(conflict.message)")
            }
        } catch {
            ruleProblems.append("version \(next) breaks the plan rules: \(error)")
        }
    }

    /// Reads what has arrived, waiting at most `milliseconds`.
    func drain(milliseconds: Int = 1) {
        let deadline = Clock.milliseconds() + milliseconds
        while let message = client.next(deadline: deadline) {
            guard message.string("type") == "confirmed", message.string("plan") == plan,
                let next = message.integer("version")
            else { continue }
            if next != version + 1 { problems.append("confirmed \(next) followed \(version)") }
            follow(message, version: next)
            version = max(version, next)
            if case .object(let mutation)? = message["mutation"] { mutations[next] = mutation.string("id") }
        }
        if let code = client.closed, !problems.contains(where: { $0.hasPrefix("closed") }) {
            problems.append("closed (\(code.map(String.init) ?? "no code")) at version \(version)")
        }
    }

    /// Drains until `target` is reached or `milliseconds` pass.
    func wait(for target: Int, milliseconds: Int) {
        let deadline = Clock.milliseconds() + milliseconds
        while version < target, client.closed == nil, Clock.milliseconds() < deadline { drain(milliseconds: 100) }
    }
}
