import ChronoSketchCore
import Glibc
import PlanStore
import PlanTestSupport
import Testing

@testable import PlanTerminal

/// Every task form driven by keys in tmux against a real server, each change checked on screen,
/// in the store and in what `plan watch` printed meanwhile.
extension TerminalEndToEndTests {
    /// One client in session "a" on a demo plan (`--start 2026-09-07 --days 30 --zoom 2`), and
    /// `plan watch` in session "w" writing its lines to a file.
    struct FormsScene {
        let plan: String
        let server: ServerProcess
        let tmux: Tmux
        let watchFile: String
        var version = 0

        static func start() throws -> FormsScene {
            let store = TestDatabase.store
            let plan = TestDatabase.unique("plan")
            try store.createPlan(
                id: plan,
                document: PlanDocument(
                    title: "Forms E2E", state: PlanState(tasks: Sample.collection, timeline: TimelineData())))
            let ann = TestDatabase.unique("ann")
            let token = try store.createUser(ann)
            try store.grant(user: ann, plan: plan, role: .editor)
            let server = try ServerProcess.start(databaseURL: TestDatabase.url)
            let tmux = Tmux()
            let binary = productsDirectory + "/plan"
            let connection = ["--server", server.url, "--token", token, "--plan", plan]
            let watchFile = "/tmp/plan-e2e-watch-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            try tmux.start(
                "w",
                ["sh", "-c", "exec " + ([binary, "watch"] + connection).joined(separator: " ") + " > " + watchFile])
            try tmux.start("a", [binary] + connection + ["--start", "2026-09-07", "--days", "30", "--zoom", "2"])
            _ = try tmux.waitFor("a") { isConnected($0) && $0.contains("Spec") }
            let scene = FormsScene(plan: plan, server: server, tmux: tmux, watchFile: watchFile)
            _ = try scene.watchLines { $0.contains { $0.hasPrefix("{\"type\":\"snapshot\"") } }
            return scene
        }

        /// Polls what `plan watch` printed until `predicate` holds (for at most 10 s).
        func watchLines(_ predicate: ([String]) -> Bool) throws -> [String] {
            var lines: [String] = []
            let deadline = time(nil) + 10
            while time(nil) <= deadline {
                lines = String(decoding: (try? readAll(watchFile)) ?? [], as: UTF8.self).split(separator: "\n")
                    .map(String.init)
                if predicate(lines) { return lines }
                usleep(100_000)
            }
            throw HarnessError("timed out waiting on plan watch; it printed:\n\(lines.joined(separator: "\n"))")
        }

        /// The tasks the store holds now.
        var stored: TaskCollection {
            get throws { try #require(try TestDatabase.store.loadPlan(plan)).document.state.tasks }
        }

        /// Sends keys, waits for "Saved." at the next version; returns the screen.
        mutating func save(_ keys: String...) throws -> String {
            for key in keys { try tmux.send("a", key) }
            version += 1
            let expected = "v\(version)"
            return try tmux.waitFor("a") { $0.contains("Saved.") && heading(of: $0).contains(expected) }
        }

        /// Selects the list row `index` (tmux's Home and End are not xterm's: Up to the top first).
        func select(_ index: Int) throws {
            try tmux.send("a", keys: Array(repeating: "Up", count: 12) + Array(repeating: "Down", count: index))
        }

        /// Types literal text.
        func type(_ text: String) throws { try tmux.send("a", "-l", text) }

        /// The list rows' titles, top to bottom (the name column of a 120-cell list is 72 wide).
        func titles(_ screen: String) -> [String] {
            screen.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(3).prefix { !$0.isEmpty }
                .map { $0.prefix(72).trimmingCharacters() }
        }
    }

    @Test(
        "every form by keys: title, milestone date, add, add child, group, order (a no-op silent), link, unlink, remove; plan watch saw each"
    )
    func everyForm() async throws {
        try await offThePool {
            var scene = try FormsScene.start()
            defer { _ = scene.server.terminate() }
            defer { unlink(scene.watchFile) }
            try TerminalEndToEndTests.zoomAndHorizon(scene)
            try TerminalEndToEndTests.titleDateAndAdds(&scene)
            try TerminalEndToEndTests.groupAndOrder(&scene)
            try TerminalEndToEndTests.linkUnlinkRemove(&scene)
            try TerminalEndToEndTests.watched(scene)
            try scene.tmux.send("a", "q")
        }
    }

