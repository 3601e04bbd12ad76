import ChronoSketchCore
import PlanProtocol

/// A form's proposal rejected as stale, resolved in one step (as the web client's `conflict.mjs`
/// does): what changed since the form read its values, by whom and in which version, and whether
/// the draft can go on the current value ("Apply mine to the current version").
public struct FormConflict: Sendable, Hashable {
    /// "Changed since by alice (v14): set the progress of “Spec” to 80 %."; empty when the client
    /// knows of no change yet.
    public let text: String
    /// Whether every value the draft names still exists, so that "Apply mine" can put it there.
    public let applicable: Bool

    /// A conflict with these words.
    public init(text: String, applicable: Bool) {
        self.text = text
        self.applicable = applicable
    }

    /// What changed among `values` since `version`: the values seen against those held now, and
    /// the newest three versions after it that touched them.
    init(values: [StaleValue], since version: Int, history: HistoryViewState, wording: HistoryWording) {
        let what = values.filter(\.changed).map { $0.words(wording) }.joined(separator: "; ")
        let strings = wording.strings
        let who = history.changes(after: version, touching: Set(values.map(\.touch))).suffix(3)
            .map { strings.byVersion($0.user, $0.version) }.joined(separator: ", ")
        text = what.isEmpty && who.isEmpty ? "" : strings.staleSince(who, what.isEmpty ? "…" : what)
        applicable = values.allSatisfy { !$0.isGone }
    }
}

/// A value a stale proposal named: as the form saw it, and as the client holds it now (nil: gone).
enum StaleValue: Sendable, Hashable {
    case task(seen: GanttTask, now: GanttTask?)
    case dependency(seen: TaskDependency, now: TaskDependency?)
    case settings(seen: PlanSettings, now: PlanSettings)
    case entry(seen: TimelineAssignedEntry, now: TimelineAssignedEntry?)

    /// The id a version that changed the dependencies touches (the history names none).
    static let dependencies = "\u{0}dependencies"
    /// The id a version that changed the settings touches.
    static let settings = "\u{0}settings"

    /// Whether the value differs from the one the form saw.
    var changed: Bool {
        switch self {
        case .task(let seen, let now): seen != now
        case .dependency(let seen, let now): seen != now
        case .settings(let seen, let now): seen != now
        case .entry(let seen, let now): seen != now
        }
    }

    /// Whether the value is gone (a removed task, dependency or entry).
    var isGone: Bool {
        switch self {
        case .task(_, let now): now == nil
        case .dependency(_, let now): now == nil
        case .settings: false
        case .entry(_, let now): now == nil
        }
    }

    /// The id the history's versions touch when they change the value.
    var touch: String {
        switch self {
        case .task(let seen, _): seen.id
        case .dependency: StaleValue.dependencies
        case .settings: StaleValue.settings
        case .entry(let seen, _): seen.entry.id
        }
    }

    /// What changed, in the history's words: "set the progress of “Spec” to 80 %", "removed “Spec”".
    func words(_ wording: HistoryWording) -> String {
        switch self {
        case .task(let seen, let now?): wording.describe(.replace(previous: seen, proposed: now))
        case .task(let seen, nil): wording.describe(.remove(previous: seen))
        case .dependency(let seen, let now?): wording.describe(.relink(previous: seen, proposed: now))
        case .dependency(let seen, nil): wording.describe(.unlink(seen))
        case .settings(let seen, let now): wording.describe(.settingsReplace(previous: seen, proposed: now))
        case .entry(let seen, let now?): wording.describe(.timelineApply(original: seen, proposed: now))
        case .entry(let seen, nil): wording.describe(.timelineRemove(entry: seen.entry))
        }
    }
}

extension TaskForm {
    /// Keeps the draft after a stale rejection, with what changed since; when the value is gone
    /// only Discard is left, and it takes the focus.
    mutating func conflicted(_ conflict: FormConflict, operation: PlanOperation? = nil) {
        self.conflict = conflict
        if let operation { staleOperation = operation }
        if !conflict.applicable && focus == fields.count { focus = fields.count + 1 }
    }

