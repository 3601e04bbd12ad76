import Synchronization

/// The memory the transport's send queues hold, counted once per buffer however many
/// connections it was queued to (a broadcast to ten thousand viewers is one buffer), and the
/// budget it must stay within. Shared by every connection of a transport, on any thread.
public final class QueueLedger: Sendable {
    /// Past this many bytes held in all, the connections charged the most are closed with 1013
    /// (0: no budget).
    public let budget: Int
    /// Past this many bytes charged to one account (a user's connections), that account's
    /// connections charged the most are closed with 1013 (0: no share).
    public let accountShare: Int
    private let held = Atomic<Int>(0)

    /// A ledger with these bounds.
    public init(budget: Int = 0, accountShare: Int = 0) {
        self.budget = budget
        self.accountShare = accountShare
    }

    /// The bytes held by send queues now, each buffer counted once.
    public var heldBytes: Int { held.load(ordering: .relaxed) }

    /// Whether the queues hold more than the budget.
    public var isOverBudget: Bool { budget > 0 && heldBytes > budget }

    /// A connection queued `buffer`: returns what it is charged, the buffer's bytes when no other
    /// queue held it (then they count in `heldBytes`), else 0.
    func hold(_ buffer: OutgoingBuffer) -> Int {
        guard buffer.holders.wrappingAdd(1, ordering: .relaxed).oldValue == 0 else { return 0 }
        held.wrappingAdd(buffer.count, ordering: .relaxed)
        return buffer.count
    }

    /// A queue let `buffer` go (written or dropped); its bytes leave `heldBytes` with the last one.
    func release(_ buffer: OutgoingBuffer) {
        guard buffer.holders.wrappingAdd(-1, ordering: .relaxed).oldValue == 1 else { return }
        held.wrappingAdd(-buffer.count, ordering: .relaxed)
    }
}

/// What the connections of one account (a user) are charged together in their send queues.
/// Shared by those connections, on any thread.
public final class QueueAccount: Sendable {
    /// The account's name (a user), for logs.
    public let name: String
    private let charged = Atomic<Int>(0)
    /// Connections that use the account (the transport forgets it when none does).
    public let members = Atomic<Int>(0)

    /// An account named `name`.
    public init(name: String) {
        self.name = name
    }

    /// The bytes charged to the account's connections now.
    public var chargedBytes: Int { charged.load(ordering: .relaxed) }

    func add(_ bytes: Int) {
        if bytes != 0 { charged.wrappingAdd(bytes, ordering: .relaxed) }
    }
}
