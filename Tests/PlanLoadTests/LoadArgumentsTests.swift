import Glibc
import Testing

@testable import PlanLoad

@Suite("plan-load: its command line")
struct LoadArgumentsTests {
    static let required = ["--server", "ws://127.0.0.1:1/ws", "--token", "t", "--plan", "a,b"]

    @Test("every option is read; defaults stay where none is given")
    func reads() throws {
        let configuration = try LoadConfiguration(
            arguments: Self.required + [
                "--viewers", "500", "--editors", "3", "--editor-threads", "5", "--in-flight", "8", "--duration", "2.5",
                "--watchers", "4",
                "--stale-ratio", "0.25", "--ramp", "0", "--sample", "7", "--connect-timeout", "9",
                "--viewer-transport", "lws", "--server-pid", "42", "--reconnect", "--json", "--retry-unavailable",
                "--answers", "/tmp/acked",
            ])
        #expect(configuration.plans == ["a", "b"])
        #expect(configuration.viewers == 500 && configuration.editors == 3 && configuration.inFlight == 8)
        #expect(configuration.duration == 2.5 && configuration.watchers == 4 && configuration.staleRatio == 0.25)
        #expect(configuration.ramp == 0 && configuration.sampleViewers == 7 && configuration.connectTimeout == 9)
        #expect(configuration.viewersOnLWS && configuration.serverPID == 42 && configuration.editorThreads == 5)
        #expect(configuration.reconnect && configuration.json)
        #expect(configuration.retryUnavailable && configuration.answersPath == "/tmp/acked")
        let defaults = try LoadConfiguration(arguments: Self.required)
        #expect(defaults.viewers == 100 && defaults.rate == 10 && !defaults.json && defaults.serverPID == nil)
        #expect(!defaults.retryUnavailable && defaults.answersPath == nil)
        // One editor thread with a rate; with proposals in flight one per processor, never more
        // than editors; none without editors.
        #expect(defaults.editorThreads == nil && defaults.effectiveEditorThreads == 1)
        var fast = defaults
        (fast.editors, fast.inFlight) = (64, 16)
        #expect(fast.effectiveEditorThreads == min(64, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        fast.editors = 1
        #expect(fast.effectiveEditorThreads == 1)
        fast.editors = 0
        #expect(fast.effectiveEditorThreads == 0)
        #expect(configuration.effectiveEditorThreads == 3)
    }

    @Test(
        "a mistyped option, a bad value or a missing one is refused, naming the option",
        arguments: [
            (["--viewres", "3"], "unknown option --viewres"),
            (["--viewers", "many"], "--viewers many: expected a number of at least 0"),
            (["--rate", "0"], "--rate 0: expected a number of at least 0.001"),
            (["--editor-threads", "0"], "--editor-threads 0: expected a number of at least 1"),
            (["--stale-ratio", "1.5"], "--stale-ratio 1.5: expected 0 to 1"),
            (["--conflict-ratio", "2"], "--conflict-ratio 2.0: expected 0 to 1"),
            (["--viewer-transport", "udp"], "--viewer-transport udp: expected sockets or lws"),
            (["--server-pid", "-3"], "--server-pid -3: not a process id"),
            (["--viewers", "1", "--viewers", "2"], "--viewers is given twice"),
            (["--duration"], "--duration needs a value"),
        ])
    func refuses(extra: [String], message: String) {
        #expect(throws: LoadArgumentError(message)) { try LoadConfiguration(arguments: Self.required + extra) }
    }

    @Test("the server, the token and the plan are required")
    func requires() {
        #expect(throws: LoadArgumentError("--server, --token and --plan are required")) {
            try LoadConfiguration(arguments: ["--server", "ws://x/ws", "--plan", "p"])
        }
        #expect(throws: LoadArgumentError("--plan names no plan")) {
            try LoadConfiguration(arguments: ["--server", "ws://x/ws", "--token", "t", "--plan", ","])
        }
    }
}

@Suite("plan-load: viewers' reconnect delays")
struct ReconnectDelayTests {
    @Test("the first attempt after a drop is quick; later ones double up to 2 s; the jitter is added on top")
    func delays() {
        let plain = (0..<12).map { ViewerFleet.reconnectDelay(attempt: $0, jitter: 0) }
        #expect(plain.prefix(5) == [50, 100, 200, 400, 800])
        #expect(zip(plain, plain.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(plain.last == 2_000)
        #expect(ViewerFleet.reconnectDelay(attempt: 0, jitter: 499) == 549)
        #expect(ViewerFleet.reconnectDelay(attempt: Int.max, jitter: 499) == 2_499)
    }
}
