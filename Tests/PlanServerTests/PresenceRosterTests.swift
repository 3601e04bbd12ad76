import ChronoSketchCore
import PlanProtocol
import Testing
import WebSocketServer

@testable import PlanServer

@Suite("Presence roster")
struct PresenceRosterTests {
    static func member(_ number: UInt64, editor: Bool) -> PresenceRoster.Member {
        PresenceRoster.Member(
            connection: ConnectionID(number), role: editor ? .editor : .viewer,
            entry: PresenceSession(session: "s-\(number)", user: editor ? "ed\(number)" : "v\(number)", client: "t"))
    }

    @Test("6,000 viewers, then 3 editors joining last: the editors are listed first, then the earliest viewers")
    func editorsFirst() {
        var roster = PresenceRoster()
        for number in 1...6000 { roster.insert(Self.member(UInt64(number), editor: false)) }
        for number in 6001...6003 { roster.insert(Self.member(UInt64(number), editor: true)) }
        #expect(roster.count == 6003)
        #expect(roster.sessions.count == 50)
        #expect(roster.sessions.prefix(3).map(\.user) == ["ed6001", "ed6002", "ed6003"])
        #expect(roster.sessions.dropFirst(3).map(\.user) == (1...47).map { "v\($0)" })
    }

    @Test("when a listed session leaves, the next one moves up; unlisted leaves change nothing listed")
    func leaves() {
        var roster = PresenceRoster(shown: 3)
        for number in 1...10 { roster.insert(Self.member(UInt64(number), editor: number % 4 == 0)) }
        #expect(roster.sessions.map(\.user) == ["ed4", "ed8", "v1"])
        roster.remove(ConnectionID(8))
        #expect(roster.sessions.map(\.user) == ["ed4", "v1", "v2"])
        roster.remove(ConnectionID(9))
        #expect(roster.sessions.map(\.user) == ["ed4", "v1", "v2"] && roster.count == 8)
        roster.remove(ConnectionID(4))
        roster.remove(ConnectionID(1))
        #expect(roster.sessions.map(\.user) == ["v2", "v3", "v5"])
        roster.insert(Self.member(3, editor: true))
        #expect(roster.sessions.map(\.user) == ["ed3", "v2", "v5"] && roster.count == 6, "a role change re-sorts")
    }

    @Test("random joins and leaves: the listed sessions are always the first of everyone sorted")
    func randomized() {
        var roster = PresenceRoster(shown: 5)
        var everyone: [UInt64: Bool] = [:]
        var generator = SplitMix64(seed: 2026)
        for step in 0..<3000 {
            let number = UInt64.random(in: 1...200, using: &generator)
            if everyone[number] != nil, Bool.random(using: &generator) {
                everyone[number] = nil
                roster.remove(ConnectionID(number))
            } else {
                let editor = Bool.random(using: &generator) && Bool.random(using: &generator)
                everyone[number] = editor
                roster.insert(Self.member(number, editor: editor))
            }
            let expected = everyone.sorted { ($0.value ? 0 : 1, $0.key) < ($1.value ? 0 : 1, $1.key) }.prefix(5)
            #expect(roster.sessions.map(\.session) == expected.map { "s-\($0.key)" }, "step \(step)")
            #expect(roster.count == everyone.count)
        }
    }
}