    /// "Apply mine": the draft on `task` as it is now (the values the form does not edit are
    /// the current ones), read at `version`.
    mutating func rebase(on task: GanttTask?, at version: Int?) {
        original = task
        rebased(at: version)
    }

    /// The draft now stands on the values of `version`: the conflict is resolved.
    mutating func rebased(at version: Int?) {
        conflict = nil
        staleOperation = nil
        error = nil
        baseVersion = version
    }
}

extension RejectionCode {
    /// Whether the code says a value the proposal named changed since (a conflict to resolve).
    var namesStaleValue: Bool {
        switch self {
        case .staleTask, .staleDependency, .staleEntry, .staleAssignment, .staleSettings: true
        default: false
        }
    }
}

extension ClientModel {
    /// A stale rejection of the open form's proposal `operation`: the form keeps the draft and
    /// says what changed since it read its values; Save becomes "Apply mine".
    mutating func explainStale(_ operation: PlanOperation?) {
        guard var open = form else { return }
        let values = staleValues(of: open, operation: operation)
        guard !values.isEmpty else { return }
        let wording = HistoryWording(language: settings.language, title: titleLookup)
        open.conflicted(
            FormConflict(values: values, since: open.baseVersion ?? 0, history: history, wording: wording),
            operation: operation)
        form = open
    }

    /// A conflict's words follow what arrives after the rejection: the server may answer before
    /// the change that made the proposal stale reaches the client (or the page with the entry).
    mutating func refreshConflict() {
        guard let open = form, open.conflict != nil, case .editing = open.phase else { return }
        explainStale(open.staleOperation)
    }

    /// The values the form's proposal named, as seen and as held now; none for an op that names
    /// no value (an add, a link).
    func staleValues(of form: TaskForm, operation: PlanOperation?) -> [StaleValue] {
        if form.action == .settings, let seen = form.originalSettings, let copy {
            return [.settings(seen: seen, now: copy.snapshot.settings)]
        }
        if form.action.isEntryAction {
            guard let seen = resources.formTarget else { return [] }
            return [.entry(seen: seen, now: currentEntry(seen))]
        }
        switch operation {
        case .replace(let previous, _), .remove(let previous):
            return [.task(seen: previous, now: collection?[previous.id])]
        case .reorder(let previous, let relativeTo, _):
            return [previous, relativeTo].map { .task(seen: $0, now: collection?[$0.id]) }
        case .unlink(let seen):
            return [
                .dependency(seen: seen, now: collection?.dependency(from: seen.predecessorID, to: seen.successorID))
            ]
        default:
            return []
        }
    }

    /// The entry and assignment `seen` names as the resources view holds them now, if it does.
    func currentEntry(_ seen: TimelineAssignedEntry) -> TimelineAssignedEntry? {
        guard let entry = resources.entries[seen.entry.id], let assignment = resources.assignments[seen.assignment.id],
            assignment.entryID == entry.id
        else { return nil }
        return TimelineAssignedEntry(entry: entry, assignment: assignment)
    }

    /// "Apply mine to the current version": the draft's fields on top of the value as it is now
    /// (the task, the entry, the settings) as `previous`, sent at once as a new proposal. What
    /// others changed elsewhere in the value stays. A value gone meanwhile leaves only Discard.
    mutating func applyMine(_ form: inout TaskForm) -> [ClientAction] {
        let version = copy?.version
        if form.action == .settings, let copy {
            form.originalSettings = copy.snapshot.settings
            form.rebased(at: version)
            return saveSettingsForm(&form)
        }
        if form.action.isEntryAction {
            guard let now = resources.formTarget.flatMap(currentEntry) else { return gone(&form) }
            resources.formTarget = now
            form.rebased(at: version)
            return saveEntryForm(&form)
        }
        if let original = form.original {
            guard let now = collection?[original.id] else { return gone(&form) }
            form.rebase(on: now, at: version)
        } else {
            form.rebased(at: version)
        }
        return saveTaskForm(&form)
    }

    /// The value a conflict offered to apply on is gone: only Discard is left.
    private mutating func gone(_ form: inout TaskForm) -> [ClientAction] {
        form.conflicted(FormConflict(text: form.conflict?.text ?? "", applicable: false))
        self.form = form
        return []
    }
}
