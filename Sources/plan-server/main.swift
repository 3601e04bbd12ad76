// plan-server: the ChronoSketch plan server's command line (serve, migrate, user add, grant, plan).
import Glibc
import PlanServer

var environment: [String: String] = [:]
var pointer = environ
while let entry = pointer.pointee {
    let text = String(cString: entry)
    if let equals = text.firstIndex(of: "=") {
        environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
    }
    pointer += 1
}
exit(ServerCommands.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment))
