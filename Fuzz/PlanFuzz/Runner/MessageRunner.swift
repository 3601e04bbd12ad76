import ChronoSketchCore

/// Runs message-level sessions against the server and checks every answer the contract promises.
struct MessageRunner {
    let options: FuzzOptions

    /// What one session produced.
    struct Outcome {
        var findings: [FuzzFinding] = []
        var messages = 0
        var proposals = 0
        var answers = SessionAnswers()
        var close: String?
        var serverGone = false
        var sent: [String] = []
    }

    /// The expectation for a message as it is framed.
    static func expectation(_ message: FuzzedMessage) -> Expectation {
        guard message.delivery == .binary else { return Expectation(bytes: message.bytes) }
        var expectation = Expectation(bytes: [])
        expectation.mentionsNUL = false
        expectation.closeCode = message.bytes.count > Expectation.maxMessageBytes ? 1009 : nil
        return expectation
    }

    /// Runs session `index`.
    func run(index: Int) -> Outcome {
        var outcome = Outcome()
        guard let client = FuzzClient(host: options.host, port: options.port) else {
            outcome.serverGone = true
            return outcome
        }
        let authenticated = MessageSessionGenerator.isAuthenticated(seed: options.seed, index: index)
        var context = PlanContext(plan: options.plan, token: options.token)
        if authenticated {
            guard client.hello(token: options.token), let found = readContext(client) else {
                outcome.findings.append(
                    FuzzFinding(
                        kind: .stall, stream: .messages, caseIndex: index,
                        detail: "no welcome, snapshot or page for a fresh authenticated client"))
                return outcome
            }
            context = found
        }
        let messages = MessageSessionGenerator.make(
            seed: options.seed, index: index, context: context, allowNUL: true)
        let expected = messages.map(MessageRunner.expectation)
        for message in messages {
            client.socket.send(MessageSessionGenerator.frames(message).flatMap(\.bytes))
        }
        outcome.messages = messages.count
        outcome.proposals = expected.filter { $0.proposalID != nil }.count
        let sent = zip(messages, expected).map { message, expectation in
            "\(message.log.joined(separator: "; ")) [\(message.delivery)] \(escaped(message.bytes))"
        }
        outcome.sent = sent
        if authenticated {
            check(client: client, expected: expected, index: index, sent: sent, outcome: &outcome)
        } else {
            checkUnauthenticated(client: client, expected: expected[0], index: index, sent: sent, outcome: &outcome)
        }
        return outcome
    }

    /// Subscribes and queries every resource: the plan as this session starts from.
    func readContext(_ client: FuzzClient) -> PlanContext? {
        var writer = JSONWriter()
        FuzzJSON.object(["type": "subscribe", "plan": .string(options.plan), "ref": "setup-s"]).write(into: &writer)
        client.socket.sendText(writer.bytes)
        guard let snapshot = client.next(within: 10_000, where: { $0.string("ref") == "setup-s" }),
            snapshot.string("type") == "snapshot"
        else { return nil }
        let resources = snapshot.array("resources").compactMap { value -> String? in
            guard case .object(let object) = value else { return nil }
            return object.string("id")
        }
        var context = PlanContext(
            plan: options.plan, token: options.token, version: snapshot.integer("version") ?? 0,
            tasks: snapshot.array("tasks"), dependencies: snapshot.array("dependencies"), resourceIDs: resources)
        context.settings = snapshot["settings"]
        let query = FuzzJSON.object([
            "type": "query", "plan": .string(options.plan), "ref": "setup-q",
            "query": .object([
                "start": "2026-01-01T00:00", "end": "2027-02-05T00:00",
                "resourceIDs": .array(resources.map(FuzzJSON.string)),
            ]),
        ])
        client.socket.sendText(query.bytes)
        if let page = client.next(within: 10_000, where: { $0.string("ref") == "setup-q" }),
            page.string("type") == "page"
        {
            context.entries = page.array("entries")
            context.assignments = page.array("assignments")
        }
        return context
    }

    func check(client: FuzzClient, expected: [Expectation], index: Int, sent: [String], outcome: inout Outcome) {
        let closing = expected.compactMap(\.closeCode).first
        let sync = "sync-\(index)"
        if closing == nil {
            client.socket.sendText(FuzzJSON.object(["type": "fuzz.sync", "ref": .string(sync)]).bytes)
        }
        let deadline = Clock.milliseconds() + 10_000
        while !(closing == nil && outcome.answers.complete(expected, sync: sync)) {
            guard let message = client.next(deadline: deadline) else { break }
            outcome.answers.record(message, plan: options.plan)
        }
        func finding(_ kind: FuzzFinding.Kind, _ detail: String) {
            outcome.findings.append(
                FuzzFinding(kind: kind, stream: .messages, caseIndex: index, detail: detail, sent: sent))
        }
        for wrong in outcome.answers.wrong { finding(.wrongAnswer, wrong) }
        if let code = client.closed {
            outcome.close = code.map(String.init) ?? "none"
            if let code, !allowedCloseCodes.contains(code) { finding(.badClose, "closed with \(code)") }
            if code == nil { finding(.badClose, "the connection ended without a close frame") }
            if let code, code == 1007 || code == 1009, closing != code {
                finding(.badClose, "closed with \(code) though no message called for it")
            }
            return
        }
        if let closing { finding(.badClose, "not closed with \(closing) within 10 s") }
        let missing = outcome.answers.missing(expected)
        if outcome.answers.refs[sync] == nil && closing == nil {
            finding(.stall, "the sync request got no answer within 10 s")
        } else if !missing.isEmpty {
            finding(.unanswered, missing.joined(separator: "; "))
        }
    }

    func checkUnauthenticated(
        client: FuzzClient, expected: Expectation, index: Int, sent: [String], outcome: inout Outcome
    ) {
        let deadline = Clock.milliseconds() + 5000
        while let message = client.next(deadline: deadline) { outcome.answers.record(message, plan: options.plan) }
        func finding(_ kind: FuzzFinding.Kind, _ detail: String) {
            outcome.findings.append(
                FuzzFinding(kind: kind, stream: .messages, caseIndex: index, detail: detail, sent: sent))
        }
        let validHello = expected.type == "hello" && expected.helloToken == options.token
        if outcome.answers.welcomes > 0, !validHello {
            finding(
                .wrongAnswer,
                "welcome for a hello whose token is not the user's token (\(expected.helloToken.map { escaped(Array($0.utf8)) } ?? "none"))"
            )
        }
        if let code = client.closed {
            outcome.close = code.map(String.init) ?? "none"
            if let code, !allowedCloseCodes.contains(code) { finding(.badClose, "closed with \(code)") }
        } else if outcome.answers.welcomes == 0 {
            finding(.badClose, "an unauthenticated connection was neither welcomed nor closed within 5 s")
        }
    }
}
