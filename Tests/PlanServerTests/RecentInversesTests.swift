import ChronoSketchCore
import Testing

@testable import PlanServer

/// How recent versions are undone, remembered in order (no socket, no database).
@Suite("Hub: recent inverses")
struct RecentInversesTests {
    /// An op that names `version`, to tell remembered ops apart.
    static func op(_ version: Int) -> PlanOperation { .baselineRemove(name: "v\(version)") }

    /// The name of the op remembered for `version`, "none" when it cannot be undone, nil when unknown.
    static func name(_ inverses: RecentInverses, _ version: Int) -> String? {
        switch inverses[version] {
        case .inverse(.baselineRemove(let name))?: name
        case .inverse?: "other"
        case .notUndoable?: "none"
        case nil: nil
        }
    }

    @Test("versions are found as remembered; a version remembered again is replaced; gaps are unknown")
    func remembersInOrder() {
        var inverses = RecentInverses()
        inverses.remember(10, Self.op(10))
        inverses.remember(11, nil)
        inverses.remember(14, Self.op(14))
        inverses.remember(11, Self.op(111))
        #expect(Self.name(inverses, 10) == "v10")
        #expect(Self.name(inverses, 11) == "v111")
        #expect(Self.name(inverses, 12) == nil)
        #expect(Self.name(inverses, 14) == "v14")
        #expect(Self.name(inverses, 9) == nil)
        #expect(Self.name(inverses, 15) == nil)
        #expect(inverses.count == 3)
        inverses.remember(9, Self.op(9))
        #expect(Self.name(inverses, 9) == nil, "older than everything kept: forgotten at once")
    }

    @Test("forget(above:) drops the candidate versions; they can be remembered again")
    func forgetsAbove() {
        var inverses = RecentInverses()
        for version in 1...20 { inverses.remember(version, Self.op(version)) }
        inverses.forget(above: 15)
        #expect(Self.name(inverses, 15) == "v15")
        #expect(Self.name(inverses, 16) == nil)
        inverses.remember(16, nil)
        #expect(Self.name(inverses, 16) == "none")
        inverses.forget(above: 0)
        #expect(inverses.count == 0)
        inverses.remember(40, Self.op(40))
        #expect(Self.name(inverses, 40) == "v40")
    }

    @Test("past the limit the oldest are forgotten down to nine tenths of it; a longer jump starts afresh")
    func bounded() {
        var inverses = RecentInverses()
        let limit = RecentInverses.limit
        for version in 1...(limit + 1) { inverses.remember(version, Self.op(version)) }
        #expect(inverses.count == limit - limit / 10)
        #expect(Self.name(inverses, limit / 10 + 1) == nil)
        #expect(Self.name(inverses, limit / 10 + 2) == "v\(limit / 10 + 2)")
        #expect(Self.name(inverses, limit + 1) == "v\(limit + 1)")
        // A gap of nearly the limit is filled with unknowns, and the array is trimmed at once.
        inverses.remember(2 * limit, Self.op(2 * limit))
        #expect(Self.name(inverses, 2 * limit) == "v\(2 * limit)")
        #expect(Self.name(inverses, limit + 1) == nil)
        inverses.remember(3 * limit + 5, Self.op(0))
        #expect(inverses.count == 1)
        #expect(Self.name(inverses, limit + 1) == nil)
        #expect(Self.name(inverses, 3 * limit + 5) == "v0")
    }

    @Test("a commit another process beat: its candidate versions' inverses are forgotten while the log is read")
    func conflictForgetsCandidates() {
        let owner = OwnerFixture.owner()
        _ = owner.propose(OwnerFixture.origin("p1"), OwnerFixture.rename("a", from: "a", to: "A"))
        #expect(owner.inverses[6] != nil, "the candidate version's inverse, for undoing it at once")
        #expect(owner.committed(.failure(.versionConflict(plan: "p", expected: 5))) == ["read log since 5"])
        #expect(owner.inverses[6] == nil, "version 6 is what the log says, not the candidate")
    }
}
