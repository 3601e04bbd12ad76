import PlanProtocol

/// A plan's document from the server's `GET /plans/ID/export?format=…[&version=V]`
/// (docs/interchange.md "Over HTTP"): the bytes `plan-server plan export` writes, asked for with
/// the user's token on the host, port and TLS of the WebSocket URL. Reading the answer
/// (`outcome(of:)`) is pure; `fetch` sends the request.
public struct PlanDocumentDownload: Sendable, Hashable {
    /// The export formats, as the server names them.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// Our own JSON (the import format, with `id`, `version` and the bookings' `taskID`).
        case json
        /// MS Project XML (MSPDI).
        case msproject
        /// RFC 4180 CSV, one row per task.
        case csv
        /// iCalendar, one all-day event per dated task.
        case ics
    }

    /// The plan id.
    public var plan: String
    /// The format asked for.
    public var format: Format
    /// A past version, or nil for the current one.
    public var version: Int?

    /// The headers the answer is read for.
    public static let answerHeaders = ["Content-Disposition", "X-Export-Warnings", "Content-Type"]

    /// A download of `plan` in `format`, current or as of `version`.
    public init(plan: String, format: Format = .json, version: Int? = nil) {
        self.plan = plan
        self.format = format
        self.version = version
    }

    /// `/plans/ID/export?format=F[&version=V]`, the id percent-encoded.
    public var target: String {
        "/plans/" + PlanPaths.segment(plan) + "/export?format=" + format.rawValue
            + (version.map { "&version=\($0)" } ?? "")
    }

    /// The GET for the server at `endpoint` (its host, port and TLS) with `token`.
    public func request(on endpoint: ClientTransport.Endpoint, token: String) -> HTTPRequest {
        HTTPRequest(
            on: endpoint, target: target, headers: [HTTPHeaderField("Authorization", "Bearer " + token)],
            responseHeaders: PlanDocumentDownload.answerHeaders)
    }

    /// Sends the request on `transport` and reads the answer.
    public func fetch(
        on transport: ClientTransport, endpoint: ClientTransport.Endpoint, token: String,
        timeout: Duration = .seconds(60)
    ) async -> Result<DownloadedDocument, DownloadFailure> {
        switch await transport.get(request(on: endpoint, token: token), timeout: timeout) {
        case .success(let response): PlanDocumentDownload.outcome(of: response)
        case .failure(.timedOut): .failure(.timedOut)
        case .failure(.transport(let reason)): .failure(.unreachable(reason))
        case .failure(let error): .failure(.unreachable("\(error)"))
        }
    }

    /// The document of a 200 answer; otherwise what the status says (401: the token is not taken,
    /// 404: no such plan or version for this user, others with the server's text).
    public static func outcome(of response: HTTPResponse) -> Result<DownloadedDocument, DownloadFailure> {
        let text = String(decoding: response.body.prefix(300), as: UTF8.self).trimmingWhitespace
        switch response.status {
        case 200:
            return .success(
                DownloadedDocument(
                    body: response.body, fileName: fileName(contentDisposition: response.header("Content-Disposition")),
                    warningCodes: warningCodes(response.header("X-Export-Warnings")),
                    contentType: response.header("Content-Type")))
        case 401: return .failure(.unauthorized(text))
        case 404: return .failure(.notFound)
        default: return .failure(.refused(status: response.status, message: text))
        }
    }

    /// The codes of an `X-Export-Warnings` value (`entryWithoutTask,progressRounded`), trimmed,
    /// without repeats, in their order.
    public static func warningCodes(_ header: String?) -> [String] {
        var seen: Set<String> = []
        return (header ?? "").split(separator: ",").map { String($0).trimmingWhitespace }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// The file name of `attachment; filename="demo.xml"`, if it names one (without a path).
    public static func fileName(contentDisposition: String?) -> String? {
        guard let value = contentDisposition else { return nil }
        let marker = "filename=\""
        var rest = Substring(value)
        while !rest.isEmpty, !rest.hasPrefix(marker) { rest = rest.dropFirst() }
        guard !rest.isEmpty else { return nil }
        let name = rest.dropFirst(marker.count).prefix { $0 != "\"" }
        guard !name.isEmpty, !name.contains("/"), !name.contains("\\") else { return nil }
        return String(name)
    }
}

/// A document as the server exported it.
public struct DownloadedDocument: Sendable, Hashable {
    /// The document's bytes, exactly as sent.
    public var body: [UInt8]
    /// The file name the server gives it (`demo.xml`, `demo-v12.csv`), if any.
    public var fileName: String?
    /// What could not be written (interchange.md §7 codes), in the header's order.
    public var warningCodes: [String]
    /// The media type, if sent.
    public var contentType: String?

    /// Creates a document.
    public init(body: [UInt8], fileName: String? = nil, warningCodes: [String] = [], contentType: String? = nil) {
        self.body = body
        self.fileName = fileName
        self.warningCodes = warningCodes
        self.contentType = contentType
    }
}

/// Why no document came.
public enum DownloadFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// 401: the token was not taken (with the server's text).
    case unauthorized(String)
    /// 404: no plan of that id for this user, or a version outside its history.
    case notFound
    /// Another status, with the server's text (400 for a bad format or version, 503 …).
    case refused(status: Int, message: String)
    /// No answer: the connection could not be made or broke off.
    case unreachable(String)
    /// No answer in time.
    case timedOut

    /// A short English explanation.
    public var description: String {
        switch self {
        case .unauthorized(let text): "401 unauthorized" + (text.isEmpty ? "" : ": \(text)")
        case .notFound: "404 not found"
        case .refused(let status, let text): "\(status)" + (text.isEmpty ? "" : ": \(text)")
        case .unreachable(let reason): "unreachable: \(reason)"
        case .timedOut: "no answer in time"
        }
    }
}

extension String {
    /// The string without leading and trailing white space (line breaks included).
    fileprivate var trimmingWhitespace: String {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return start < end ? String(self[start..<end]) : ""
    }
}
