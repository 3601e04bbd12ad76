import ChronoSketchCore
import PlanProtocol

/// The session's role on the plan (protocol.md §11), followed live: the `snapshot`, `resumed` and
/// every `role` event name it, and the forms and keys follow at once. Viewers get no form that
/// proposes (and no undo), only owners the scheduling settings; a form the new role does not
/// allow closes, saying its draft was not sent. When the role ends (`error` `forbidden` with the
/// plan, or a refused resubscription) the client says so and proposes nothing more. A role the
/// server did not name allows every form: the server decides.
extension ClientModel {
    /// The session's role as the server last said it; nil when it did not say, or once it ended.
    public var role: PlanRole? { roleEnded ? nil : copy?.role }

    /// The plan as the messages name it: its title, else its id.
    var planName: String { copy?.snapshot.title ?? settings.plan }

    /// Why the role does not allow `action`'s form (nil: any edit, an undo or a conflict's move);
    /// nil when it does. Details that only show are always allowed.
    func roleRefusal(_ action: TaskAction? = nil) -> String? {
        if action == .info || action == .entryDetails { return nil }
        if roleEnded { return strings.roleEnded(planName) }
        switch copy?.role {
        case .viewer?: return strings.viewerMayNotEdit
        case .editor? where action == .settings: return strings.ownersOnly(.editor)
        default: return nil
        }
    }

    /// Whether the role allows `action` (nil: any edit); when not, the footer says why.
    mutating func allowed(_ action: TaskAction? = nil) -> Bool {
        guard let refusal = roleRefusal(action) else { return true }
        message = refusal
        return false
    }

    /// The task actions of `task`'s kind that the role allows, for its details.
    func allowedActions(for task: GanttTask?) -> [TaskAction] {
        TaskAction.available(for: task).filter { roleRefusal($0) == nil }
    }

    /// A `role` event of the plan: the copy takes it, and the screen follows.
    mutating func receiveRole(_ message: ServerMessage) {
        let old = copy?.role
        _ = try? copy?.apply(message)
        roleChanged(from: old)
    }

    /// The role may differ from `old` (a `role` event, a snapshot or `resumed` naming another): an
    /// open form it no longer allows closes (a draft not yet sent says it was not sent; one sent
    /// is decided by the server, its answer comes to the footer), open details show the actions
    /// it allows, and the footer names the new role.
    mutating func roleChanged(from old: PlanRole?) {
        guard !roleEnded, let new = copy?.role, new != old else { return }
        if new == .viewer { scheduling.dropOffer() }
        var said = old == nil ? nil : strings.nowRole(new) + "."
        if let open = form {
            if !open.isReadOnly, roleRefusal(open.action) != nil {
                form = nil
                resources.formTarget = nil
                if case .editing = open.phase { said = strings.draftNotSent(strings.nowRole(new)) }
            } else if open.action == .info {
                openTaskInfo()
            } else if open.action == .entryDetails {
                openEntryForm(.entryDetails)
            }
        }
        if let said { message = said }
    }

    /// The role on the plan ended: the connection ended the subscription and its watches. Every
    /// form closes; one that waited for the server says its change was not confirmed, a draft
    /// that it was not sent. Nothing more is proposed, watched or asked of the plan.
    mutating func endRole() {
        guard !roleEnded else { return }
        var said = strings.roleEnded(planName)
        if let open = form, !open.isReadOnly {
            if case .saving = open.phase { said = strings.roleEndedSent } else { said = strings.roleEndedDraft }
        }
        roleEnded = true
        form = nil
        resources.formTarget = nil
        scheduling.dropOffer()
        message = said
    }

    /// A server error without a `ref` that ends the role: `unknownPlan` for the plan held (a
    /// resubscription refused: the role ended while the client was away).
    func endsRole(_ code: ProtocolErrorCode) -> Bool {
        code == .unknownPlan && copy != nil
    }

    /// The footer's words for a rejection not waited for by a form: once the role ended, the
    /// refusals that follow from it say so.
    func rejectedText(_ code: RejectionCode) -> String {
        roleEnded && (code == .unknownPlan || code == .forbidden) ? strings.roleEnded(planName) : strings.rejected(code)
    }
}