    /// `--zoom 2 --days 30` reach the interactive client's timeline; Design collapsed in the list
    /// stays expanded in the timeline (each view its own).
    static func zoomAndHorizon(_ scene: FormsScene) throws {
        try scene.tmux.send("a", "Space")
        _ = try scene.tmux.waitFor("a") { $0.contains("▸ Design") && !$0.contains("Spec") }
        try scene.tmux.send("a", "Tab")
        let timeline = try scene.tmux.waitFor("a") { $0.contains("zoom 2 d") }
        #expect(timeline.contains("2026-09-07 – 2026-10-06"))
        #expect(timeline.contains("7   9   11  13"), "zoom 2: two cells a day, each column named by its first day")
        #expect(timeline.contains("▾ Design") && timeline.contains("Spec"))
        for _ in 0..<3 { try scene.tmux.send("a", "Tab") }
        _ = try scene.tmux.waitFor("a") { !$0.contains("zoom 2 d") && $0.contains("▸ Design") }
        try scene.tmux.send("a", "Space")
        _ = try scene.tmux.waitFor("a") { $0.contains("▾ Design") && $0.contains("Spec") }
    }

    static func titleDateAndAdds(_ scene: inout FormsScene) throws {
        // Details: Spec's title, saved by Enter on the only field.
        try scene.tmux.send("a", "Down", "e")
        _ = try scene.tmux.waitFor("a") { $0.contains("Details: Spec") }
        for _ in 0..<4 { try scene.tmux.send("a", "BSpace") }
        _ = try scene.tmux.waitFor("a") { $0.contains("Title is empty: fill it in to save.") }
        try scene.type("Specification")
        _ = try scene.save("Enter")
        #expect(try scene.stored["spec"]?.title == "Specification")
        // A milestone's date: two days later by Shift-→ (→ moves the cursor in a text field).
        try scene.select(5)
        try scene.tmux.send("a", "d")
        _ = try scene.tmux.waitFor("a") { $0.contains("Dates: Release") && $0.contains("2026-10-01") }
        let moved = try scene.save("S-Right", "S-Right", "Enter")
        #expect(row("Release", in: moved)?.contains("2026-10-03") == true)
        #expect(try scene.stored["release"]?.kind == .milestone(date: Sample.date("2026-10-03")))
        // Add a top-level task: Enter walks the five fields and saves on the last.
        try scene.tmux.send("a", "a")
        _ = try scene.tmux.waitFor("a") { $0.contains("Add task") }
        try scene.type("Launch")
        let added = try scene.save("Enter", "Enter", "Enter", "Enter", "Enter")
        #expect(scene.titles(added).last == "Launch")
        // Add a child of Design (the group chosen for it).
        try scene.select(0)
        try scene.tmux.send("a", "c")
        _ = try scene.tmux.waitFor("a") { $0.contains("Add child task: Design") }
        try scene.type("Wireframes")
        let child = try scene.save("Enter", "Enter", "Enter", "Enter", "Enter")
        #expect(
            scene.titles(child)
                == [
                    "▾ Design", "Specification", "Review", "Wireframes", "▾ Implementation", "Build", "Release",
                    "Launch",
                ])
        #expect(try scene.stored.tasks.first { $0.title == "Wireframes" }?.parentID == "design")
    }

    static func groupAndOrder(_ scene: inout FormsScene) throws {
        // Review moves into Implementation: before Build there, as input order decides.
        try scene.select(2)
        // The group is picked by typing (`m` opens the form: `g` is the "go to" prefix).
        try scene.tmux.send("a", "m")
        _ = try scene.tmux.waitFor("a") { $0.contains("Change group: Review") && $0.contains("(type to search)") }
        try scene.type("impl")
        _ = try scene.tmux.waitFor("a") { $0.contains("Implementation  (impl)") }
        let grouped = try scene.save("Enter", "Enter")
        #expect(Array(scene.titles(grouped)[3...5]) == ["▾ Implementation", "Review", "Build"])
        #expect(try scene.stored["review"]?.parentID == "impl")
        // Build after Review is where it is: the form closes and nothing is said (no version).
        try scene.select(5)
        try scene.tmux.send("a", "o")
        _ = try scene.tmux.waitFor("a") { $0.contains("Change order: Build") }
        try scene.tmux.send("a", "Enter", "Enter")
        let silent = try scene.tmux.waitFor("a") { !$0.contains("Change order") }
        #expect(!silent.contains("Saved.") && !silent.contains("Nothing changed."))
        #expect(heading(of: silent).contains("v\(scene.version)"))
        // Build before Review.
        try scene.tmux.send("a", "o")
        _ = try scene.tmux.waitFor("a") { $0.contains("Change order: Build") }
        let ordered = try scene.save("Left", "Enter", "Enter")
        #expect(Array(scene.titles(ordered)[3...5]) == ["▾ Implementation", "Build", "Review"])
    }

    static func linkUnlinkRemove(_ scene: inout FormsScene) throws {
        // Launch becomes Release's successor.
        try scene.select(7)
        try scene.tmux.send("a", "l")
        _ = try scene.tmux.waitFor("a") { $0.contains("Add dependency: Launch") }
        try scene.tmux.send("a", "Right", "Enter")
        _ = try scene.tmux.waitFor("a") { $0.contains("(type to search)") }
        // The other task picked by typing; the type (finish → start) and the lag (0) as they
        // come: Enter past both.
        try scene.type("release")
        _ = try scene.tmux.waitFor("a") { $0.contains("Release  (release)") }
        _ = try scene.save("Enter", "Enter", "Enter", "Enter")
        let launch = try #require(try scene.stored.tasks.first { $0.title == "Launch" })
        #expect(try scene.stored.contains(TaskDependency(predecessorID: "release", successorID: launch.id)))
        // Enter: Launch's details name its predecessor and list its actions.
        try scene.tmux.send("a", "Enter")
        let details = try scene.tmux.waitFor("a") { $0.contains("Predecessors  Release") }
        #expect(details.contains("Actions: e Details"))
        try scene.tmux.send("a", "Escape")
        _ = try scene.tmux.waitFor("a") { !$0.contains("Predecessors  Release") }
        // Unlink Specification → Build (Build's first dependency).
        try scene.select(4)
        try scene.tmux.send("a", "L")
        _ = try scene.tmux.waitFor("a") { $0.contains("◂ Specification → Build ▸") }
        _ = try scene.save("Enter")
        #expect(try !scene.stored.contains(TaskDependency(predecessorID: "spec", successorID: "build")))
        // Remove Wireframes.
        try scene.select(2)
        try scene.tmux.send("a", "x")
        _ = try scene.tmux.waitFor("a") { $0.contains("Remove: Wireframes") }
        let removed = try scene.save("Enter")
        #expect(!scene.titles(removed).contains("Wireframes"))
        #expect(try scene.stored.tasks.contains { $0.title == "Wireframes" } == false)
    }

    /// `plan watch` printed the welcome and the snapshot, then one `confirmed` per saved change, in
    /// order (and no version for the no-op reorder).
    static func watched(_ scene: FormsScene) throws {
        let expected = scene.version
        let lines = try scene.watchLines { lines in
            lines.contains { $0.contains("\"type\":\"confirmed\"") && $0.contains("\"version\":\(expected),") }
        }
        #expect(lines.first?.hasPrefix("{\"type\":\"welcome\"") == true, "\(lines.first ?? "")")
        #expect(lines.dropFirst().first?.hasPrefix("{\"type\":\"snapshot\"") == true)
        let versions = lines.compactMap { line -> Int? in
            guard case .object(let members)? = try? JSONValue(parsing: Array(line.utf8)),
                members["type"] == .string("confirmed"), case .number(let version)? = members["version"]
            else { return nil }
            return Int(version)
        }
        #expect(versions == Array(1...expected), "\(lines)")
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
