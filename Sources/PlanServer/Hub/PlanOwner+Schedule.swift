import ChronoSketchCore
import PlanProtocol
import WebSocketServer

/// `schedule` requests (scheduling.md §6): a version's figures computed once, off the hub, and
/// kept for the newest version asked; each answer then costs the ids it names.
extension PlanOwner {
    /// One `schedule` request waiting for its answer.
    struct ScheduleRequest {
        let connection: ConnectionID
        let ids: [String]?
        let ref: String?
    }

    /// Answers from the cache, or computes the current version's figures on a worker; a past
    /// version is rebuilt on a worker (like `fetch`); one outside the history is an `error`.
    mutating func schedule(version requested: Int?, request: ScheduleRequest) {
        let asked = requested ?? version
        guard asked >= logStart, asked <= version else {
            let message = "version \(asked) is not in the history (it holds \(logStart)…\(version))"
            send(.error(code: .historyUnavailable, message: message, ref: request.ref), to: request.connection)
            return
        }
        guard asked == version else {
            emit(
                .run(
                    .scheduleAsOf(request.connection, plan: id, version: asked, ids: request.ids, ref: request.ref)))
            return
        }
        if let cached = scheduleCache, cached.version == version {
            answer(request, version: version, cached.figures)
            return
        }
        scheduleWaiting[version, default: []].append(request)
        // The collection goes to the worker as a value: it shares storage until the next commit.
        if scheduleWaiting[version]!.count == 1 {
            emit(
                .run(
                    .computeSchedule(plan: id, version: version, confirmed.tasks, calendar: confirmed.settings.calendar)
                ))
        }
    }

    /// A version's figures are ready: kept while that version is the current one (a commit lets
    /// them go), and the requests waiting for it answered.
    mutating func scheduleComputed(version computed: Int, _ figures: ScheduleFigures) {
        if computed == version { scheduleCache = (computed, figures) }
        for request in scheduleWaiting.removeValue(forKey: computed) ?? [] {
            answer(request, version: computed, figures)
        }
    }

    private mutating func answer(_ request: ScheduleRequest, version: Int, _ figures: ScheduleFigures) {
        let answer = ScheduleAnswer(plan: id, version: version, figures: figures, ids: request.ids)
        send(.schedule(answer, ref: request.ref), to: request.connection)
    }
}
