import PlanStore
import SystemSupport
import WebAssets
import WebSocketServer
import WebSocketWire

extension PlanServerRuntime {
    /// The answers to plain HTTP requests on the WebSocket port, on the service threads (nothing
    /// here blocks: the web client's files are in memory): `/healthz`, `/metrics`, the plan
    /// documents (`/plans/ID/calendar.ics`, `/plans/ID/export`: handed to `documents`, which
    /// answers later from a worker), and every other path from the web client's files (404 when
    /// there are none).
    static func httpAnswers(
        site: StaticSite?, flags: RuntimeFlags, metrics: Metrics,
        documents: @escaping @Sendable (PlanDocumentRequest, ConnectionID) -> Void,
        transportFigures: @escaping @Sendable () -> Metrics.TransportFigures?
    ) -> @Sendable (HTTPRequestHead, ConnectionID) -> HTTPAnswer? {
        { head, connection in
            switch PlanDocumentRequest.parse(head) {
            case .success(let request)?:
                documents(request, connection)
                return nil
            case .failure(let refusal)?:
                return refusal.answer
            case nil:
                break
            }
            switch head.path {
            case "/healthz":
                return flags.healthy.load(ordering: .relaxed)
                    ? .plain(status: 200, "ok") : .plain(status: 503, "database unavailable")
            case "/metrics":
                return HTTPAnswer(
                    status: 200, contentType: "text/plain; version=0.0.4",
                    body: Array(metrics.render(transportFigures() ?? Metrics.TransportFigures()).utf8))
            default:
                guard let site else {
                    return .plain(status: 404, "not found; the WebSocket endpoint is /ws (no web client: --web-root)")
                }
                let answer = site.respond(to: head)
                return HTTPAnswer(
                    status: answer.status, contentType: answer.contentType, body: answer.body, headers: answer.headers)
            }
        }
    }

    /// Plan documents are read from the database on a worker; the answer goes back through the
    /// transport (`respond`), which holds the connection until then.
    static func documentAnswers(
        store: PlanStore, workers: BlockingWorkers, respond: @escaping @Sendable (HTTPAnswer, ConnectionID) -> Void
    ) -> @Sendable (PlanDocumentRequest, ConnectionID) -> Void {
        { request, connection in
            workers.submit {
                let answer = request.answer(store: store) {
                    WallClock.timestamp(unixMilliseconds: Int(ProcessIO.unixSeconds() * 1000))
                }
                respond(answer, connection)
            }
        }
    }
}
