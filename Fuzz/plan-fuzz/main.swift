import CommandLineOptions
import Glibc
import PlanFuzz
import SystemSupport

// plan-fuzz --url ws://127.0.0.1:PORT/ws --token T --plan demo --seed N --seconds S
//           [--mode frames|messages|both] [--pid PID] [--case N]
// plan-fuzz --mode imports --corpus FILE,FILE,… [--seed N] [--seconds S] [--case N]   (no server)
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
        valueOptions: ["--url", "--token", "--plan", "--seed", "--seconds", "--mode", "--pid", "--case", "--corpus"])
    try parsed.noPositionals(after: 0)
} catch {
    usage(error.description)
}
if parsed.help {
    print(usageText)
    exit(0)
}
let values = parsed.values
if values["--mode"] == "imports" { runImports(values) }
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

/// `--mode imports`: mutated plan files through the import path and back through the MS Project
/// export, in this process, until `--seconds` pass (or only `--case N`).
func runImports(_ values: [String: String]) -> Never {
    guard let list = values["--corpus"] else { usage("--mode imports needs --corpus FILE,FILE,…") }
    var corpus: [[UInt8]] = []
    for path in list.split(separator: ",") {
        do {
            corpus.append(try Files.read(String(path)))
        } catch {
            usage("cannot read \(path): \(error)")
        }
    }
    let seed = values["--seed"].map { UInt64($0) ?? 0 } ?? UInt64.random(in: 0...UInt64.max)
    let seconds = values["--seconds"].flatMap { Double($0) } ?? 60
    let onlyCase = values["--case"].flatMap { Int($0) }
    print(
        "plan-fuzz: seed \(seed), imports of \(corpus.count) files for \(onlyCase.map { "case \($0)" } ?? "\(seconds) s")"
    )
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    var index = onlyCase ?? 0
    var findings = 0
    repeat {
        let batch = index..<(index + (onlyCase == nil ? 100 : 1))
        // A crash ends the process: the last batch printed holds the case to replay with --case.
        note("cases \(batch.lowerBound)…\(batch.upperBound - 1)")
        for finding in ImportFuzzRunner.run(corpus: corpus, seed: seed, cases: batch) {
            findings += 1
            print("finding: case \(finding.index): \(finding.reason)")
        }
        index = batch.upperBound
    } while onlyCase == nil && ContinuousClock.now < deadline
    print("plan-fuzz: \(index - (onlyCase ?? 0)) import cases, \(findings) findings")
    if findings > 0 { print("replay: plan-fuzz --mode imports --corpus \(list) --seed \(seed) --case N") }
    exit(findings == 0 ? 0 : 1)
}
