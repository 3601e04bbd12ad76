import WebSocketWire

extension PlanServerRuntime {
    /// The answers to plain HTTP requests on the WebSocket port, on the service threads (nothing
    /// here blocks: the web client's files are in memory): `/healthz`, `/metrics`, and every other
    /// path from the web client's files (404 when there are none).
    static func httpAnswers(
        site: StaticSite?, flags: RuntimeFlags, metrics: Metrics,
        transportFigures: @escaping @Sendable () -> Metrics.TransportFigures?
    ) -> @Sendable (HTTPRequestHead) -> HTTPResponse {
        { head in
            switch head.path {
            case "/healthz":
                return flags.healthy.load(ordering: .relaxed)
                    ? HTTPResponse(status: 200, body: "ok\n")
                    : HTTPResponse(status: 503, body: "database unavailable\n")
            case "/metrics":
                return HTTPResponse(
                    status: 200, contentType: "text/plain; version=0.0.4",
                    body: metrics.render(transportFigures() ?? Metrics.TransportFigures()))
            default:
                guard let site else {
                    return HTTPResponse(
                        status: 404, body: "not found; the WebSocket endpoint is /ws (no web client: --web-root)\n")
                }
                let answer = site.respond(to: head)
                return HTTPResponse(
                    status: answer.status, contentType: answer.contentType, bytes: answer.body,
                    headers: answer.headers)
            }
        }
    }
}
