import ChronoSketchCore
import CommandLineOptions
import PlanInterchange
import PlanProtocol
import PlanStore
import SystemSupport

extension ServerCommands {
    /// `plan export ID [--version V]`: the plan (current, or as of V) in the import format, with
    /// its `id` and `version`.
    static func exportPlan(_ options: ParsedArguments, store: PlanStore) throws {
        let id = try options.positional(2, "ID")
        try options.noPositionals(after: 3)
        let format = options.value("--format") ?? "json"
        guard ExportedDocument.formats.contains(format) else {
            throw CommandError("--format must be json, msproject, csv or ics, not \(format)")
        }
        let plan: StoredPlan
        if let requested = try options.number("--version", atLeast: 0) {
            switch try store.plan(id, asOf: requested) {
            case .document(let document)?:
                plan = StoredPlan(id: id, version: requested, document: document)
            case .unavailable(let logStart, let current)?:
                throw CommandError(
                    "version \(requested) of \(id) cannot be rebuilt (the history holds \(logStart)…\(current))",
                    status: 1)
            case nil:
                throw CommandError.noPlan(id)
            }
        } else {
            guard let loaded = try store.loadPlan(id) else { throw CommandError.noPlan(id) }
            plan = loaded
        }
        let now = WallClock.timestamp(unixMilliseconds: Int(ProcessIO.unixSeconds() * 1000))
        // Written to standard output as it is made (the warnings, known at the end, follow on
        // standard error); the JSON ends its line as before, the other formats as they are written.
        var output = ExportOutput { ProcessIO.print($0, terminator: "") }
        let warnings = ExportedDocument.write(plan, format: format, now: now, to: &output)
        if format == "json" { output.write("\n") }
        _ = output.finish()
        for warning in warnings { ProcessIO.printError("\(warning)") }
    }

    /// `plan history ID [--since V]`: the audit trail, one JSON line per version after V, oldest
    /// first (the entries of a `history` message).
    static func printHistory(_ options: ParsedArguments, store: PlanStore) throws {
        let id = try options.positional(2, "ID")
        try options.noPositionals(after: 3)
        let since = try options.number("--since", atLeast: 0) ?? 0
        guard let first = try store.history(of: id, before: .max, limit: 1) else { throw CommandError.noPlan(id) }
        var from = max(since, first.rowsFrom - 1)
        let page = 1_000
        while from < first.currentVersion {
            let rows = try store.history(of: id, after: from, limit: page)
            for row in rows {
                let entry = HistoryEntry(
                    version: row.version, at: row.at, mutationID: row.proposalID, user: row.user, opJSON: row.opJSON,
                    changesJSON: row.changesJSON)
                ProcessIO.print(entry.json)
            }
            guard let last = rows.last else { break }
            from = last.version
        }
    }
}
