import PlanClient
import PlanProtocol
import Testing

/// Reading the server's export answers, without sockets: the address asked for, the request's
/// header, and what each status and header of the answer comes to.
@Suite("PlanClient: export answers read")
struct PlanDocumentDownloadTests {
    @Test("the address: the plan id percent-encoded, the format and a past version")
    func target() throws {
        #expect(PlanDocumentDownload(plan: "demo").target == "/plans/demo/export?format=json")
        #expect(
            PlanDocumentDownload(plan: "a b/ü", format: .msproject, version: 3).target
                == "/plans/a%20b%2F%C3%BC/export?format=msproject&version=3")
        #expect(PlanPaths.segment("x-1_2.3~") == "x-1_2.3~")
        let endpoint = try #require(ClientTransport.Endpoint(url: "wss://plans.example:8443/ws"))
        #expect(endpoint.origin == "https://plans.example:8443")
        #expect(ClientTransport.Endpoint(url: "ws://127.0.0.1:8080/ws")?.origin == "http://127.0.0.1:8080")
        #expect(ClientTransport.Endpoint(url: "ws://example.org/ws")?.origin == "http://example.org:80")
        let request = PlanDocumentDownload(plan: "demo", format: .csv).request(on: endpoint, token: "t0k")
        #expect(request.host == "plans.example" && request.port == 8443 && request.secure)
        #expect(request.target == "/plans/demo/export?format=csv")
        #expect(request.headers == [HTTPHeaderField("Authorization", "Bearer t0k")])
        #expect(Set(request.responseHeaders.map { $0.lowercased() }).contains("x-export-warnings"))
    }

    @Test("200: the body as sent, the file name and the warning codes (trimmed, once each)")
    func document() throws {
        let response = HTTPResponse(
            status: 200,
            headers: [
                "content-disposition": "attachment; filename=\"demo-v3.xml\"",
                "X-Export-Warnings": " progressRounded,entryWithoutTask, progressRounded",
            ], body: Array("<Project/>".utf8))
        #expect(response.header("x-export-WARNINGS") != nil)
        let document = try PlanDocumentDownload.outcome(of: response).get()
        #expect(document.body == Array("<Project/>".utf8))
        #expect(document.fileName == "demo-v3.xml")
        #expect(document.warningCodes == ["progressRounded", "entryWithoutTask"])
        #expect(PlanDocumentDownload.warningCodes(nil).isEmpty)
        #expect(PlanDocumentDownload.warningCodes(" , ").isEmpty)
        #expect(PlanDocumentDownload.fileName(contentDisposition: "attachment") == nil)
        #expect(PlanDocumentDownload.fileName(contentDisposition: "attachment; filename=\"../x\"") == nil)
    }

    @Test("401, 404 and other statuses are failures with the server's words")
    func failures() {
        func outcome(_ status: Int, _ body: String) -> DownloadFailure? {
            guard
                case .failure(let failure) = PlanDocumentDownload.outcome(
                    of: HTTPResponse(status: status, body: Array(body.utf8)))
            else { return nil }
            return failure
        }
        #expect(outcome(401, "the token is not valid\n") == .unauthorized("the token is not valid"))
        #expect(outcome(404, "not found\n") == .notFound)
        #expect(
            outcome(400, "format must be json, msproject, csv or ics\n")
                == .refused(status: 400, message: "format must be json, msproject, csv or ics"))
        #expect(outcome(503, "")?.description == "503")
        #expect(DownloadFailure.notFound.description == "404 not found")
    }
}
