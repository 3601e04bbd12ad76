import ChronoSketchCore
import CommandLineOptions
import PlanClient

/// The options of `plan export`, `plan bookings` and `plan feed`.
extension PlanOptions {
    /// `--format`, `--from`, `--to`, `--resource` and `--revoke`.
    mutating func readDocumentValues(
        _ parsed: ParsedArguments, _ bad: (String, String, String, String) -> ParseError
    ) throws(ParseError) {
        revoke = parsed.flag("--revoke")
        if let text = parsed.value("--format") {
            guard let format = PlanDocumentDownload.Format(rawValue: text) else {
                throw bad("--format", text, "json, msproject, csv or ics", "json, msproject, csv oder ics")
            }
            self.format = format
        }
        for (name, keyPath) in [("--from", \PlanOptions.from), ("--to", \PlanOptions.to)] {
            guard let text = parsed.value(name) else { continue }
            guard let date = try? CivilDate(text) else {
                throw bad(name, text, "a date YYYY-MM-DD", "ein Datum JJJJ-MM-TT")
            }
            self[keyPath: keyPath] = date
        }
        if let from, let to, to < from {
            throw bad("--to", to.description, "on or after --from \(from)", "am oder nach --from \(from)")
        }
        if let text = parsed.value("--resource") {
            let ids = text.split(separator: ",").map(String.init).filter { !$0.isEmpty }
            guard !ids.isEmpty else {
                throw bad(
                    "--resource", text, "resource ids, separated by commas", "Ressourcen-IDs, durch Kommas getrennt")
            }
            resources = ids
        }
    }
}
