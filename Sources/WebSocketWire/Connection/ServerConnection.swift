/// One server-side connection as a state machine: the HTTP request head, the upgrade, frames in,
/// queued frames out, pings, deadlines and the close handshake. It performs no I/O and reads no
/// clock: each event (bytes read, bytes written, a socket that would block, a message to send, a
/// close, a tick) comes with the time and returns the actions it decides, which the service loop
/// carries out (`ServerConnectionAction`). Writing is pulled: the loop asks `nextWrite` for the
/// bytes to write and reports with `wrote` how many went out.
///
/// Every bound a peer could otherwise stretch is here: the request head's size and time, the
/// message size, the queue of unsent bytes (`maxQueueBytes`, 1013), a peer that reads nothing for
/// `writeTimeout` (1013, whatever it sends), a peer silent for two ping intervals (1001), and a
/// close handshake that does not finish.
public struct ServerConnection {
    /// The limits and times one connection runs with (times in monotonic nanoseconds).
    public struct Configuration: Sendable {
        /// The WebSocket endpoint's path.
        public var path = "/ws"
        /// The subprotocol this server speaks.
        public var subprotocol = "chronosketch.v1"
        /// A larger message closes the connection with 1009.
        public var maxMessageBytes = 1 << 20
        /// Unsent bytes behind the first queued message beyond which the connection closes with 1013.
        public var maxQueueBytes = 8 << 20
        /// Broadcasts are written at most once per this interval (0: as soon as they come).
        public var frameInterval: UInt64 = 0
        /// Time for the request head after the connection was accepted, and for the next request
        /// on a kept-alive HTTP connection.
        public var headTimeout: UInt64 = 10_000_000_000
        /// A peer silent this long is pinged; silent twice as long, it is closed (0: no pings).
        public var pingInterval: UInt64 = 20_000_000_000
        /// Unsent bytes that made no progress for this long close the connection with 1013,
        /// whatever the peer sends (0: no such deadline).
        public var writeTimeout: UInt64 = 30_000_000_000
        /// Time for the peer to answer our close frame.
        public var closeTimeout: UInt64 = 5_000_000_000
        /// Time a finished HTTP connection waits for the peer to close after our side ended.
        public var lingerTimeout: UInt64 = 2_000_000_000
        /// How several small messages waiting together are joined into one frame.
        public var batching = MessageBatching(open: "[", separator: ",", close: "]")
        /// The proxies whose PROXY header and `X-Forwarded-For` name a connection's client (none by
        /// default: every connection is its peer's).
        public var trustedProxies = TrustedProxies()

        /// The defaults.
        public init() {}
    }

    /// Where the connection stands.
    public enum Phase: Equatable, Sendable {
        /// Reading an HTTP request head: the first, or the next one on a kept-alive connection.
        case requestHead
        /// A plain HTTP request was handed to the application; its answer is awaited (`respond`).
        case awaitingAnswer(keepAlive: Bool, includeBody: Bool)
        /// Writing an HTTP answer; with `keepAlive` the next request is read after it.
        case answering(keepAlive: Bool)
        /// An open WebSocket.
        case webSocket
        /// Our close frame is queued or written: only the close handshake is left.
        case closing
        /// An HTTP answer was written and our side ended: what the peer still sends is read and
        /// dropped until it closes (closing with unread bytes would reset the answer in flight).
        case lingering
        /// The descriptor is to be closed; nothing more happens.
        case dropped
    }

    /// The configuration, shared by every connection of a transport (one reference each).
    @usableFromInline let settings: Settings
    /// Where the connection stands.
    public internal(set) var phase = Phase.requestHead
    /// Received bytes not yet used (a head or frame that is not complete).
    @usableFromInline var input: [UInt8] = []
    var decoder: FrameDecoder
    /// Data frames waiting (shared buffers), with what each was charged to the budget.
    @usableFromInline var queue: [Queued] = []
    /// The payload bytes of `queue` (and of a large message being fragmented).
    public internal(set) var queuedBytes = 0
    /// The bytes of `queue` charged to this connection (queued while no other connection held
    /// them): what closing it would free.
    public internal(set) var chargedBytes = 0
    /// Control frames and raw HTTP bytes, written before the next data frame; pongs to the latest
    /// pings, if any wait, go first.
    @usableFromInline var control: [OutgoingBuffer] = []
    @usableFromInline var pongs: [OutgoingBuffer] = []
    /// The frame (or fragment) being written.
    @usableFromInline var sending: FrameWrite?
    /// A large message going out in fragments, and where its next fragment starts (its length
    /// once every fragment was taken; it counts as queued until the last one is written).
    @usableFromInline var fragmenting: Queued?
    @usableFromInline var fragmentOffset = 0
    /// Close after what is queued (the application's close, shutdown, a budget): code and reason.
    @usableFromInline var pendingClose: (CloseCode, String)?
    /// Whether our close frame was queued; whether the peer sent its own.
    @usableFromInline var closeQueued = false
    var peerClosed = false
    /// The code the connection was closed with, reported with `closed`.
    var closedWith: (CloseCode, String)?
    /// Which bound closed the connection, if one did (for the transport's figures).
    public internal(set) var closeCause: CloseCause?
    /// Whether the application knows the connection (it was upgraded and `closed` is not yet reported).
    var opened = false
    /// Whether received messages wait beyond a delivery budget (see `received(_:now:deliveries:)`).
    public internal(set) var holdsMessages = false
    /// Whether reading ended (a peer that half-closed after its request still reads the answer).
    public internal(set) var readStopped = false
    /// Whether the last write would block (the socket is full): writing waits for writability.
    public internal(set) var writeBlocked = false
    /// When the last frame was written completely.
    public internal(set) var lastWrite: UInt64 = 0
    /// When unsent bytes last made progress (or started to wait).
    var lastProgress: UInt64
    /// When the peer was last heard from; whether a ping waits for its answer.
    var lastHeard: UInt64
    var pingOutstanding = false
    /// Staggers pings: connections that opened together are not all pinged in the same tick.
    let pingOffset: UInt64
    /// The deadline of the request head, the close handshake or the linger (0: none).
    public internal(set) var deadline: UInt64
    /// What a trusted proxy's connection knows of its client (nil: not a trusted proxy's).
    var proxied: ProxiedPeer?
    /// The budget the queued bytes are counted in, and the account of the connection's user.
    let ledger: QueueLedger
    public internal(set) var account: QueueAccount?

