import Glibc
import PlanStore
import SystemSupport

/// A real `plan-server serve` process on a free port, against the tests' PostgreSQL.
public final class ServerProcess: @unchecked Sendable {
    /// The process id.
    public let pid: pid_t
    /// The port it listens on.
    public let port: Int
    /// Where its standard error goes.
    public let logPath: String
    private var exited = false

    /// The address it listens on.
    public let host: String

    /// ws://HOST:PORT/ws.
    public var url: String { "ws://\(host):\(port)/ws" }

    /// The directory of the built products (beside the test bundle: `plan-server`, `plan`, …).
    public static let productsDirectory: String = {
        let path = ShippedFiles.executablePath() ?? ""
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }()

    /// The plan-server binary built beside the test bundle.
    public static let binary = productsDirectory + "/plan-server"

    /// Starts a server and waits until it listens. `launcher` runs it (such as
    /// `ip netns exec NAME`, which ends by executing the server in the same process); `host`
    /// is passed as `--host`.
    public static func start(
        databaseURL: String = TestDatabase.url, arguments: [String] = [], launcher: [String] = [],
        host: String = "127.0.0.1"
    ) throws -> ServerProcess {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw HarnessError("pipe failed") }
        let logPath = "/tmp/plan-server-test-\(UInt32.random(in: 0...UInt32.max)).log"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        // Generous deadlines for peers unless the test sets them: a test task may wait for a busy
        // cooperative pool (two busy cores, the whole suite in parallel) between its connect and
        // its hello, or between two reads, for longer than a peer ever should.
        // The defaults, each unless the test gives that option itself (plan-server refuses an
        // option given twice).
        let defaults = [
            ("--host", host), ("--port", "0"), ("--database", databaseURL), ("--hello-timeout-seconds", "120"),
            ("--ping-interval-seconds", "120"), ("--write-timeout-seconds", "600"),
        ]
        let given = Set(arguments.map { String($0.split(separator: "=", maxSplits: 1)[0]) })
        let argv =
            launcher + [binary, "serve"] + defaults.filter { !given.contains($0.0) }.flatMap { [$0.0, $0.1] }
            + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let status = withCleanSignals { posix_spawn(&pid, argv[0], &actions, $0, &cArguments, environ) }
        close(pipeFDs[1])
        guard status == 0 else { throw HarnessError("cannot start \(binary): \(status)") }
        // Read stdout until "listening on HOST:PORT".
        var output: [UInt8] = []
        var byte: UInt8 = 0
        while read(pipeFDs[0], &byte, 1) == 1 {
            output.append(byte)
            if byte == UInt8(ascii: "\n"), String(decoding: output, as: UTF8.self).contains("listening on") { break }
        }
        close(pipeFDs[0])
        let text = String(decoding: output, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on") }),
            let port = Int(line.split(separator: ":").last ?? "")
        else {
            kill(pid, SIGKILL)
            var ignored: Int32 = 0
            waitpid(pid, &ignored, 0)
            throw HarnessError("the server did not start: \(text) (log \(logPath))")
        }
        return ServerProcess(pid: pid, host: host, port: port, logPath: logPath)
    }

    /// A new server on the port of a stopped one (its clients reconnect there), retrying for at
    /// most `seconds` while the port is still being released.
    public static func restart(
        port: Int, databaseURL: String = TestDatabase.url, arguments: [String] = [], within seconds: Int = 10
    ) throws -> ServerProcess {
        let deadline = time(nil) + seconds
        while true {
            do {
                return try start(databaseURL: databaseURL, arguments: ["--port", String(port)] + arguments)
            } catch {
                if time(nil) > deadline { throw error }
                usleep(100_000)  // the port is still held by the killed process: try again shortly
            }
        }
    }

    private init(pid: pid_t, host: String, port: Int, logPath: String) {
        self.pid = pid
        self.host = host
        self.port = port
        self.logPath = logPath
    }

    deinit {
        if !exited { kill(pid, SIGKILL) }
        var status: Int32 = 0
        if !exited { waitpid(pid, &status, 0) }
    }

    /// SIGTERM and wait for exit; returns the exit status.
    @discardableResult
    public func terminate() -> Int32 {
        stop(signal: SIGTERM)
    }

    /// SIGKILL and wait.
    public func crash() {
        _ = stop(signal: SIGKILL)
    }

    private func stop(signal: Int32) -> Int32 {
        guard !exited else { return 0 }
        kill(pid, signal)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        exited = true
        return status
    }

    /// The server's log (standard error) so far.
    public var log: String {
        (try? String(decoding: readAll(logPath), as: UTF8.self)) ?? ""
    }
}
