import PlanProtocol
import WebSocketServer
import WebSocketWire

/// Everything `plan-server serve` is configured with, read from the command line and the
/// environment in one place.
public struct ServerConfiguration: Sendable {
    /// Interface to listen on (loopback by default).
    public var host = "127.0.0.1"
    /// Port; 0 picks a free one.
    public var port = 8080
    /// The libpq connection string (`DATABASE_URL`).
    public var databaseURL: String
    /// PEM certificate and key for wss://.
    public var tlsCertificatePath: String?
    /// PEM private key for wss://.
    public var tlsKeyPath: String?
    /// The limits announced in `welcome` and enforced.
    public var limits = ProtocolLimits.standard
    /// Broadcasts to one connection are gathered into one frame at most this often (direct
    /// answers are not delayed); see `WebSocketTransport.Configuration.frameInterval`.
    public var frameInterval: Duration = .milliseconds(100)
    /// Broadcasts of plans with at most this many subscribers are written at once (in a small
    /// group, with one service thread, every subscriber hears of a change before its proposer's
    /// `ack` goes out); larger audiences are coalesced with `frameInterval`.
    public var coalescingAudience = 64
    /// Threads serving WebSocket connections, each its share of them. With one, a subscriber of
    /// a small audience is written a change before its proposer's `ack` (unless its socket is
    /// full); with more (for thousands of connections), each connection still gets its messages
    /// in order.
    public var serviceThreads = 1
    /// Threads per service thread that take a share of its big broadcast passes (a change to
    /// thousands of viewers is written by both side by side); they sleep between passes. 0: none.
    public var writeHelpers = 1
    /// Database connections for commits, loads and lookups.
    public var databaseConnections = 4
    /// Versions of each plan's mutation log kept for resuming subscribers (and other processes):
    /// as a plan advances, older ones are trimmed, and a subscriber resuming from before them gets
    /// a snapshot. 0 (the default) keeps the whole log.
    public var logKeep = 0
    /// A full copy of a plan is kept every this many versions, so that reading a plan as of any
    /// version (`fetch`) replays at most this many ops.
    public var checkpointEvery = 500
    /// Messages read from sockets and not yet handled by the hub beyond which the transport stops
    /// reading (until the hub is back to half of it).
    public var maxIntakeBacklog = 10000
    /// Messages of one connection read and not yet handled by the hub beyond which that
    /// connection is not read (a flooding peer queues no more than this ahead of others).
    public var maxIntakePerConnection = 64
    /// A connection silent this long gets a ping; silent for twice as long, it is closed.
    /// Zero turns pings off.
    public var pingInterval: Duration = .seconds(20)
    /// A connection that has not sent `hello` this long after it opened is closed with 1008.
    public var helloTimeout: Duration = .seconds(10)
    /// How long a plan nobody uses stays in memory.
    public var idlePlanLifetime: Duration = .seconds(30)
    /// Open connections one user may hold at once (0: no limit); one more is closed with 1008
    /// right after its token is checked.
    public var maxConnectionsPerUser = 1000
    /// Open connections from one peer address at once, counted from accept on, before the upgrade
    /// (0: no limit); one more is answered 503 and closed as it is accepted. A trusted proxy's
    /// connections (`trustedProxies`) count against their clients instead, once known.
    public var maxConnectionsPerAddress = 2000
    /// The proxies (`--trusted-proxy`) whose PROXY protocol header or `X-Forwarded-For` names a
    /// connection's client, for the per-address limit, the logs and presence; none by default.
    public var trustedProxies = TrustedProxies()
    /// Bytes all connections' send queues may hold together, each buffer counted once however
    /// many connections it was queued to (0: no budget). Past it, the connections holding the most
    /// are closed with 1013 until the queues are back under nine tenths of it.
    public var queueBudget = 1 << 30
    /// A name for this process in session ids and logs.
    public var instanceName = "s1"
    /// Whether to write log lines.
    public var logging = true
    /// The directory of the web client served at `/` (read into memory at start); nil serves
    /// none (`/` is then 404).
    public var webRoot: String?

    /// Creates a configuration for a database.
    public init(databaseURL: String) {
        self.databaseURL = databaseURL
    }
}
