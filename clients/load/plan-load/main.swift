// plan-load: simulates many viewers, editors and timeline watchers against a plan server and
// prints the figures; exits with 1 when any viewer diverged.
import Glibc
import PlanLoad
import SystemSupport

let usage = """
    usage: plan-load --server ws://HOST:PORT/ws --token TOKEN --plan ID[,ID…] [--viewers N] [--editors M]
                     [--editor-threads T] [--rate R | --in-flight W] [--duration S] [--watchers K] [--stale-ratio F]
                     [--ramp VIEWERS_PER_S] [--sample N] [--reconnect] [--connect-timeout S] [--idle-timeout S]
                     [--viewer-transport sockets|lws] [--server-pid PID] [--retry-unavailable]
                     [--answers FILE] [--json]
      --plan A,B,…       viewers and editors are spread over the plans round robin
      --editor-threads T editors spread over T client threads (default: one per processor
                         with --in-flight, else one)
      --rate R           proposals per second, all editors together (default 10)
      --in-flight W      instead of a rate: each editor keeps W proposals in flight
      --watchers K       timeline watchers, each moving its window every second
      --stale-ratio F    share of proposals built on stale originals (must be rejected staleTask)
      --ramp V           viewers opened per second (default 2000; 0: all at once)
      --sample N         viewers that decode and apply everything (default 20)
      --reconnect        viewers reconnect after a drop and resume with since
      --idle-timeout S   a viewer that hears nothing pings after S − 10 s and drops after S (default 35;
                         0: never), so that a cut link is noticed
      --retry-unavailable editors send a proposal answered unavailable again, same id, until decided
      --answers FILE     write the confirmed proposals there, VERSION ID a line (to check the log)
      --viewer-transport sockets (default: plain epoll sockets, ws:// only) or lws (as editors)
    """

let arguments = Array(CommandLine.arguments.dropFirst())
if LoadConfiguration.asksForHelp(arguments) {
    print(usage)
    exit(0)
}
let configuration: LoadConfiguration
do {
    configuration = try LoadConfiguration(arguments: arguments)
} catch {
    ProcessIO.printError("plan-load: \(error)")
    ProcessIO.printError(usage)
    exit(2)
}

let report: LoadRun.Report
do {
    report = try await LoadRun.run(configuration)
} catch {
    ProcessIO.printError("plan-load: \(error)")
    exit(2)
}
if configuration.json {
    let fields = report.fields.map { "\"\($0.0)\":\(format($0.1))" }
    let notes = report.notes.map { "\"" + escaped($0) + "\"" }.joined(separator: ",")
    print("{" + fields.joined(separator: ",") + ",\"notes\":[\(notes)]}")
} else {
    print(
        "latency (ms)".padding(26) + "count".left(9) + "p50".left(10) + "p95".left(10) + "p99".left(10)
            + "max".left(10))
    for (name, values) in report.latencies {
        print(
            name.padding(26) + String(values.count).left(9)
                + [0.5, 0.95, 0.99].map { format(LoadRun.percentile(values, $0)).left(10) }.joined()
                + format(values.last ?? 0).left(10))
    }
    print("")
    for (name, number) in report.fields where !name.hasSuffix("_ms") { print(name.padding(34) + format(number)) }
    for note in report.notes { print("note: " + note) }
}
exit(report.converged ? 0 : 1)

func format(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}

func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case _ where scalar.value < 0x20: result += " "
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result
}

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(1, width - count)) }
    func left(_ width: Int) -> String { String(repeating: " ", count: max(1, width - count)) + self }
}
