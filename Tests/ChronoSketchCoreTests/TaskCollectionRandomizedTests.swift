import Testing

@testable import ChronoSketchCore

/// Random sequences of valid and invalid operations, each checked against a naive reference:
/// apply the operation to plain arrays as semantics.md words it and validate the whole candidate.
@Suite("TaskCollection randomized")
struct TaskCollectionRandomizedTests {
    enum Operation {
        case replace(GanttTask, GanttTask)
        case add(GanttTask)
        case reorder(GanttTask, GanttTask, TaskOrderPosition)
        case remove(GanttTask)
        case link(TaskDependency)
        case unlink(TaskDependency)
    }

    /// The reference model: plain arrays, whole-collection validation after every step.
    struct Reference {
        var tasks: [GanttTask]
        var dependencies: [TaskDependency]

        func current(_ task: GanttTask) throws(TaskGanttError) -> Int {
            guard let index = tasks.firstIndex(where: { $0.id == task.id }), tasks[index] == task else {
                throw .staleTask(id: task.id)
            }
            return index
        }

        func applying(_ operation: Operation) throws(TaskGanttError) -> Reference {
            var next = self
            switch operation {
            case .replace(let previous, let proposed):
                let index = try current(previous)
                guard proposed.id == previous.id else {
                    throw .identityChanged(previous: previous.id, proposed: proposed.id)
                }
                next.tasks[index] = proposed
            case .add(let task):
                next.tasks.append(task)
            case .reorder(let previous, let target, let position):
                _ = try current(previous)
                _ = try current(target)
                guard previous.id != target.id, previous.parentID == target.parentID else {
                    throw .invalidHierarchy(id: previous.id, reason: "")
                }
                let slots = tasks.indices.filter { tasks[$0].parentID == previous.parentID }
                var siblings = slots.map { tasks[$0] }
                siblings.removeAll { $0.id == previous.id }
                let targetIndex = siblings.firstIndex { $0.id == target.id }!
                siblings.insert(previous, at: position == .before ? targetIndex : targetIndex + 1)
                for (slot, sibling) in zip(slots, siblings) { next.tasks[slot] = sibling }
            case .remove(let previous):
                let index = try current(previous)
                guard !tasks.contains(where: { $0.parentID == previous.id }) else {
                    throw .invalidHierarchy(id: previous.id, reason: "")
                }
                next.tasks.remove(at: index)
                next.dependencies.removeAll { $0.predecessorID == previous.id || $0.successorID == previous.id }
            case .link(let dependency):
                next.dependencies.append(dependency)
            case .unlink(let dependency):
                guard let index = dependencies.firstIndex(of: dependency) else {
                    throw .staleDependency(predecessorID: dependency.predecessorID, successorID: dependency.successorID)
                }
                next.dependencies.remove(at: index)
            }
            try TaskCollection.validate(next.tasks, dependencies: next.dependencies)
            return next
        }
    }

    struct Generator {
        var random: SplitMix64
        var counter = 0

        mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

        mutating func date() -> CivilDate {
            Make.date("2026-09-01").adding(uncheckedDays: Int.random(in: 0..<60, using: &random))
        }

        mutating func freshID() -> String {
            counter += 1
            return "t\(counter)"
        }

        /// A kind: mostly valid, sometimes with bad progress.
        mutating func kind() -> GanttTaskKind {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let start = date()
                let schedule =
                    chance(80) ? try! TaskSchedule(start: start, days: Int.random(in: 1...9, using: &random)) : nil
                let progress: Double =
                    chance(5) ? 120 : Double(Int.random(in: 0...100, using: &random)) / (chance(50) ? 1 : 3)
                return .activity(schedule: schedule, progress: progress)
            case 5..<7: return .milestone(date: date())
            default: return .summary
            }
        }

