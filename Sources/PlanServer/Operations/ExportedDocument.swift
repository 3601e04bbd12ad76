import ChronoSketchCore
import PlanInterchange
import PlanStore

/// A plan written in one of the export formats (docs/interchange.md): the text, its media type
/// and file suffix, and what the format could not hold. `plan export` and
/// `GET /plans/ID/export` both write through it, so they give the same document.
struct ExportedDocument {
    /// The formats, `json` (our own) first.
    static let formats = ["json", "msproject", "csv", "ics"]

    let text: String
    let contentType: String
    let suffix: String
    let warnings: [ImportWarning]

    /// `stored` in `format` (one of `formats`; anything else is json); `now` is the export's time
    /// as RFC 3339 UTC (an iCalendar's `DTSTAMP`).
    init(_ stored: StoredPlan, format: String, now: String) {
        var output = ExportOutput()
        warnings = Self.write(stored, format: format, now: now, to: &output)
        text = output.finish()
        switch format {
        case "msproject": (contentType, suffix) = ("application/xml; charset=utf-8", "xml")
        case "csv": (contentType, suffix) = ("text/csv; charset=utf-8", "csv")
        case "ics": (contentType, suffix) = ("text/calendar; charset=utf-8", "ics")
        default: (contentType, suffix) = ("application/json", "json")
        }
    }

    /// Writes `stored` in `format` to `output` (the caller finishes it), as `init` gives it;
    /// returns what the format could not hold. MS Project XML, CSV and iCalendar are written
    /// task by task; our JSON is written whole.
    static func write(_ stored: StoredPlan, format: String, now: String, to output: inout ExportOutput)
        -> [ImportWarning]
    {
        switch format {
        case "msproject":
            return MSProjectExport.write(stored.document, to: &output)
        case "csv":
            CSVExport.write(stored.document, to: &output)
        case "ics":
            ICSExport.write(stored.document, planID: stored.id, stamp: ICSExport.stamp(fromRFC3339: now), to: &output)
        default:
            output.write(stored.exportJSON)
        }
        return []
    }
}
