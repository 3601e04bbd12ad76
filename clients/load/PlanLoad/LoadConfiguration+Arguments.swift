import CommandLineOptions

extension LoadConfiguration {
    /// Reads `plan-load`'s command line (without the program name). Every option must be known
    /// and every value valid: a mistyped option is an error, never a silent default.
    /// - Throws: `LoadArgumentError` naming the offending option.
    public init(arguments: [String]) throws(LoadArgumentError) {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(
                arguments, valueOptions: LoadConfiguration.valueNames, flagOptions: LoadConfiguration.flagNames)
            try parsed.noPositionals(after: 0)
        } catch {
            throw LoadArgumentError(error.description)
        }
        try self.init(parsed)
    }

    /// Whether the command line asks for `--help` (answered before the required options are
    /// checked; a command line that is refused anyway is not a request for help).
    public static func asksForHelp(_ arguments: [String]) -> Bool {
        (try? ParsedArguments(arguments, valueOptions: valueNames, flagOptions: flagNames))?.help ?? false
    }

    private init(_ parsed: ParsedArguments) throws(LoadArgumentError) {
        let values = parsed.values
        let flags = parsed.flags
        guard let server = values["--server"], let token = values["--token"], let plans = values["--plan"] else {
            throw LoadArgumentError("--server, --token and --plan are required")
        }
        self.init(server: server, token: token, plans: plans.split(separator: ",").map(String.init))
        guard !self.plans.isEmpty else { throw LoadArgumentError("--plan names no plan") }

        func number<T: LosslessStringConvertible & Comparable>(
            _ name: String, _ current: T, atLeast minimum: T
        ) throws(LoadArgumentError) -> T {
            do { return try parsed.number(name, atLeast: minimum) ?? current } catch {
                throw LoadArgumentError(error.description)
            }
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
        conflictRatio = try number("--conflict-ratio", conflictRatio, atLeast: 0)
        guard conflictRatio <= 1 else {
            throw LoadArgumentError("--conflict-ratio \(conflictRatio): expected 0 to 1")
        }
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
        "--stale-ratio", "--conflict-ratio", "--ramp", "--sample", "--connect-timeout", "--idle-timeout",
        "--viewer-transport",
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
