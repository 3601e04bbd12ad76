import ChronoSketchCore
import PlanInterchange
import PlanStore
import WebAssets
import WebSocketWire

/// `GET /plans/ID/calendar.ics` (the calendar feed, also for a feed key: `?key=…`) and
/// `GET /plans/ID/export?format=…&version=…` (the document `plan export` writes) for a bearer
/// token with a role on the plan
/// (`../shared/spec/interchange.md` §10, §14; docs/interchange.md "Over HTTP"). Answered on a worker thread: the token, the role and the plan are
/// read from the database, so the answer is what is committed.
struct PlanDocumentRequest: Sendable, Equatable {
    /// What is asked for.
    enum Document: Sendable, Equatable {
        /// The iCalendar feed of the current version.
        case calendar
        /// An export in `format` (json, msproject, csv, ics), current or as of `version`.
        case export(format: String, version: Int?)
    }

    let plan: String
    let document: Document
    /// The bearer token (`Authorization: Bearer …`), if any.
    let token: String?
    /// The feed key (`?key=…`, interchange.md §13), if any: it reads the calendar feed only.
    var key: String? = nil

    /// The request `head` makes, if it is one of these (nil: another path); an answer at once
    /// for one that cannot be served (`400` for an unknown format or version, `405` for a method
    /// other than GET or HEAD).
    static func parse(_ head: HTTPRequestHead) -> Result<PlanDocumentRequest, HTTPAnswerBox>? {
        let parts = head.path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty, parts[1] == "plans",
            parts[3] == "calendar.ics" || parts[3] == "export",
            let plan = percentDecoded(parts[2]), !plan.isEmpty
        else { return nil }
        guard head.method == "GET" || head.method == "HEAD" else {
            return .failure(HTTPAnswerBox(.plain(status: 405, "only GET", headers: ["Allow: GET, HEAD"])))
        }
        let query = queryItems(head.target)
        let token = head.values("Authorization").lazy.compactMap { value -> String? in
            let trimmed = value.trimmingSpaces
            guard trimmed.lowercased().hasPrefix("bearer ") else { return nil }
            return String(trimmed.dropFirst(7)).trimmingSpaces
        }.first
        guard parts[3] == "export" else {
            return .success(PlanDocumentRequest(plan: plan, document: .calendar, token: token, key: query["key"]))
        }
        let format = query["format"] ?? "json"
        guard ExportedDocument.formats.contains(format) else {
            return .failure(HTTPAnswerBox(.plain(status: 400, "format must be json, msproject, csv or ics")))
        }
        var version: Int?
        if let text = query["version"] {
            guard let number = Int(text), number >= 0 else {
                return .failure(HTTPAnswerBox(.plain(status: 400, "version must be a whole number")))
            }
            version = number
        }
        return .success(
            PlanDocumentRequest(plan: plan, document: .export(format: format, version: version), token: token))
    }

    /// The query's `name=value` pairs, percent-decoded (the last of a repeated name).
    static func queryItems(_ target: String) -> [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var items: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = percentDecoded(halves[0]) else { continue }
            items[name] = halves.count > 1 ? percentDecoded(halves[1]) : ""
        }
        return items
    }

    /// `%XX` sequences decoded (`+` kept); nil for a broken sequence or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        StaticPath.percentDecoded(ArraySlice(text.utf8)).flatMap { String(validating: $0, as: UTF8.self) }
    }
}

/// An `HTTPAnswer` as an error value (for `Result`).
struct HTTPAnswerBox: Error, Equatable {
    let answer: HTTPAnswer
    init(_ answer: HTTPAnswer) { self.answer = answer }
}