        mutating func pick<T>(_ items: [T]) -> T? {
            items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)]
        }

        /// A parent id: usually an existing summary, sometimes another task, a missing id or root.
        mutating func parent(in tasks: [GanttTask]) -> String? {
            if chance(25) { return nil }
            if chance(5) { return "missing" }
            if chance(10) { return pick(tasks)?.id }
            return pick(tasks.filter { $0.kind.isSummary })?.id
        }

        mutating func operation(on collection: TaskCollection) -> Operation {
            let tasks = collection.tasks
            guard var task = pick(tasks) else {
                return .add(GanttTask(unchecked: freshID(), title: "x", parentID: nil, kind: kind()))
            }
            if chance(8) { task = task.with(title: task.title + "′") }  // stale original
            switch Int.random(in: 0..<12, using: &random) {
            case 0..<3:
                var proposed = task
                switch Int.random(in: 0..<4, using: &random) {
                case 0: proposed = task.with(kind: kind())
                case 1: proposed = task.with(parentID: parent(in: tasks))
                case 2: proposed = task.with(title: "renamed \(counter)")
                default:
                    if case .activity(let schedule, _) = task.kind {
                        proposed = task.with(
                            kind: .activity(
                                schedule: schedule, progress: Double(Int.random(in: 0...100, using: &random))))
                    }
                }
                if chance(3) { proposed = GanttTask(unchecked: freshID(), title: "", parentID: nil, kind: .summary) }
                return .replace(task, proposed)
            case 3..<5:
                let id = chance(5) ? (pick(tasks)?.id ?? "x") : freshID()
                return .add(GanttTask(unchecked: id, title: id, parentID: parent(in: tasks), kind: kind()))
            case 5..<7:
                let siblings = tasks.filter { $0.parentID == task.parentID }
                let target = chance(10) ? pick(tasks)! : pick(siblings)!
                return .reorder(task, target, chance(50) ? .before : .after)
            case 7:
                return .remove(task)
            case 8..<10:
                let other = pick(tasks)!
                return .link(TaskDependency(predecessorID: task.id, successorID: chance(5) ? "missing" : other.id))
            default:
                if !collection.dependencies.isEmpty, chance(80) { return .unlink(pick(collection.dependencies)!) }
                return .unlink(TaskDependency(predecessorID: task.id, successorID: pick(tasks)!.id))
            }
        }
    }

    static func apply(_ operation: Operation, to collection: inout TaskCollection) throws -> TaskCollectionChange {
        switch operation {
        case .replace(let previous, let proposed): try collection.replace(previous: previous, proposed: proposed)
        case .add(let task): try collection.add(task)
        case .reorder(let previous, let target, let position):
            try collection.reorder(previous: previous, relativeTo: target, position: position)
        case .remove(let previous): try collection.remove(previous: previous)
        case .link(let dependency): try collection.link(dependency)
        case .unlink(let dependency): try collection.unlink(dependency)
        }
    }

    @Test("incremental operations agree with whole-collection validation", arguments: 1...8)
    func agreesWithReference(seed: UInt64) throws {
        var generator = Generator(random: SplitMix64(seed: seed))
        var collection = TaskCollection()
        var reference = Reference(tasks: [], dependencies: [])
        var accepted = 0
        for step in 0..<600 {
            let operation = generator.operation(on: collection)
            let before = collection
            let beforeSummaries = collection.summaries
            let expected: Result<Reference, TaskGanttError> = Result { () throws(TaskGanttError) in
                try reference.applying(operation)
            }
            do {
                let change = try Self.apply(operation, to: &collection)
                guard case .success(let next) = expected else {
                    Issue.record("step \(step): accepted \(operation), reference rejected: \(expected)")
                    return
                }
                accepted += 1
                #expect(collection.tasks == next.tasks, "step \(step)")
                #expect(collection.dependencies == next.dependencies, "step \(step)")
                reference = next
                // The change report matches what actually changed.
                let rebuilt = try TaskCollection(collection.tasks, dependencies: collection.dependencies)
                #expect(collection.summaries == rebuilt.summaries, "step \(step): incremental summaries drifted")
                #expect(collection.rows() == rebuilt.rows(), "step \(step)")
                let changedSummaries = Set(rebuilt.summaries.filter { beforeSummaries[$0.key] != $0.value }.keys)
                #expect(Set(change.changedSummaryIDs) == changedSummaries, "step \(step): \(operation)")
                #expect(change.isNoop == (collection == before && changedSummaries.isEmpty), "step \(step)")
                if change.orderChanged {
                    // The moved ids took exactly their own former slots, in their new order.
                    let formerSlots = change.movedIDs.map { before.position(of: $0)! }.sorted()
                    #expect(change.movedIDs.map { collection.position(of: $0)! } == formerSlots, "step \(step)")
                    let moved = Set(change.movedIDs)
                    #expect(
                        collection.tasks.indices.allSatisfy {
                            moved.contains(collection.tasks[$0].id) || collection.tasks[$0] == before.tasks[$0]
                        },
                        "step \(step)")
                }
            } catch let error as TaskGanttError {
                guard case .failure(let expectedError) = expected else {
                    Issue.record("step \(step): rejected \(operation) with \(error), reference accepted")
                    return
                }
                #expect(error.code == expectedError.code, "step \(step): \(operation)")
                #expect(collection == before, "step \(step): a rejected operation changed the data")
                #expect(collection.summaries == beforeSummaries, "step \(step)")
            }
        }
        #expect(accepted > 150, "the generator should produce mostly valid operations")
        #expect(collection.count > 10)
    }
}

extension CivilDate {
    fileprivate func adding(uncheckedDays days: Int) -> CivilDate { try! adding(days: days) }
}
