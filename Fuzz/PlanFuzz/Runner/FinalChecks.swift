import ChronoSketchCore
import PlanProtocol

/// The checks after a run: health, the plan rules on a fresh snapshot, and the observer's stream.
struct FinalChecks {
    let options: FuzzOptions

    func run(observer: Observer, report: inout FuzzReport) {
        if let status = Health.healthz(host: options.host, port: options.port), status == 200 {
        } else {
            report.findings.append(FuzzFinding(kind: .unhealthy, detail: "GET /healthz did not answer 200"))
        }
        guard let client = FuzzClient(host: options.host, port: options.port), client.hello(token: options.token) else {
            report.findings.append(FuzzFinding(kind: .stall, detail: "a fresh client was not welcomed after the run"))
            return
        }
        client.socket.sendText(
            FuzzJSON.object(["type": "subscribe", "plan": .string(options.plan), "ref": "final"]).bytes)
        guard let snapshot = client.next(within: 10_000, where: { $0.string("ref") == "final" }),
            snapshot.string("type") == "snapshot"
        else {
            report.findings.append(
                FuzzFinding(kind: .stall, detail: "no snapshot for a fresh subscriber after the run"))
            return
        }
        let version = checkRules(snapshot, report: &report)
        observer.wait(for: version, milliseconds: 5000)
        observer.drain(milliseconds: 200)
        for problem in observer.problems {
            report.findings.append(FuzzFinding(kind: .versions, detail: "the observer: \(problem)"))
        }
        for problem in observer.ruleProblems {
            report.findings.append(FuzzFinding(kind: .planRules, detail: "the observer: \(problem)"))
        }
        if observer.version != version {
            report.findings.append(
                FuzzFinding(
                    kind: .versions,
                    detail: "the observer ended at version \(observer.version), the fresh snapshot is at \(version)"))
        }
    }

    /// Decodes the snapshot with the project's own types and validates it as a `TaskCollection`;
    /// the summaries must be those the rules derive. Returns the snapshot's version.
    func checkRules(_ snapshot: JSONObject, report: inout FuzzReport) -> Int {
        do {
            let decoded = try PlanSnapshot(json: .object(snapshot))
            let collection = try TaskCollection(decoded.tasks, dependencies: decoded.dependencies)
            if collection.summaries != decoded.summaries {
                report.findings.append(
                    FuzzFinding(kind: .planRules, detail: "the snapshot's summaries differ from the derived ones"))
            }
            return decoded.version
        } catch {
            report.findings.append(
                FuzzFinding(kind: .planRules, detail: "the final snapshot breaks the rules: \(error)"))
            return snapshot.integer("version") ?? -1
        }
    }
}
