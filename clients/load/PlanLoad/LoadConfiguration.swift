/// What `plan-load` runs: where, how many viewers and editors, how fast and how long.
public struct LoadConfiguration: Sendable {
    /// ws://host:port/ws of the server.
    public var server: String
    /// A token with editor rights on the plan (viewers use it too).
    public var token: String
    /// The plan to load.
    public var plan: String
    /// Subscribing viewers.
    public var viewers = 100
    /// Editors proposing.
    public var editors = 1
    /// Proposals per second, all editors together.
    public var rate = 10.0
    /// Seconds of proposing.
    public var duration = 10.0
    /// The server's process id, for CPU and memory figures.
    public var serverPID: Int32?
    /// One JSON object instead of a table.
    public var json = false

    /// Creates a configuration.
    public init(server: String, token: String, plan: String) {
        self.server = server
        self.token = token
        self.plan = plan
    }
}
