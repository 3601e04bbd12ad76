import CommandLineOptions
import Glibc
import PlanProtocol
import SystemSupport
import WebSocketServer
import WebSocketWire

extension ServerConfiguration {
    /// The options `plan-server serve` takes with a value (`--database` included).
    static let serveValueOptions: Set<String> = [
        "--database", "--host", "--port", "--tls-cert", "--tls-key", "--instance", "--max-message-bytes",
        "--max-queue-bytes", "--max-proposals-per-second", "--max-tasks-per-plan", "--max-watches-per-connection",
        "--max-assignments-per-entry", "--frame-interval-ms", "--service-threads", "--write-helpers",
        "--idle-plan-seconds", "--hello-timeout-seconds", "--max-intake-backlog", "--ping-interval-seconds",
        "--log-keep",
        "--max-connections-per-user", "--max-connections-per-address", "--checkpoint-every", "--web-root",
        "--max-user-queue-bytes", "--write-timeout-seconds", "--queue-budget-bytes", "--max-intake-per-connection",
        "--trusted-proxy",
    ]
    /// The flags `plan-server serve` takes.
    static let serveFlagOptions: Set<String> = ["--quiet"]

    /// The configuration `plan-server serve` runs with: the defaults, changed by `options`; the
    /// web root is `--web-root`, else the default `WebRoot.defaultDirectory(environment:)` finds.
    /// - Throws: `CommandLineError` naming an option whose value is out of range.
    init(databaseURL: String, options: ParsedArguments, environment: [String: String] = [:]) throws(CommandLineError) {
        self.init(databaseURL: databaseURL)
        webRoot = options.value("--web-root") ?? WebRoot.defaultDirectory(environment: environment)
        host = options.value("--host") ?? host
        port = try options.number("--port", in: 0...65535) ?? port
        tlsCertificatePath = options.value("--tls-cert")
        tlsKeyPath = options.value("--tls-key")
        guard (tlsCertificatePath == nil) == (tlsKeyPath == nil) else {
            throw .other("--tls-cert and --tls-key go together")
        }
        instanceName = options.value("--instance") ?? "s\(getpid())"
        let limitOptions: [(String, WritableKeyPath<ProtocolLimits, Int>)] = [
            ("--max-message-bytes", \.maxMessageBytes), ("--max-queue-bytes", \.maxQueueBytes),
            ("--max-proposals-per-second", \.maxProposalsPerSecond), ("--max-tasks-per-plan", \.maxTasksPerPlan),
            ("--max-watches-per-connection", \.maxWatchesPerConnection),
            ("--max-assignments-per-entry", \.maxAssignmentsPerEntry),
            ("--max-user-queue-bytes", \.maxUserQueueBytes), ("--write-timeout-seconds", \.writeTimeoutSeconds),
        ]
        for (name, keyPath) in limitOptions {
            if let value = try options.number(name, atLeast: 1) { limits[keyPath: keyPath] = value }
        }
        if let milliseconds = try options.number("--frame-interval-ms", atLeast: 0) {
            frameInterval = .milliseconds(milliseconds)
        }
        serviceThreads = try options.number("--service-threads", in: 1...64) ?? serviceThreads
        writeHelpers = try options.number("--write-helpers", in: 0...16) ?? writeHelpers
        if let seconds = try options.number("--idle-plan-seconds", atLeast: 1) { idlePlanLifetime = .seconds(seconds) }
        if let seconds = try options.number("--hello-timeout-seconds", in: 1...3600) {
            helloTimeout = .seconds(seconds)
        }
        maxIntakeBacklog = try options.number("--max-intake-backlog", atLeast: 2) ?? maxIntakeBacklog
        maxIntakePerConnection =
            try options.number("--max-intake-per-connection", atLeast: 2) ?? maxIntakePerConnection
        if let seconds = try options.number("--ping-interval-seconds", in: 0...3600) {
            pingInterval = .seconds(seconds)
        }
        logKeep = try options.number("--log-keep", atLeast: 0) ?? logKeep
        queueBudget = try options.number("--queue-budget-bytes", atLeast: 0) ?? queueBudget
        checkpointEvery = try options.number("--checkpoint-every", atLeast: 1) ?? checkpointEvery
        maxConnectionsPerUser = try options.number("--max-connections-per-user", atLeast: 0) ?? maxConnectionsPerUser
        maxConnectionsPerAddress =
            try options.number("--max-connections-per-address", atLeast: 0) ?? maxConnectionsPerAddress
        if let list = options.value("--trusted-proxy") {
            do {
                trustedProxies = try TrustedProxies(parsing: list)
            } catch {
                throw .other("--trusted-proxy: \(error.message)")
            }
        }
        logging = !options.flag("--quiet")
    }
}

extension ServerConfiguration {
    /// What the transport runs with: the connection limits and times, the service threads, and the
    /// bounds of connections per address and of unsent bytes.
    var transportConfiguration: WebSocketTransport.Configuration {
        var transport = WebSocketTransport.Configuration()
        transport.host = host
        transport.port = port
        transport.tlsCertificatePath = tlsCertificatePath
        transport.tlsKeyPath = tlsKeyPath
        transport.serviceThreads = serviceThreads
        transport.writeHelpers = writeHelpers
        transport.maxIntakeBacklog = maxIntakeBacklog
        transport.maxIntakePerConnection = maxIntakePerConnection
        transport.maxConnectionsPerAddress = maxConnectionsPerAddress
        transport.queueBudget = queueBudget
        transport.accountShare = limits.maxUserQueueBytes
        transport.connection.maxMessageBytes = limits.maxMessageBytes
        transport.connection.maxQueueBytes = limits.maxQueueBytes
        transport.connection.frameInterval = frameInterval.inNanoseconds
        transport.connection.headTimeout = helloTimeout.inNanoseconds
        transport.connection.pingInterval = pingInterval.inNanoseconds
        transport.connection.trustedProxies = trustedProxies
        transport.connection.writeTimeout = UInt64(limits.writeTimeoutSeconds) * 1_000_000_000
        return transport
    }
}