    /// A connection accepted at `now`. `pingSlot` (any number, such as the connection's id)
    /// spreads the pings of connections over half a ping interval.
    public init(settings: Settings, ledger: QueueLedger, now: UInt64, pingSlot: UInt64 = 0) {
        self.settings = settings
        self.ledger = ledger
        decoder = FrameDecoder(maxMessageBytes: settings.configuration.maxMessageBytes)
        lastProgress = now
        lastHeard = now
        pingOffset = (pingSlot % 1024) * (settings.configuration.pingInterval / 2048)
        deadline = now + settings.configuration.headTimeout
    }

    /// A configuration shared by the connections that run with it.
    public final class Settings: Sendable {
        /// The configuration.
        public let configuration: Configuration

        /// Shares `configuration`.
        public init(_ configuration: Configuration) {
            self.configuration = configuration
        }
    }

    /// Whether the socket should be watched for reading: not once reading ended, and not while a
    /// request waits for its answer with a full head's worth of bytes behind it (a pipelining
    /// peer waits in the kernel, not in memory).
    @inlinable public var wantsRead: Bool {
        switch phase {
        case .dropped: return false
        case .awaitingAnswer, .answering: return !readStopped && input.count < HTTPRequestHead.maxBytes
        default: return !readStopped
        }
    }

    /// Whether the socket should be watched for writing: a write would have blocked and bytes wait.
    @inlinable public var wantsWrite: Bool { phase != .dropped && writeBlocked && hasOutput }

    /// Whether anything waits to be written.
    @inlinable public var hasOutput: Bool {
        sending != nil || !pongs.isEmpty || !control.isEmpty
            || (!closeQueued && (hasFragmentsLeft || !queue.isEmpty || pendingClose != nil))
    }

    /// Whether a large message has fragments still to be taken.
    @inlinable var hasFragmentsLeft: Bool {
        fragmenting != nil && fragmentOffset < fragmenting.unsafelyUnwrapped.buffer.count
    }

    /// Whether the connection is an open WebSocket that takes messages.
    @inlinable public var isOpen: Bool { phase == .webSocket && pendingClose == nil }
}

/// What the service loop does for a connection, in order.
public enum ServerConnectionAction: Equatable, Sendable {
    /// The WebSocket opened: the application hears of the connection.
    case opened
    /// A complete text message (valid UTF-8) for the application.
    case text([UInt8])
    /// A binary message arrived (its bytes are not kept).
    case binary
    /// A plain HTTP request for the application to answer; its answer goes to `respond`.
    case serveHTTP(HTTPRequestHead)
    /// Write what is waiting now.
    case flush
    /// Write what is waiting after this round's events (more may join it meanwhile).
    case flushSoon
    /// Broadcasts wait for the frame interval: write them at `flushDue` or later.
    case coalesce
    /// End our direction of the stream (TLS close_notify, or a TCP half-close).
    case endOurSide
    /// The application hears that the connection closed (once), with the code the server closed
    /// it with, if it did.
    case closed(code: CloseCode?, reason: String?)
    /// Close the descriptor and forget the connection.
    case drop
    /// Write what the socket takes now (a close frame, say), then end the connection as with `drop`.
    case flushAndDrop
}

/// The bounds that close a connection whatever the peer intends.
public enum CloseCause: Sendable, Hashable {
    /// More than `maxQueueBytes` waited behind the first queued message (1013).
    case queueFull
    /// Unsent bytes made no progress for `writeTimeout` (1013).
    case writeTimeout
    /// The peer was silent for two ping intervals (1001).
    case silentPeer
    /// The transport's memory for unsent data was used up, and this connection held the most (1013).
    case memoryBudget
    /// Its account's share of that memory was used up, and this connection held the most (1013).
    case accountShare
}

/// A message waiting in a connection's queue, and the bytes it was charged to the budget.
@usableFromInline struct Queued {
    @usableFromInline let buffer: OutgoingBuffer
    @usableFromInline let charged: Int
}
