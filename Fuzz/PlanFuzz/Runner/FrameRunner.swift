/// Runs frame-level cases: each on a connection of its own; afterwards the server must be alive
/// and still welcome a fresh client.
struct FrameRunner {
    let options: FuzzOptions

    /// What one case produced.
    struct Outcome {
        var findings: [FuzzFinding] = []
        var close: String?
        var serverGone = false
        var sent: [String] = []
    }

    var context: FrameContext {
        FrameContext(
            host: "\(options.host):\(options.port)", token: options.token, plan: options.plan)
    }

    /// Runs case `index`.
    func run(index: Int) -> Outcome {
        let fuzzCase = FrameCaseGenerator.make(seed: options.seed, index: index, context: context)
        var outcome = Outcome()
        let sent =
            ["\(fuzzCase.label)", "handshake: \(escaped(fuzzCase.handshake.bytes, limit: 300))"]
            + fuzzCase.writes.map { "write: \(escaped($0, limit: 300))" }
        outcome.sent = sent
        func finding(_ kind: FuzzFinding.Kind, _ detail: String) {
            outcome.findings.append(
                FuzzFinding(kind: kind, stream: .frames, caseIndex: index, detail: detail, sent: sent))
        }
        guard let socket = FuzzSocket(host: options.host, port: options.port) else {
            outcome.serverGone = true
            return outcome
        }
        socket.send(fuzzCase.handshake.bytes)
        let head = socket.readHTTPHead(timeoutMilliseconds: fuzzCase.handshake.truncated ? 300 : 5000)
        let upgraded = head?.hasPrefix("HTTP/1.1 101") ?? false
        if fuzzCase.handshake.mustUpgrade, !upgraded {
            finding(
                .wrongAnswer, "a valid handshake was answered \(head.map { escaped(Array($0.utf8)) } ?? "with nothing")"
            )
        }
        guard upgraded else { return outcome }
        if fuzzCase.helloFirst {
            socket.sendText(
                FuzzJSON.object(["type": "hello", "token": .string(options.token), "client": "fuzz/1"]).bytes)
            if case .message = socket.next(deadline: Clock.milliseconds() + 5000) {
            } else if fuzzCase.handshake.mustUpgrade {
                finding(.stall, "no welcome after a valid handshake")
                return outcome
            }
        }
        for write in fuzzCase.writes where !socket.send(write) { break }
        outcome.close = readUntilQuiet(socket)
        return outcome
    }

    /// Reads until the server closes or stays quiet for 250 ms (at most 3 s): the close code.
    func readUntilQuiet(_ socket: FuzzSocket) -> String? {
        let end = Clock.milliseconds() + 3000
        while Clock.milliseconds() < end {
            switch socket.next(deadline: min(end, Clock.milliseconds() + 250)) {
            case .message: continue
            case .close(let code): return code.map(String.init) ?? "no code"
            case .end: return "none"
            case .timeout: return nil
            }
        }
        return nil
    }
}
