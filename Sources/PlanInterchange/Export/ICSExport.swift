import ChronoSketchCore

/// The plan as iCalendar (RFC 5545; interchange.md §10): one all-day `VEVENT` per scheduled
/// activity (its exclusive end is exactly iCalendar's `DTEND`) and per milestone (one day); none
/// for summaries and unscheduled activities. Text is escaped, lines end in CRLF and are folded
/// at 75 octets, never inside a UTF-8 sequence.
public enum ICSExport {
    /// The domain in every `UID` (`<plan>/<task>@chronosketch`): the same task has the same UID
    /// in every export, so calendar applications update events rather than duplicate them.
    public static let uidDomain = "chronosketch"

    /// The document; `stamp` is the export's time in UTC as `YYYYMMDDTHHMMSSZ` (`DTSTAMP`).
    public static func document(_ plan: PlanDocument, planID: String, stamp: String) -> String {
        var output = ExportOutput()
        write(plan, planID: planID, stamp: stamp, to: &output)
        return output.finish()
    }

    /// Writes the document to `output` (the caller finishes it), as `document` gives it.
    public static func write(_ plan: PlanDocument, planID: String, stamp: String, to output: inout ExportOutput) {
        func put(_ lines: [String]) {
            for line in lines { output.write(folded(line) + "\r\n") }
        }
        put([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//ChronoSketch//Plan Server//EN", "CALSCALE:GREGORIAN",
            "X-WR-CALNAME:" + escaped(plan.title),
        ])
        for task in plan.state.tasks.tasks {
            let days: (start: CivilDate, end: CivilDate)
            switch task.kind {
            case .activity(let schedule?, _): days = (schedule.start, schedule.end)
            case .milestone(let date):
                guard let next = try? date.adding(days: 1) else { continue }
                days = (date, next)
            default: continue
            }
            put([
                "BEGIN:VEVENT", "UID:" + escaped("\(planID)/\(task.id)@\(uidDomain)"), "DTSTAMP:" + stamp,
                "DTSTART;VALUE=DATE:" + basic(days.start), "DTEND;VALUE=DATE:" + basic(days.end),
                "SUMMARY:" + escaped(task.title), "TRANSP:TRANSPARENT", "END:VEVENT",
            ])
        }
        put(["END:VCALENDAR"])
    }

    /// `2026-12-04T15:00:07.120Z` (RFC 3339, UTC) as `20261204T150007Z` (a `DTSTAMP`).
    public static func stamp(fromRFC3339 text: String) -> String {
        String(text.prefix(19).filter { $0 != "-" && $0 != ":" }) + "Z"
    }

    /// `2026-09-08` as `20260908`.
    static func basic(_ date: CivilDate) -> String {
        String(date.description.filter { $0 != "-" })
    }

    /// TEXT escaped (RFC 5545 §3.3.11): backslash, semicolon, comma and line breaks.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n": result += "\\n"
            case "\r": continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A content line folded at 75 octets (CRLF and one space before each continuation), cut only
    /// between UTF-8 sequences.
    static func folded(_ line: String) -> String {
        let bytes = Array(line.utf8)
        guard bytes.count > 75 else { return line }
        var parts: [[UInt8]] = []
        var start = 0
        var limit = 75
        while start < bytes.count {
            var end = min(start + limit, bytes.count)
            // Back off continuation bytes (10xxxxxx) so the cut falls before a sequence's first byte.
            while end < bytes.count, end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            parts.append(Array(bytes[start..<end]))
            start = end
            limit = 74  // the leading space counts
        }
        return parts.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\r\n ")
    }
}
