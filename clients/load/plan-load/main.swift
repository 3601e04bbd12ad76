// plan-load: simulates many viewers and editors against a plan server and prints the figures.
import Glibc
import PlanLoad

let usage = """
    usage: plan-load --server ws://HOST:PORT/ws --token TOKEN --plan ID [--viewers N] [--editors M]
                     [--rate R] [--duration S] [--server-pid PID] [--json]
    """

let arguments = Array(CommandLine.arguments.dropFirst())
func value(_ name: String) -> String? {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
guard let server = value("--server"), let token = value("--token"), let plan = value("--plan") else {
    print(usage)
    exit(2)
}
var configuration = LoadConfiguration(server: server, token: token, plan: plan)
configuration.viewers = value("--viewers").flatMap { Int($0) } ?? configuration.viewers
configuration.editors = value("--editors").flatMap { Int($0) } ?? configuration.editors
configuration.rate = value("--rate").flatMap { Double($0) } ?? configuration.rate
configuration.duration = value("--duration").flatMap { Double($0) } ?? configuration.duration
configuration.serverPID = value("--server-pid").flatMap { Int32($0) }
configuration.json = arguments.contains("--json")

let report = try await LoadRun.run(configuration)
if configuration.json {
    print("{" + report.fields.map { "\"\($0.0)\":\(format($0.1))" }.joined(separator: ",") + "}")
} else {
    for (name, number) in report.fields { print(name.padding(30) + format(number)) }
}
exit(report.converged ? 0 : 1)

func format(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(1, width - count)) }
}
