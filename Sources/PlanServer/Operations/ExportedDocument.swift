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
        switch format {
        case "msproject":
            let written = MSProjectExport.document(stored.document)
            (text, contentType, suffix, warnings) = (
                written.text, "application/xml; charset=utf-8", "xml", written.warnings
            )
        case "csv":
            (text, contentType, suffix, warnings) = (
                CSVExport.document(stored.document), "text/csv; charset=utf-8", "csv", []
            )
        case "ics":
            let ics = ICSExport.document(stored.document, planID: stored.id, stamp: ICSExport.stamp(fromRFC3339: now))
            (text, contentType, suffix, warnings) = (ics, "text/calendar; charset=utf-8", "ics", [])
        default:
            (text, contentType, suffix, warnings) = (stored.exportJSON, "application/json", "json", [])
        }
    }
}
