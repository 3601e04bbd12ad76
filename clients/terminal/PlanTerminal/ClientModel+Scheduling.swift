import ChronoSketchCore
import PlanProtocol

/// Automatic scheduling in the task views (scheduling.md): the tasks a version pushed marked for
/// a moment, the critical path of the rows on screen (at most one `schedule` request in flight),
/// a conflict offered again at its earliest date (`M`), and the owner's settings form (`S`).
extension ClientModel {
    /// A confirmed version's pushes: marked until a wake ends them.
    mutating func followPushes(_ changes: PlanChanges, version: Int) -> [ClientAction] {
        guard let token = scheduling.markPushed(changes.pushed ?? [], version: version) else { return [] }
        return [.wake(afterMilliseconds: ScheduleViewState.pushedMarkMilliseconds, token: token)]
    }

    /// The figures the screen needs: when those of the current version do not cover the rows on
    /// screen and no request is in flight, a `schedule` request for the rows around them.
    mutating func askFigures() -> [ClientAction] {
        guard connection == .connected, !roleEnded, history.past == nil, mode == .list || mode == .timeline,
            let version = copy?.version
        else { return [] }
        // The rows around the screen, built once; those on screen are a slice of them.
        let first = max(topRow - visibleRowCount, 0)
        let around = rows(first..<(topRow + 2 * visibleRowCount)).map(\.id)
        let onScreen = Array(around.dropFirst(topRow - first).prefix(visibleRowCount))
        guard let asked = scheduling.idsToAsk(onScreen: onScreen, around: around, version: version) else {
            return []
        }
        let ref = nextID("s")
        scheduling.asked(ref: ref, version: version, ids: asked)
        return [.schedule(version: version, ids: asked, ref: ref)]
    }

    /// A server message about scheduling: a `schedule` answer, or an error answering one. True
    /// when it was one of ours.
    mutating func receiveScheduling(_ message: ServerMessage) -> Bool {
        switch message {
        case .schedule(let answer, let ref) where answer.plan == settings.plan:
            return scheduling.receive(answer, ref: ref)
        case .error(_, _, let ref?):
            return scheduling.failed(ref: ref)
        default:
            return false
        }
    }

    /// A `scheduleConflict` for a proposal of ours whose op is known: the form (if it waits for
    /// it) closes, the footer names the earliest date, and `M` sends the same change there.
    mutating func receiveConflict(id: String, conflict: ConflictDetail?) -> Bool {
        guard let conflict, let copy, let operation = scheduling.sent(id) else { return false }
        pending[id] = nil
        if case .saving(id)? = form?.phase { form = nil }
        scheduling.offer(operation, conflict: conflict, calendar: copy.snapshot.settings.calendar)
        let title = collection?[conflict.task]?.title ?? conflict.task
        message = strings.conflict(title, earliest: conflict.earliest, canMove: scheduling.offer?.operation != nil)
        return true
    }

    /// `M` after a conflict: the offered proposal goes out (a key other than `M` drops it).
    mutating func takeConflictOffer(_ offer: ConflictOffer?) -> [ClientAction] {
        guard let operation = offer?.operation, history.past == nil, allowed() else { return [] }
        let id = sendTaskProposal(operation, taskID: offer?.taskID)
        message = strings.movingTo(offer?.earliest)
        return [.propose(operation, id: id)]
    }

    /// A new id for a proposal (`p`), a new task (`t`) or entry (`e`), or a request (`c`, `s`):
    /// the kind, this client's prefix and the next number.
    mutating func nextID(_ kind: String) -> String {
        counter += 1
        return "\(kind)-\(settings.idPrefix)-\(counter)"
    }

    /// Registers a proposal of a task's change (pending on that task, and known to the scheduling
    /// state for a conflict's answer); returns its id for the `.propose` action.
    mutating func sendTaskProposal(_ operation: PlanOperation, taskID: String?) -> String {
        let id = nextID("p")
        pending[id] = taskID
        scheduling.send(operation, id: id)
        return id
    }

    /// `S`: the plan's scheduling settings (owners only, as the server says).
    mutating func openSettingsForm() {
        guard history.past == nil else {
            message = strings.readOnly(history.past?.version ?? 0)
            return
        }
        guard let copy, allowed(.settings) else { return }
        form = TaskForm.settingsForm(copy.snapshot.settings, language: settings.language)
    }

    /// Save on the settings form: `settings.replace` from the settings the form was opened on.
    mutating func saveSettingsForm(_ form: inout TaskForm) -> [ClientAction] {
        let language = settings.language
        return savePlanForm(&form) { form throws(FormError) in try form.settingsOperation(language: language) }
    }
}
