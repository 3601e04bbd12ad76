import CommandLineOptions
import Glibc
import PlanFuzz
import SystemSupport

// plan-fuzz --url ws://127.0.0.1:PORT/ws --token T --plan demo --seed N --seconds S
//           [--mode frames|messages|both] [--pid PID] [--case N]
// Prints a summary and every finding with its replay information; exits 1 on findings, 2 on usage.

/// Writes a line to standard error.
func note(_ line: String) {
    ProcessIO.printError("plan-fuzz: \(line)")
}

let usageText =
    "usage: plan-fuzz --url ws://HOST:PORT/ws --token T --plan P [--seed N] [--seconds S] "
    + "[--mode frames|messages|both] [--pid PID] [--case N]"

func usage(_ problem: String) -> Never {
    note(problem)
    note(usageText)
    exit(2)
}

let parsed: ParsedArguments
do {
    parsed = try ParsedArguments(
        Array(CommandLine.arguments.dropFirst()),
        valueOptions: ["--url", "--token", "--plan", "--seed", "--seconds", "--mode", "--pid", "--case"])
    try parsed.noPositionals(after: 0)
} catch {
    usage(error.description)
}
if parsed.help {
    print(usageText)
    exit(0)
}
let values = parsed.values
guard let url = values["--url"], url.hasPrefix("ws://") else { usage("--url ws://HOST:PORT/ws is required") }
let authority = url.dropFirst("ws://".count).split(separator: "/").first ?? ""
let hostAndPort = authority.split(separator: ":")
guard hostAndPort.count == 2, let port = Int(hostAndPort[1]) else { usage("cannot read host and port in \(url)") }
guard let token = values["--token"] else { usage("--token is required") }
let seed = values["--seed"].map { UInt64($0) ?? 0 } ?? UInt64.random(in: 0...UInt64.max)
guard let mode = FuzzOptions.Mode(rawValue: values["--mode"] ?? "both") else { usage("--mode frames|messages|both") }
let onlyCase = values["--case"].flatMap { Int($0) }
if onlyCase != nil, mode == .both { usage("--case needs --mode frames or --mode messages") }

let options = FuzzOptions(
    host: String(hostAndPort[0]), port: port, token: token, plan: values["--plan"] ?? "demo", seed: seed,
    seconds: values["--seconds"].flatMap { Double($0) } ?? 60, mode: mode, pid: values["--pid"].flatMap { Int32($0) },
    onlyCase: onlyCase,
    progress: { note($0) })
print("plan-fuzz: seed \(seed), mode \(mode.rawValue), \(options.seconds) s against \(url), plan \(options.plan)")
let report = FuzzRunner(options: options).run()
print(report)
if !report.findings.isEmpty {
    print("replay: plan-fuzz --url \(url) --token T --plan \(options.plan) --seed \(seed) --mode MODE --case N")
}
exit(report.findings.isEmpty ? 0 : 1)
