import ChronoSketchCore

/// A subscriber that stays subscribed for the whole run: every `confirmed` must follow the
/// previous version with no gap.
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
    }

    /// Reads what has arrived, waiting at most `milliseconds`.
    func drain(milliseconds: Int = 1) {
        let deadline = Clock.milliseconds() + milliseconds
        while let message = client.next(deadline: deadline) {
            guard message.string("type") == "confirmed", message.string("plan") == plan,
                let next = message.integer("version")
            else { continue }
            if next != version + 1 { problems.append("confirmed \(next) followed \(version)") }
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
