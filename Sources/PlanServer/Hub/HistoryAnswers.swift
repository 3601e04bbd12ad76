import ChronoSketchCore
import PlanProtocol
import PlanStore
import WebSocketWire

/// The answers to `history`, `fetch` and a past version's `schedule`, read and encoded on a worker: the message, or the
/// `error` that says why there is none.
enum HistoryAnswers {
    /// A `history` page, newest first.
    static func history(_ plan: String, before: Int, limit: Int, ref: String?, _ store: PlanStore) -> OutgoingBuffer {
        let message: ServerMessage
        do throws(StoreError) {
            if let read = try store.history(of: plan, before: before, limit: limit) {
                let entries = read.entries.map {
                    HistoryEntry(
                        version: $0.version, at: $0.at, mutationID: $0.proposalID, user: $0.user, opJSON: $0.opJSON,
                        changesJSON: $0.changesJSON)
                }
                message = .history(plan: plan, entries: entries, logStart: read.logStart, more: read.more, ref: ref)
            } else {
                message = .error(code: .unknownPlan, message: "there is no plan \"\(plan)\"", ref: ref)
            }
        } catch {
            message = unavailable(error, ref: ref)
        }
        return OutgoingBuffer(message.bytes)
    }

    /// A `snapshot` of the plan as it was at `version`, marked historical.
    static func fetch(_ plan: String, version: Int, ref: String?, _ store: PlanStore) -> OutgoingBuffer {
        rebuilt(plan, version: version, ref: ref, store) { document in
            .snapshot(PlanSnapshot(plan: plan, version: version, document: document, historical: true), ref: ref)
        }
    }

    /// The `schedule` figures of the plan as it was at `version`.
    static func schedule(_ plan: String, version: Int, ids: [String]?, ref: String?, _ store: PlanStore)
        -> OutgoingBuffer
    {
        rebuilt(plan, version: version, ref: ref, store) { document in
            let state = document.state
            let figures = ScheduleFigures(state.tasks, time: WorkingTime(state.settings.calendar))
            return .schedule(ScheduleAnswer(plan: plan, version: version, figures: figures, ids: ids), ref: ref)
        }
    }

    /// `answer` of the plan rebuilt as it was at `version`, or the `error` that says why it cannot be.
    private static func rebuilt(
        _ plan: String, version: Int, ref: String?, _ store: PlanStore, _ answer: (PlanDocument) -> ServerMessage
    ) -> OutgoingBuffer {
        let message: ServerMessage
        do throws(StoreError) {
            switch try store.plan(plan, asOf: version) {
            case .document(let document)?:
                message = answer(document)
            case .unavailable(let logStart, let current)?:
                message = .error(
                    code: .historyUnavailable,
                    message: "version \(version) cannot be rebuilt (the history holds \(logStart)…\(current))", ref: ref
                )
            case nil:
                message = .error(code: .unknownPlan, message: "there is no plan \"\(plan)\"", ref: ref)
            }
        } catch {
            message = unavailable(error, ref: ref)
        }
        return OutgoingBuffer(message.bytes)
    }

    private static func unavailable(_ error: StoreError, ref: String?) -> ServerMessage {
        .error(code: .historyUnavailable, message: "the history could not be read now (\(error)); try again", ref: ref)
    }
}
