import ChronoSketchCore
import PlanProtocol
import WebSocketServer

/// The subscribers of one plan as `presence` lists them: editors first, then viewers, each in
/// the order their connections opened. Only the first `shown` are kept in order; a join costs a
/// comparison with the last shown (a newcomer mostly sorts after them), a leave of someone shown
/// one pass over the others to find who moves up. So ten thousand viewers joining cost ten
/// thousand constant steps, not a list of everyone sorted at every join.
struct PresenceRoster {
    struct Member {
        let connection: ConnectionID
        /// The session's role on the plan when it joined (or moved): what its `snapshot` and
        /// `resumed` say (protocol.md §11), and its place in presence.
        let role: PlanRole
        let entry: PresenceSession

        /// 0 for editors (and owners), 1 for viewers.
        var rank: Int { role >= .editor ? 0 : 1 }

        /// Whether `self` is listed before `other`.
        func precedes(_ other: Member) -> Bool {
            (rank, connection) < (other.rank, other.connection)
        }
    }

    /// How many are listed in a `presence` message.
    let shown: Int
    private var members: [ConnectionID: Member] = [:]
    /// The first `shown` members, in order.
    private(set) var listed: [Member] = []

    init(shown: Int = 50) {
        self.shown = shown
    }

    /// Every subscribed session.
    var count: Int { members.count }

    /// The listed sessions, in order.
    var sessions: [PresenceSession] { listed.map(\.entry) }

    /// The role a subscriber joined (or last moved) with.
    func role(of connection: ConnectionID) -> PlanRole? {
        members[connection]?.role
    }

    /// Adds a subscriber (or updates one whose role changed).
    mutating func insert(_ member: Member) {
        if members[member.connection] != nil { remove(member.connection) }
        members[member.connection] = member
        guard listed.count < shown || member.precedes(listed[listed.count - 1]) else { return }
        let index = listed.firstIndex { member.precedes($0) } ?? listed.count
        listed.insert(member, at: index)
        if listed.count > shown { listed.removeLast() }
    }

    /// Removes a subscriber; when it was listed, the first one not listed moves up.
    mutating func remove(_ connection: ConnectionID) {
        guard members.removeValue(forKey: connection) != nil,
            let index = listed.firstIndex(where: { $0.connection == connection })
        else { return }
        listed.remove(at: index)
        guard members.count > listed.count else { return }
        var next: Member?
        for member in members.values {
            if let last = listed.last, !last.precedes(member) { continue }
            if next.map({ member.precedes($0) }) ?? true { next = member }
        }
        if let next { listed.append(next) }
    }
}
