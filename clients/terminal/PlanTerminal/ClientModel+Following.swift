import ChronoSketchCore
import PlanProtocol

/// How the model keeps its copy, its collection and the views' rows up to date. A `confirmed` is
/// applied to the model's own copy and collection in time proportional to the change: both are
/// mutated in place and held by nothing else while they change, so no edit copies the plan. A
/// whole copy (a snapshot, a resume, a gap) is compared with the last one.
extension ClientModel {
    /// What a change did to the rows.
    enum RowsChange {
        /// Only values: the rows' order stays, what is drawn is read again.
        case values
        /// The dependencies changed: the arrows' endpoints are found again.
        case dependencies
        /// The order may have changed (a new collection, an added or removed task, a new parent,
        /// a reorder): the views' rows are built anew.
        case structure
    }

    /// A whole copy from the connection: the collection follows it.
    mutating func receive(_ copy: ClientPlanCopy) {
        let selectedID = selectedTask?.id
        let previous = self.copy
        self.copy = copy
        updateCollection(selectedID: selectedID) { current throws(TaskGanttError) in
            try ClientModel.follow(&current, from: previous, to: copy)
        }
    }

    /// A `confirmed` of the plan: applied to the model's own copy and collection when it is the
    /// next version. Otherwise (a gap, changes that do not fit the copy) nothing changes here and
    /// the adapter hands over the connection's copy.
    mutating func follow(version: Int, changes: PlanChanges) {
        guard var updated = copy, version == updated.version + 1 else { return }
        let selectedID = selectedTask?.id
        copy = nil  // `updated` is now the only reference: changed in place
        do throws(ClientPlanCopyError) {
            try updated.apply(version: version, changes: changes)
        } catch {
            copy = updated
            return
        }
        copy = updated
        var rows = RowsChange.structure
        updateCollection(selectedID: selectedID) { current throws(TaskGanttError) in
            rows = try ClientModel.follow(&current, applying: changes, to: updated)
            return rows
        }
        followFilter(changes: changes, rows: rows, version: version, selecting: selectedID)
    }

    /// Changes the collection in place with `change` (it holds the only reference meanwhile),
    /// then the rows; data the collection cannot take is shown as an error instead.
    private mutating func updateCollection(
        selectedID: String?, _ change: (inout TaskCollection?) throws(TaskGanttError) -> RowsChange
    ) {
        var current = collection
        collection = nil
        do throws(TaskGanttError) {
            let rows = try change(&current)
            collection = current
            dataError = nil
            rowsChanged(rows, selectedID: selectedID)
        } catch {
            dataError = strings.invalidData(error.message)
            rowsChanged(.structure, selectedID: selectedID)
        }
    }

    private mutating func rowsChanged(_ change: RowsChange, selectedID: String?) {
        guard history.past == nil else { return }
        switch change {
        case .values: break
        case .dependencies: taskViews.rebuildArrowEnds(collection)
        case .structure: taskViews.rebuild(collection)
        }
        if let selectedID, let collection, let index = outline.nearestIndex(of: selectedID, in: collection) {
            selectedIndex = index
        }
        clampSelection()
    }

    /// The collection for `new`: edits and additions since `old` are applied to the existing
    /// collection (checked incrementally, in time proportional to the change); anything else (a
    /// removal, a reorder, new dependencies, a step the rules refuse on the way) builds it anew.
    static func collection(
        following old: ClientPlanCopy?, _ current: TaskCollection?, to new: ClientPlanCopy
    ) throws(TaskGanttError) -> TaskCollection {
        var current = current
        _ = try follow(&current, from: old, to: new)
        return current ?? TaskCollection()
    }

    /// `current` made into the collection of `new` (see `collection(following:_:to:)`), in place.
    static func follow(_ current: inout TaskCollection?, from old: ClientPlanCopy?, to new: ClientPlanCopy)
        throws(TaskGanttError) -> RowsChange
    {
        guard let old, var collection = current, old.dependencies == new.dependencies,
            new.tasks.count >= old.tasks.count
        else { return try rebuild(&current, new) }
        current = nil
        let before = old.tasks
        let after = new.tasks
        var change = after.count > before.count ? RowsChange.structure : .values
        do throws(TaskGanttError) {
            for index in before.indices where before[index] != after[index] {
                guard before[index].id == after[index].id else { return try rebuild(&current, new) }
                if before[index].parentID != after[index].parentID { change = .structure }
                try collection.replace(previous: before[index], proposed: after[index])
            }
            for task in after[before.count...] { try collection.add(task) }
        } catch {
            return try rebuild(&current, new)
        }
        current = collection
        return change
    }

    /// `current` changed by a `confirmed`'s changes into the collection of `new`: upserts replace
    /// or add tasks and the dependencies are linked or unlinked one by one, in place; a removal or
    /// a reorder (every position after it moves) builds the collection anew.
    static func follow(_ current: inout TaskCollection?, applying changes: PlanChanges, to new: ClientPlanCopy)
        throws(TaskGanttError) -> RowsChange
    {
        guard var collection = current, changes.remove.isEmpty, changes.order == nil else {
            return try rebuild(&current, new)
        }
        current = nil
        var change = RowsChange.values
        do throws(TaskGanttError) {
            for task in changes.upsert {
                if let previous = collection[task.id] {
                    guard previous != task else { continue }
                    if previous.parentID != task.parentID { change = .structure }
                    _ = try collection.replace(previous: previous, proposed: task)
                } else {
                    _ = try collection.add(task)
                    change = .structure
                }
            }
            if let dependencies = changes.dependencies, dependencies != collection.dependencies {
                let wanted = Set(dependencies)
                for old in collection.dependencies where !wanted.contains(old) { _ = try collection.unlink(old) }
                for added in dependencies where !collection.contains(added) { _ = try collection.link(added) }
                guard collection.dependencies == dependencies else { return try rebuild(&current, new) }
                if change == .values { change = .dependencies }
            }
        } catch {
            return try rebuild(&current, new)
        }
        current = collection
        return change
    }

    private static func rebuild(_ current: inout TaskCollection?, _ new: ClientPlanCopy) throws(TaskGanttError)
        -> RowsChange
    {
        current = try TaskCollection(new.tasks, dependencies: new.dependencies)
        return .structure
    }
}
