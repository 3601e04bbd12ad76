import ChronoSketchCore
import PlanProtocol
import WebSocketServer

/// Who follows one plan: its subscribers (with the list every broadcast shares and the presence
/// roster) and its watches (indexed by the resources they request). A value the plan's owner
/// keeps; it decides nothing about messages, it only knows who is there.
struct PlanAudience {
    /// The subscribed connections.
    private(set) var subscribers: Set<ConnectionID> = [] { didSet { listCache = nil } }
    private var listCache: [ConnectionID]?
    /// The plan's watches, indexed by the resources they request: a confirmed timeline change
    /// looks only at the watches on the resources it touched.
    private(set) var watches = TimelineWatchIndex<WatchKey>()
    /// The subscribers as `presence` lists them.
    private(set) var presence = PresenceRoster()
    /// Whether presence changed since the last coalesced update, and the newest subscriber, which
    /// received the current presence directly when it joined.
    private var presenceDirty = false
    private var presenceCurrent: ConnectionID?

    /// Whether nobody follows the plan.
    var isEmpty: Bool { subscribers.isEmpty && watches.isEmpty }

    /// The subscribers as an array, built once per change of membership: every broadcast until
    /// the next change shares it.
    mutating func subscriberList() -> [ConnectionID] {
        if let cached = listCache { return cached }
        let list = Array(subscribers)
        listCache = list
        return list
    }

    /// Adds a subscriber (again: its place in presence is updated); returns whether it is new.
    /// The newcomer hears who is here at once; the others with the next coalesced update.
    mutating func join(_ member: PresenceRoster.Member) -> Bool {
        let inserted = subscribers.insert(member.connection).inserted
        presence.insert(member)
        presenceDirty = true
        presenceCurrent = member.connection
        return inserted
    }

    /// A subscriber's role changed: it is kept (later snapshots name it), and the subscriber
    /// moves in presence when its rank changed with it.
    mutating func move(_ member: PresenceRoster.Member) {
        guard subscribers.contains(member.connection) else { return }
        let rankBefore = presence.role(of: member.connection).map { $0 >= .editor ? 0 : 1 }
        presence.insert(member)
        if rankBefore != member.rank { presenceDirty = true }
    }

    /// The subscribers grouped by the role they hold (for a snapshot that names it).
    func subscribersByRole() -> [PlanRole: [ConnectionID]] {
        var groups: [PlanRole: [ConnectionID]] = [:]
        for connection in subscribers {
            groups[presence.role(of: connection) ?? .viewer, default: []].append(connection)
        }
        return groups
    }

    /// Removes a subscriber; returns whether it was one.
    mutating func leave(_ connection: ConnectionID) -> Bool {
        guard subscribers.remove(connection) != nil else { return false }
        presence.remove(connection)
        presenceDirty = true
        presenceCurrent = nil
        return true
    }

    /// Registers (or replaces) a watch.
    mutating func watch(_ query: TimelineQuery, as key: WatchKey) {
        watches.insert(query, for: key)
    }

    /// Ends watches of one connection.
    mutating func unwatch(_ watchIDs: some Sequence<String>, of connection: ConnectionID) {
        for watch in watchIDs { watches.remove(WatchKey(connection: connection, watch: watch)) }
    }

    /// When presence changed since the last call: who must hear of it (every subscriber but the
    /// newest, which was told when it joined).
    mutating func takePresenceUpdate() -> [ConnectionID]? {
        guard presenceDirty else { return nil }
        presenceDirty = false
        let newest = presenceCurrent
        presenceCurrent = nil
        return subscriberList().filter { $0 != newest }
    }
}

/// One watch of one connection: the key of a plan's watches.
struct WatchKey: Hashable, Sendable {
    let connection: ConnectionID
    let watch: String
}
