extension LoadConfiguration {
    /// Reads `plan-load`'s command line (without the program name). Every option must be known
    /// and every value valid: a mistyped option is an error, never a silent default.
    /// - Throws: `LoadArgumentError` naming the offending option.
    public init(arguments: [String]) throws(LoadArgumentError) {
        var values: [String: String] = [:]
        var flags: Set<String> = []
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            if LoadConfiguration.flagNames.contains(name) {
                flags.insert(name)
                index += 1
            } else if LoadConfiguration.valueNames.contains(name) {
                guard index + 1 < arguments.count else { throw LoadArgumentError("\(name) needs a value") }
                guard values[name] == nil else { throw LoadArgumentError("\(name) is given twice") }
                values[name] = arguments[index + 1]
                index += 2
            } else {
                throw LoadArgumentError("unknown option \(name)")
            }
        }
        guard let server = values["--server"], let token = values["--token"], let plans = values["--plan"] else {
            throw LoadArgumentError("--server, --token and --plan are required")
        }
        self.init(server: server, token: token, plans: plans.split(separator: ",").map(String.init))
        guard !self.plans.isEmpty else { throw LoadArgumentError("--plan names no plan") }

        func number<T: LosslessStringConvertible & Comparable>(
            _ name: String, _ current: T, atLeast minimum: T
        ) throws(LoadArgumentError) -> T {
            guard let text = values[name] else { return current }
            guard let value = T(text), value >= minimum else {
                throw LoadArgumentError("\(name) \(text): expected a number of at least \(minimum)")
            }
            return value
        }
        viewers = try number("--viewers", viewers, atLeast: 0)
        editors = try number("--editors", editors, atLeast: 0)
        if values["--editor-threads"] != nil { editorThreads = try number("--editor-threads", 1, atLeast: 1) }
        rate = try number("--rate", rate, atLeast: 0.001)
        inFlight = try number("--in-flight", inFlight, atLeast: 0)
        duration = try number("--duration", duration, atLeast: 0)
        watchers = try number("--watchers", watchers, atLeast: 0)
        staleRatio = try number("--stale-ratio", staleRatio, atLeast: 0)
        guard staleRatio <= 1 else { throw LoadArgumentError("--stale-ratio \(staleRatio): expected 0 to 1") }
        ramp = try number("--ramp", ramp, atLeast: 0)
        sampleViewers = try number("--sample", sampleViewers, atLeast: 0)
        connectTimeout = try number("--connect-timeout", connectTimeout, atLeast: 0.001)
        idleTimeout = try number("--idle-timeout", idleTimeout, atLeast: 0)
        if let pid = values["--server-pid"] {
            guard let number = Int32(pid), number > 0 else {
                throw LoadArgumentError("--server-pid \(pid): not a process id")
            }
            serverPID = number
        }
        switch values["--viewer-transport"] {
        case nil, "sockets": viewersOnLWS = false
        case "lws": viewersOnLWS = true
        case let other?: throw LoadArgumentError("--viewer-transport \(other): expected sockets or lws")
        }
        reconnect = flags.contains("--reconnect")
        retryUnavailable = flags.contains("--retry-unavailable")
        answersPath = values["--answers"]
        json = flags.contains("--json")
    }

    static let valueNames: Set<String> = [
        "--server", "--token", "--plan", "--viewers", "--editors", "--editor-threads", "--rate", "--in-flight",
        "--duration", "--watchers",
        "--stale-ratio", "--ramp", "--sample", "--connect-timeout", "--idle-timeout", "--viewer-transport",
        "--server-pid", "--answers",
    ]
    static let flagNames: Set<String> = ["--reconnect", "--retry-unavailable", "--json"]
}

/// Why `plan-load`'s command line was refused.
public struct LoadArgumentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the option.
    public let message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
