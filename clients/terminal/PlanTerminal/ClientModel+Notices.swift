import ChronoSketchCore
import PlanProtocol

/// Notices of changes from other sessions: when a confirmed change that is not one of this
/// session's proposals touches the task of the selected row, the task an open form edits, or the
/// booking selected or edited in the resources view, the footer says who changed what (until the
/// next key).
extension ClientModel {
    /// The notice for a confirmed change of `user`, read before the change is applied (the titles
    /// are the ones the user saw); nil when it is this session's own or touches nothing shown.
    func notice(mutationID: String, user: String, changes: PlanChanges) -> String? {
        // This session's own proposals are waiting under their ids until their ack.
        guard pending[mutationID] == nil, resources.pendingEntries[mutationID] == nil else { return nil }
        let removed = Set(changes.remove)
        let changed = Set(changes.upsert.map(\.id))
        let touched = changed.union(removed)
        if let form, let task = form.original, touched.contains(task.id) {
            return strings.othersChange(
                user: user, title: task.title, removed: removed.contains(task.id), target: .form)
        }
        if let entry = resources.formTarget?.entry, changes.entries?.contains(entry.id) == true {
            return strings.othersChange(user: user, title: entry.title, removed: false, entry: true, target: .form)
        }
        if mode == .resources, form == nil, let entry = selectedEntry?.entry,
            changes.entries?.contains(entry.id) == true
        {
            return strings.othersChange(user: user, title: entry.title, removed: false, entry: true, target: .row)
        }
        guard mode == .list || mode == .timeline, history.past == nil, let task = selectedTask,
            touched.contains(task.id)
        else { return nil }
        return strings.othersChange(user: user, title: task.title, removed: removed.contains(task.id), target: .row)
    }
}
