import ChronoSketchCore
import PlanInterchange

/// Fuzzes the import path in process (no server): mutated plan files must be refused with an
/// `ImportError` or give a plan, and a plan given must survive its own MS Project XML export: that
/// export imports again to the same tasks, links and calendar. A crash or a hang ends the process
/// (the case index and seed were printed before it ran, for the replay).
public enum ImportFuzzRunner {
    /// What one case found wrong; nil when it held.
    public static func check(_ bytes: [UInt8]) -> String? {
        // The same bytes in small chunks (as a file is read) must give the same answer.
        let chunked = try? PlanImport.read(chunks: chunks(of: bytes, size: 1 + bytes.count % 251)).document
        let plan: PlanDocument
        do {
            plan = try PlanImport.read(bytes).document
        } catch {
            if chunked != nil { return "read in chunks, a file refused whole is imported" }
            return error.message.isEmpty ? "a refusal without a message" : nil
        }
        if chunked != plan { return "read in chunks, the file gives another plan" }
        let (text, _) = MSProjectExport.document(plan)
        let again: PlanDocument
        do {
            again = try PlanImport.read(Array(text.utf8)).document
        } catch {
            return "the MS Project export of an imported plan does not import again: \(error.message)"
        }
        if facts(again) != facts(plan) { return "the export re-imports to other tasks" }
        if links(again) != links(plan) { return "the export re-imports to other links" }
        if again.state.settings.calendar != plan.state.settings.calendar {
            return "the export re-imports to another calendar"
        }
        return nil
    }

    /// `bytes` as a chunk source of `size` bytes a chunk.
    static func chunks(of bytes: [UInt8], size: Int) -> () -> [UInt8]? {
        var offset = 0
        return {
            guard offset < bytes.count else { return nil }
            defer { offset = min(bytes.count, offset + size) }
            return Array(bytes[offset..<min(bytes.count, offset + size)])
        }
    }

    /// Runs `cases` mutations of the corpus files, case `i` from `FuzzRandom(seed:stream:case:)`;
    /// `before` is told each case first (so a crash names it). Returns the findings.
    public static func run(
        corpus: [[UInt8]], seed: UInt64, cases: Range<Int>, before: (Int) -> Void = { _ in }
    ) -> [(index: Int, reason: String)] {
        guard !corpus.isEmpty else { return [] }
        var findings: [(index: Int, reason: String)] = []
        for index in cases {
            before(index)
            if let reason = check(input(of: index, corpus: corpus, seed: seed)) { findings.append((index, reason)) }
        }
        return findings
    }

    /// The bytes of case `index`.
    public static func input(of index: Int, corpus: [[UInt8]], seed: UInt64) -> [UInt8] {
        var random = FuzzRandom(seed: seed, stream: .imports, case: index)
        return ImportMutator.mutate(random.pick(corpus), random: &random)
    }

    /// Title, kind (progress as MS Project holds it: whole) and parent position of every task.
    static func facts(_ plan: PlanDocument) -> [String] {
        let tasks = plan.state.tasks
        return tasks.tasks.map { task in
            var kind = task.kind
            if case .activity(let schedule, let progress) = kind {
                kind = .activity(schedule: schedule, progress: progress.rounded())
            }
            return "\(task.title)|\(kind)|\(task.parentID.flatMap { tasks.position(of: $0) }.map(String.init) ?? "-")"
        }
    }

    /// The links by positions, type and lag, sorted (MS Project XML keeps each task's links in
    /// its row, not one list in the order links were made).
    static func links(_ plan: PlanDocument) -> [String] {
        let tasks = plan.state.tasks
        return tasks.dependencies.map {
            "\(tasks.position(of: $0.predecessorID) ?? -1)→\(tasks.position(of: $0.successorID) ?? -1) \($0.type.rawValue) \($0.lag)"
        }.sorted()
    }
}
