import ChronoSketchCore
import PlanInterchange
import PlanStore
import WebSocketWire

extension PlanDocumentRequest {
    /// The answer, read from `store` (blocking: run it on a worker). 401 without a valid token,
    /// 404 for a plan the user has no role on (or that does not exist, or a version outside its
    /// history: plan names do not leak), 503 when the database does not answer. The feed without
    /// a token but with a key: 200 for a live key of this plan, else 404 (a feed address leaks
    /// nothing).
    func answer(store: PlanStore, now: () -> String) -> HTTPAnswer {
        if document == .calendar, token?.isEmpty ?? true, let key {
            do {
                guard try store.feedUser(plan: plan, key: key) != nil, let stored = try store.loadPlan(plan) else {
                    return PlanDocumentRequest.notFound
                }
                return calendar(stored.document, now: now())
            } catch {
                return .plain(status: 503, "the database is unavailable; try again")
            }
        }
        guard let token, !token.isEmpty else {
            return .plain(status: 401, "a bearer token is required", headers: ["WWW-Authenticate: Bearer"])
        }
        do {
            guard let user = try store.authenticate(token: token) else {
                return .plain(status: 401, "the token is not valid", headers: ["WWW-Authenticate: Bearer"])
            }
            guard try store.role(of: user, in: plan) != nil else { return PlanDocumentRequest.notFound }
            switch document {
            case .calendar:
                guard let stored = try store.loadPlan(plan) else { return PlanDocumentRequest.notFound }
                return calendar(stored.document, now: now())
            case .export(let format, let version):
                guard let stored = try read(version: version, store: store) else { return PlanDocumentRequest.notFound }
                return export(stored, format: format, now: now())
            }
        } catch {
            return .plain(status: 503, "the database is unavailable; try again")
        }
    }

    static let notFound = HTTPAnswer.plain(status: 404, "not found")

    /// The plan, current or as of `version`; nil when it (or that version) cannot be read.
    private func read(version: Int?, store: PlanStore) throws(StoreError) -> StoredPlan? {
        guard let version else { return try store.loadPlan(plan) }
        guard case .document(let document)? = try store.plan(plan, asOf: version) else { return nil }
        return StoredPlan(id: plan, version: version, document: document)
    }

    private func calendar(_ document: PlanDocument, now: String) -> HTTPAnswer {
        let text = ICSExport.document(document, planID: plan, stamp: ICSExport.stamp(fromRFC3339: now))
        return HTTPAnswer(status: 200, contentType: "text/calendar; charset=utf-8", body: Array(text.utf8))
    }

    private func export(_ stored: StoredPlan, format: String, now: String) -> HTTPAnswer {
        let exported = ExportedDocument(stored, format: format, now: now)
        // A past version's file says which version it holds (`demo-v12.xml`).
        let versionPart = document == .export(format: format, version: nil) ? "" : "-v\(stored.version)"
        let name = PlanDocumentRequest.fileName(plan) + versionPart
        var headers = ["Content-Disposition: attachment; filename=\"\(name).\(exported.suffix)\""]
        if !exported.warnings.isEmpty {
            headers.append(
                "X-Export-Warnings: " + Array(Set(exported.warnings.map(\.code))).sorted().joined(separator: ","))
        }
        return HTTPAnswer(
            status: 200, contentType: exported.contentType, body: Array(exported.text.utf8), headers: headers)
    }

    /// A plan id as a file name in a header: letters, digits, `-`, `_` and `.` kept, others `_`.
    static func fileName(_ plan: String) -> String {
        String(
            plan.unicodeScalars.map { scalar -> Character in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "-_.".unicodeScalars.contains(scalar))
                    ? Character(scalar) : "_"
            })
    }
}
