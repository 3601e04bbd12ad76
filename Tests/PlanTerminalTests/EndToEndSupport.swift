import ChronoSketchCore
import Glibc
import PlanStore
import PlanTestSupport

/// The directory of the built products (where `plan` and `plan-server` are).
let productsDirectory = ServerProcess.productsDirectory

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
    let status = withCleanSignals { posix_spawnp(&pid, argv[0], &actions, $0, &arguments, environ) }
    guard status == 0 else { throw HarnessError("cannot start \(argv[0]): \(status)") }
    var exit: Int32 = 0
    while waitpid(pid, &exit, 0) < 0 && errno == EINTR {}
    let output = (try? readAll(path)) ?? []
    return ((exit >> 8) & 0xff, String(decoding: output, as: UTF8.self))
}

/// A tmux server of our own (a private socket) running terminal clients.
final class Tmux: @unchecked Sendable {
    let socket = TestDatabase.unique("plan-e2e")

    static var isAvailable: Bool { (try? runProgram(["tmux", "-V"]).status) == 0 }

    /// Starts `command` in a new detached 120×40 session.
    func start(_ session: String, _ command: [String]) throws {
        // Bounded by `timeout`: should the harness never be released (the test process ending
        // first), the client and its tmux server still end, rather than run on beside later tests.
        let line = (["timeout", "600", "env", "TERM=xterm-256color"] + command).map { "'" + $0 + "'" }.joined(
            separator: " ")
        let result = try runProgram([
            "tmux", "-L", socket, "new-session", "-d", "-s", session, "-x", "120", "-y", "40", line,
        ])
        guard result.status == 0 else { throw HarnessError("tmux new-session failed") }
    }

    /// Sends keys (tmux key names or literal text).
    func send(_ session: String, _ keys: String...) throws {
        try send(session, keys: keys)
    }

    /// Sends a list of keys.
    func send(_ session: String, keys: [String]) throws {
        try runProgram(["tmux", "-L", socket, "send-keys", "-t", session] + keys)
    }

    /// Writes `text` to the session's terminal in one write, as a terminal sends a mouse report.
    /// (`send-keys -H` writes byte by byte: on a busy machine a report's bytes could arrive more
    /// than the client's 25 ms escape delay apart, and the report was read as Escape and keys.)
    func sendReport(_ session: String, _ text: String) throws {
        try runProgram(["tmux", "-L", socket, "set-buffer", "-b", "report", text])
        try runProgram(["tmux", "-L", socket, "paste-buffer", "-d", "-b", "report", "-t", session])
    }

    /// The visible screen.
    func capture(_ session: String) -> String {
        (try? runProgram(["tmux", "-L", socket, "capture-pane", "-p", "-t", session]).output) ?? ""
    }

    /// Polls the screen until `predicate` holds on a settled screen (the same 50 ms later: a
    /// capture can catch the client halfway through drawing a frame), for at most `seconds`.
    func waitFor(_ session: String, within seconds: Double = 10, _ predicate: (String) -> Bool) throws -> String {
        var screen = ""
        let deadline = Double(time(nil)) + seconds
        while Double(time(nil)) <= deadline {
            screen = capture(session)
            if predicate(screen) {
                usleep(50_000)
                let again = capture(session)
                if again == screen { return screen }
                continue
            }
            usleep(100_000)
        }
        throw HarnessError("timed out waiting on \(session); the screen was:\n\(screen)")
    }

    /// Polls the screen with its colours and attributes (SGR escapes) until one of its lines
    /// satisfies `predicate`, for at most `seconds`; returns that screen.
    func waitForColored(_ session: String, within seconds: Double = 10, _ predicate: (String) -> Bool) throws -> String
    {
        var screen = ""
        let deadline = Double(time(nil)) + seconds
        while Double(time(nil)) <= deadline {
            screen = (try? runProgram(["tmux", "-L", socket, "capture-pane", "-p", "-e", "-t", session]).output) ?? ""
            if screen.split(separator: "\n").contains(where: { predicate(String($0)) }) { return screen }
            usleep(100_000)
        }
        throw HarnessError("timed out waiting on \(session)'s colours; the screen was:\n\(screen)")
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

/// A new plan of the sample tasks (Design → Implementation → Release) titled `title`; its id.
func samplePlan(titled title: String) throws -> String {
    let plan = TestDatabase.unique("plan")
    try TestDatabase.store.createPlan(
        id: plan,
        document: PlanDocument(title: title, state: PlanState(tasks: Sample.collection, timeline: TimelineData())))
    return plan
}

/// A new user who edits `plan`: the user's name and token.
func planEditor(_ plan: String, _ name: String) throws -> (user: String, token: String) {
    let user = TestDatabase.unique(name)
    let token = try TestDatabase.store.createUser(user)
    try TestDatabase.store.grant(user: user, plan: plan, role: .editor)
    return (user, token)
}

/// The words inside a form's frame on `screen` (between the first and last "│" of each line),
/// joined by single spaces: a sentence the form wraps reads as one.
func formText(_ screen: String) -> String {
    screen.split(separator: "\n").flatMap { line -> [Substring] in
        guard let first = line.firstIndex(of: "│"), let last = line.lastIndex(of: "│"), first < last else { return [] }
        return line[line.index(after: first)..<last].split(separator: " ")
    }
    .joined(separator: " ")
}
