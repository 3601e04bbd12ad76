import ChronoSketchCore
import Glibc
import PlanStore

/// The tests' PostgreSQL (`DATABASE_URL`), migrated once; nil when the variable is not set.
enum EndToEndDatabase {
    static let url: String? = getenv("DATABASE_URL").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }

    static let store: PlanStore? = {
        guard let url else { return nil }
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        let store = PlanStore(conninfo: url)
        do { _ = try store.migrate(directory: path + "/sql") } catch { fatalError("migrations failed: \(error)") }
        return store
    }()

    static func unique(_ prefix: String) -> String {
        "\(prefix)-\(UInt64.random(in: 0...UInt64.max) % 1_000_000_000)"
    }
}

struct EndToEndError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The directory of the built products (the test bundle's, where `plan` and `plan-server` are).
let productsDirectory: String = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let path = String(decoding: buffer[0..<max(0, length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
}()

/// Runs a program to completion; returns its exit status and standard output. The output goes
/// through a temporary file, not a pipe: a daemon the program starts (tmux's server) would keep a
/// pipe open.
@discardableResult
func runProgram(_ argv: [String]) throws -> (status: Int32, output: String) {
    let path = "/tmp/plan-e2e-output-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    defer { unlink(path) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var arguments = argv.map { strdup($0) } + [nil]
    defer { for pointer in arguments { free(pointer) } }
    var pid: pid_t = 0
    let status = posix_spawnp(&pid, argv[0], &actions, nil, &arguments, environ)
    guard status == 0 else { throw EndToEndError("cannot start \(argv[0]): \(status)") }
    var exit: Int32 = 0
    while waitpid(pid, &exit, 0) < 0 && errno == EINTR {}
    var output: [UInt8] = []
    if let file = fopen(path, "rb") {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            output.append(contentsOf: chunk[0..<count])
        }
        fclose(file)
    }
    return ((exit >> 8) & 0xff, String(decoding: output, as: UTF8.self))
}

/// A real `plan-server serve` on a free port, or on `port` (to restart a killed server where its
/// clients reconnect); the minimal part of the server tests' helper.
final class EndToEndServer: @unchecked Sendable {
    let pid: pid_t
    let port: Int
    private var killed = false

    var url: String { "ws://127.0.0.1:\(port)/ws" }

    init(databaseURL: String, port requestedPort: Int = 0) throws {
        let binary = productsDirectory + "/plan-server"
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw EndToEndError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        let argv = [binary, "serve", "--port", String(requestedPort), "--database", databaseURL]
        var arguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in arguments { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, binary, &actions, nil, &arguments, environ)
        close(fds[1])
        guard status == 0 else { throw EndToEndError("cannot start \(binary): \(status)") }
        var output: [UInt8] = []
        var byte: UInt8 = 0
        while read(fds[0], &byte, 1) == 1 {
            output.append(byte)
            if byte == UInt8(ascii: "\n"), String(decoding: output, as: UTF8.self).contains("listening on") { break }
        }
        close(fds[0])
        let text = String(decoding: output, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on") }),
            let port = Int(line.split(separator: ":").last ?? "")
        else {
            Glibc.kill(pid, SIGKILL)
            var ignored: Int32 = 0
            waitpid(pid, &ignored, 0)
            throw EndToEndError("the server did not start: \(text)")
        }
        self.pid = pid
        self.port = port
    }

    /// A new server on the port of a killed one, retrying for at most `seconds` while the port is
    /// still being released.
    static func restart(databaseURL: String, port: Int, within seconds: Int = 10) throws -> EndToEndServer {
        let deadline = time(nil) + seconds
        while true {
            do {
                return try EndToEndServer(databaseURL: databaseURL, port: port)
            } catch {
                if time(nil) > deadline { throw error }
                usleep(100_000)
            }
        }
    }

    /// Kills the server at once (SIGKILL: no close frames, no goodbyes) and reaps it.
    func kill() {
        guard !killed else { return }
        killed = true
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    deinit {
        guard !killed else { return }
        Glibc.kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}

/// A tmux server of our own (a private socket) running terminal clients.
final class Tmux: @unchecked Sendable {
    let socket = EndToEndDatabase.unique("plan-e2e")

    static var isAvailable: Bool { (try? runProgram(["tmux", "-V"]).status) == 0 }

    /// Starts `command` in a new detached 120×40 session.
    func start(_ session: String, _ command: [String]) throws {
        let line = (["env", "TERM=xterm-256color"] + command).map { "'" + $0 + "'" }.joined(separator: " ")
        let result = try runProgram([
            "tmux", "-L", socket, "new-session", "-d", "-s", session, "-x", "120", "-y", "40", line,
        ])
        guard result.status == 0 else { throw EndToEndError("tmux new-session failed") }
    }

    /// Sends keys (tmux key names or literal text).
    func send(_ session: String, _ keys: String...) throws {
        try runProgram(["tmux", "-L", socket, "send-keys", "-t", session] + keys)
    }

    /// The visible screen.
    func capture(_ session: String) -> String {
        (try? runProgram(["tmux", "-L", socket, "capture-pane", "-p", "-t", session]).output) ?? ""
    }

    /// Polls the screen until `predicate` holds, for at most `seconds`.
    func waitFor(_ session: String, within seconds: Double = 10, _ predicate: (String) -> Bool) throws -> String {
        var screen = ""
        let deadline = Double(time(nil)) + seconds
        while Double(time(nil)) <= deadline {
            screen = capture(session)
            if predicate(screen) { return screen }
            usleep(100_000)
        }
        throw EndToEndError("timed out waiting on \(session); the screen was:\n\(screen)")
    }

    deinit {
        _ = try? runProgram(["tmux", "-L", socket, "kill-server"])
    }
}

/// The heading line of `screen` (title, connection state, version, presence).
func heading(of screen: String) -> String {
    String(screen.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
}

/// Whether the heading says connected (and not "disconnected").
func isConnected(_ screen: String) -> Bool {
    let heading = heading(of: screen)
    return heading.contains("connected") && !heading.contains("disconnected")
}

/// The line of `screen` that starts with `label` (a resource row), if any.
func line(startingWith label: String, in screen: String) -> String? {
    screen.split(separator: "\n").map(String.init).first { $0.hasPrefix(label + " ") }
}

/// The cells of a resource row's bars: the character offsets of "█" in `line`.
func barCells(_ line: String?) -> [Int] {
    guard let line else { return [] }
    return Array(line).enumerated().filter { $0.element == "█" }.map(\.offset)
}

/// The line of `screen` that shows `title` as a row, if any.
func row(_ title: String, in screen: String) -> String? {
    screen.split(separator: "\n").map(String.init).first { $0.trimmedPrefix == title || $0.contains(" " + title + " ") }
}

extension String {
    var trimmedPrefix: String { String(drop { $0 == " " || $0 == "▾" || $0 == "▸" }.prefix { $0 != " " }) }
}
