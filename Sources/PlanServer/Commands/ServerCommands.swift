import ChronoSketchCore
import Dispatch
import Glibc
import PlanProtocol
import PlanStore

/// `plan-server` subcommands (protocol.md §8). `main.swift` only hands over the arguments.
public enum ServerCommands {
    static let usage = """
        usage:
          plan-server serve [--host 127.0.0.1] [--port 8080] [--database URL] [--tls-cert PEM --tls-key PEM]
                            [--instance NAME] [--quiet] [--max-message-bytes N] [--max-queue-bytes N]
                            [--max-proposals-per-second N] [--max-tasks-per-plan N] [--idle-plan-seconds N]
                            [--max-watches-per-connection N] [--max-assignments-per-entry N]
                            [--frame-interval-ms N] [--service-threads N] [--log-keep N]
          plan-server migrate [--database URL]
          plan-server user add NAME [--database URL]       prints a new secret token as its last line
          plan-server grant USER PLAN viewer|editor|owner [--database URL]
          plan-server plan create ID --title T [--import FILE.json] [--database URL]
          plan-server plan export ID [--database URL]      the current snapshot as JSON on stdout
        The database comes from --database or DATABASE_URL (a libpq URI or keyword string).
        """

    /// Runs one subcommand; returns the process exit code.
    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        var options = Options(arguments)
        guard let command = options.positional.first else {
            print(usage)
            return arguments.contains("--help") || arguments.contains("-h") ? 0 : 2
        }
        do {
            let database = options.value("--database") ?? environment["DATABASE_URL"]
            func store() throws -> PlanStore {
                guard let database, !database.isEmpty else {
                    throw CommandError("no database: pass --database or set DATABASE_URL")
                }
                return PlanStore(conninfo: database, connections: 1)
            }
            switch (command, options.positional.dropFirst().first) {
            case ("serve", _):
                guard let database, !database.isEmpty else {
                    throw CommandError("no database: pass --database or set DATABASE_URL")
                }
                var configuration = ServerConfiguration(databaseURL: database)
                configuration.host = options.value("--host") ?? configuration.host
                if let port = options.value("--port") {
                    guard let number = Int(port), (0...65535).contains(number) else {
                        throw CommandError("bad --port \(port)")
                    }
                    configuration.port = number
                }
                configuration.tlsCertificatePath = options.value("--tls-cert")
                configuration.tlsKeyPath = options.value("--tls-key")
                guard (configuration.tlsCertificatePath == nil) == (configuration.tlsKeyPath == nil) else {
                    throw CommandError("--tls-cert and --tls-key go together")
                }
                configuration.instanceName = options.value("--instance") ?? "s\(getpid())"
                func limit(_ name: String, _ keyPath: WritableKeyPath<ProtocolLimits, Int>) throws {
                    guard let text = options.value(name) else { return }
                    guard let value = Int(text), value > 0 else { throw CommandError("bad \(name) \(text)") }
                    configuration.limits[keyPath: keyPath] = value
                }
                try limit("--max-message-bytes", \.maxMessageBytes)
                try limit("--max-queue-bytes", \.maxQueueBytes)
                try limit("--max-proposals-per-second", \.maxProposalsPerSecond)
                try limit("--max-tasks-per-plan", \.maxTasksPerPlan)
                try limit("--max-watches-per-connection", \.maxWatchesPerConnection)
                try limit("--max-assignments-per-entry", \.maxAssignmentsPerEntry)
                if let text = options.value("--frame-interval-ms") {
                    guard let milliseconds = Int(text), milliseconds >= 0 else {
                        throw CommandError("bad --frame-interval-ms \(text)")
                    }
                    configuration.frameInterval = .milliseconds(milliseconds)
                }
                if let text = options.value("--service-threads") {
                    guard let threads = Int(text), (1...64).contains(threads) else {
                        throw CommandError("bad --service-threads \(text) (1 to 64)")
                    }
                    configuration.serviceThreads = threads
                }
                if let text = options.value("--idle-plan-seconds") {
                    guard let seconds = Int(text), seconds > 0 else {
                        throw CommandError("bad --idle-plan-seconds \(text)")
                    }
                    configuration.idlePlanLifetime = .seconds(seconds)
                }
                if let text = options.value("--hello-timeout-seconds") {
                    guard let seconds = Int(text), (1...3600).contains(seconds) else {
                        throw CommandError("bad --hello-timeout-seconds \(text) (1 to 3600)")
                    }
                    configuration.helloTimeout = .seconds(seconds)
                }
                if let text = options.value("--max-intake-backlog") {
                    guard let messages = Int(text), messages >= 2 else {
                        throw CommandError("bad --max-intake-backlog \(text) (at least 2)")
                    }
                    configuration.maxIntakeBacklog = messages
                }
                if let text = options.value("--ping-interval-seconds") {
                    guard let seconds = Int(text), (0...3600).contains(seconds) else {
                        throw CommandError("bad --ping-interval-seconds \(text) (0 to 3600; 0: no pings)")
                    }
                    configuration.pingInterval = .seconds(seconds)
                }
                if let text = options.value("--log-keep") {
                    guard let versions = Int(text), versions >= 0 else { throw CommandError("bad --log-keep \(text)") }
                    configuration.logKeep = versions
                }
                configuration.logging = !options.flag("--quiet")
                try options.finish()
                return try serve(configuration)
            case ("migrate", _):
                try options.finish()
                let applied = try store().migrate(directory: Migrator.defaultDirectory(environment: environment))
                print(applied.isEmpty ? "the schema is up to date" : "applied: \(applied.joined(separator: ", "))")
            case ("user", "add"):
                let name = try options.positional(2, "NAME")
                try options.finish(positionals: 3)
                let token = try store().createUser(name)
                print("created user \(name); its token (shown only now):")
                print(token)
            case ("grant", _):
                let user = try options.positional(1, "USER")
                let plan = try options.positional(2, "PLAN")
                let roleName = try options.positional(3, "ROLE")
                try options.finish(positionals: 4)
                guard let role = PlanRole(rawValue: roleName) else {
                    throw CommandError("the role must be viewer, editor or owner, not \(roleName)")
                }
                try store().grant(user: user, plan: plan, role: role)
                print("\(user) is \(role.rawValue) of \(plan)")
            case ("plan", "create"):
                let id = try options.positional(2, "ID")
                let title = options.value("--title")
                let file = options.value("--import")
                try options.finish(positionals: 3)
                var document = PlanDocument(title: title ?? id, state: PlanState())
                if let file {
                    document = try PlanDocument(json: try JSONValue(parsing: try readFileBytes(file)))
                    if let title { document.title = title }
                }
                guard title != nil || file != nil else { throw CommandError("plan create needs --title (or --import)") }
                try store().createPlan(id: id, document: document)
                print("created plan \(id) (\(document.state.tasks.count) tasks)")
            case ("plan", "export"):
                let id = try options.positional(2, "ID")
                try options.finish(positionals: 3)
                guard let plan = try store().loadPlan(id) else { throw CommandError("no plan \(id)") }
                print(plan.exportJSON)
            default:
                throw CommandError("unknown command\n\(usage)")
            }
            return 0
        } catch let error as CommandError {
            writeError("plan-server: \(error.message)")
            return 2
        } catch {
            writeError("plan-server: \(error)")
            return 1
        }
    }

    /// Serves until SIGTERM or SIGINT, then shuts down gracefully.
    private static func serve(_ configuration: ServerConfiguration) throws -> Int32 {
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        let runtime = try PlanServerRuntime(configuration: configuration)
        // Tests and scripts read the chosen port from this line.
        print("listening on \(configuration.host):\(runtime.port)")
        fflush(nil)
        let done = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for number in [SIGTERM, SIGINT] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { done.signal() }
            source.resume()
            sources.append(source)
        }
        done.wait()
        // A graceful stop gets 30 s (a second signal ends it at once): SIGTERM always ends the
        // process, even if a commit or a socket never finishes.
        let watchdog = DispatchSemaphore(value: 0)
        for source in sources { source.setEventHandler { watchdog.signal() } }
        DispatchQueue.global().async {
            _ = watchdog.wait(timeout: .now() + 30)
            writeError("plan-server: the graceful shutdown did not finish; exiting")
            exit(1)
        }
        runtime.shutdown()
        return 0
    }

    private static func writeError(_ text: String) {
        let line = Array((text + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}

struct CommandError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A minimal option parser: `--name value`, `--flag`, and positionals in any order.
struct Options {
    private(set) var positional: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    private var used: Set<String> = []
    private static let flagNames: Set<String> = ["--quiet", "--help", "-h"]

    init(_ arguments: [String]) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if Options.flagNames.contains(argument) {
                flags.insert(argument)
            } else if argument.hasPrefix("--"), index + 1 < arguments.count {
                values[argument] = arguments[index + 1]
                index += 1
            } else if argument.hasPrefix("--") {
                values[argument] = ""
            } else {
                positional.append(argument)
            }
            index += 1
        }
    }

    mutating func value(_ name: String) -> String? {
        used.insert(name)
        return values[name]
    }

    mutating func flag(_ name: String) -> Bool {
        used.insert(name)
        return flags.contains(name)
    }

    func positional(_ index: Int, _ name: String) throws -> String {
        guard index < positional.count else { throw CommandError("missing \(name)\n\(ServerCommands.usage)") }
        return positional[index]
    }

    /// Fails on options nobody asked for (typos) and surplus positionals.
    func finish(positionals count: Int = 1) throws {
        if let unknown = values.keys.first(where: { !used.contains($0) && $0 != "--database" }) {
            throw CommandError("unknown option \(unknown)")
        }
        if positional.count > count { throw CommandError("unexpected \(positional[count])") }
    }
}

/// Reads a whole file as bytes.
func readFileBytes(_ path: String) throws -> [UInt8] {
    guard let file = fopen(path, "rb") else { throw CommandError("cannot open \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return bytes
}
