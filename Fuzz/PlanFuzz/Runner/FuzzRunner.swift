import ChronoSketchCore

/// How a run is configured.
public struct FuzzOptions: Sendable {
    /// Which fuzzers run.
    public enum Mode: String, Sendable {
        /// Frame-level cases only.
        case frames
        /// Message-level sessions only.
        case messages
        /// Both, each for half the time.
        case both
    }

    /// The server's address (IPv4).
    public var host: String
    /// The server's port.
    public var port: Int
    /// A token of a user with the editor (or owner) role on `plan`.
    public var token: String
    /// The plan.
    public var plan: String
    /// The seed of every case.
    public var seed: UInt64
    /// How long to fuzz, in seconds (both fuzzers together).
    public var seconds: Double
    /// Which fuzzers run.
    public var mode: Mode
    /// The server's process id, when known: its death is noticed at once.
    public var pid: Int32?
    /// Run only this case (of the single stream `mode` names), to replay a finding.
    public var onlyCase: Int?
    /// Progress lines, if wanted.
    public var progress: (@Sendable (String) -> Void)?

    /// Creates options.
    public init(
        host: String = "127.0.0.1", port: Int, token: String, plan: String, seed: UInt64, seconds: Double,
        mode: Mode = .both, pid: Int32? = nil, onlyCase: Int? = nil,
        progress: (@Sendable (String) -> Void)? = nil
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.plan = plan
        self.seed = seed
        self.seconds = seconds
        self.mode = mode
        self.pid = pid
        self.onlyCase = onlyCase
        self.progress = progress
    }
}

/// Drives a server with both fuzzers and checks it afterwards (see `FuzzReport`).
public struct FuzzRunner {
    let options: FuzzOptions

    /// A runner for `options`.
    public init(options: FuzzOptions) { self.options = options }

    /// Runs the fuzzers for `options.seconds` and the checks after them.
    public func run() -> FuzzReport {
        var report = FuzzReport(seed: options.seed)
        guard let observer = Observer(host: options.host, port: options.port, token: options.token, plan: options.plan)
        else {
            report.findings.append(FuzzFinding(kind: .crash, detail: "no welcome and snapshot before the run"))
            return report
        }
        let start = Clock.milliseconds()
        let total = Int(options.seconds * 1000)
        var alive = true
        if options.mode != .messages {
            let end = start + (options.mode == .both ? total / 2 : total)
            alive = runFrames(until: end, observer: observer, report: &report)
        }
        if alive, options.mode != .frames {
            alive = runMessages(until: start + total, observer: observer, report: &report)
        }
        if alive { FinalChecks(options: options).run(observer: observer, report: &report) }
        return report
    }

    func cases(until end: Int) -> AnySequence<Int> {
        if let only = options.onlyCase { return AnySequence([only]) }
        return AnySequence((0...).lazy.prefix { _ in Clock.milliseconds() < end })
    }

    /// Frame cases until `end`; false once the server is gone.
    func runFrames(until end: Int, observer: Observer, report: inout FuzzReport) -> Bool {
        let runner = FrameRunner(options: options)
        for index in cases(until: end) {
            let outcome = runner.run(index: index)
            report.frameCases += 1
            report.findings += outcome.findings
            report.closes[outcome.close ?? "open", default: 0] += 1
            observer.drain()
            if outcome.serverGone || !isAlive(after: index % 10 == 9) {
                report.findings.append(crash(.frames, index, label: runner.describe(index), sent: outcome.sent))
                return false
            }
            if index % 50 == 49 { options.progress?("frames: \(index + 1) cases") }
        }
        return true
    }

    /// Message sessions until `end`; false once the server is gone.
    func runMessages(until end: Int, observer: Observer, report: inout FuzzReport) -> Bool {
        let runner = MessageRunner(options: options)
        for index in cases(until: end) {
            let outcome = runner.run(index: index)
            report.messageSessions += 1
            report.messagesSent += outcome.messages
            report.proposals += outcome.proposals
            report.acks += outcome.answers.acks.count
            for code in outcome.answers.rejections { report.rejections[code, default: 0] += 1 }
            if let close = outcome.close { report.closes[close, default: 0] += 1 }
            report.findings += outcome.findings
            observer.drain()
            if outcome.serverGone || !isAlive(after: index % 10 == 9) {
                report.findings.append(crash(.messages, index, label: "session \(index)", sent: outcome.sent))
                return false
            }
            if index % 50 == 49 { options.progress?("messages: \(index + 1) sessions") }
        }
        return true
    }

    /// Whether the server still runs (and, when `probe`, welcomes a fresh client).
    func isAlive(after probe: Bool) -> Bool {
        if let pid = options.pid, !Health.processIsAlive(pid) { return false }
        guard probe else { return true }
        return Health.welcomes(host: options.host, port: options.port, token: options.token)
            || (options.pid.map(Health.processIsAlive) ?? false)
    }

    func crash(_ stream: FuzzStream, _ index: Int, label: String, sent: [String]) -> FuzzFinding {
        let dead = options.pid.map { !Health.processIsAlive($0) } ?? true
        return FuzzFinding(
            kind: dead ? .crash : .stall, stream: stream, caseIndex: index,
            detail: (dead ? "the server died" : "the server stopped welcoming clients")
                + " during or right after this case (\(label)); the run stopped", sent: sent)
    }
}

extension FrameRunner {
    /// The label of case `index`.
    func describe(_ index: Int) -> String {
        FrameCaseGenerator.make(seed: options.seed, index: index, context: context).label
    }
}
