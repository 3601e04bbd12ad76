import Glibc
import Synchronization

/// Two network namespaces joined by a veth pair: a "server" side and a "client" side with
/// addresses of their own (not loopback), as a real network would give. The server side may get
/// a resolver of its own (`/etc/netns/NAME/resolv.conf`, which `ip netns exec` mounts over
/// `/etc/resolv.conf`). Needs root and `ip` (iproute2); the link can be cut and restored.
public final class NetworkNamespacePair: @unchecked Sendable {
    /// The namespaces' names.
    public let server: String
    public let client: String
    /// The veth ends' names (in the server and the client namespace).
    public let serverLink: String
    public let clientLink: String
    /// The addresses of each end.
    public let serverAddress: String
    public let clientAddress: String
    /// An address on the link that nobody holds: packets to it vanish without an answer.
    public let silentAddress: String

    /// Whether this process can make namespaces (root, with `ip` installed).
    public static var available: Bool {
        geteuid() == 0 && access("/usr/sbin/ip", X_OK) == 0
    }

    /// Creates both namespaces and the link (a /24 chosen from the process id, so that parallel
    /// runs do not collide).
    public init() throws {
        let tag = Int(getpid()) % 100_000
        let subnet = "10.213.\(Int(getpid()) % 250 + 1)"
        server = "cs-srv-\(tag)"
        client = "cs-cli-\(tag)"
        serverLink = "cs-vs\(tag)"
        clientLink = "cs-vc\(tag)"
        serverAddress = "\(subnet).1"
        clientAddress = "\(subnet).2"
        silentAddress = "\(subnet).53"
        remove()
        let commands = [
            "ip netns add \(server)", "ip netns add \(client)",
            "ip link add \(serverLink) type veth peer name \(clientLink)",
            "ip link set \(serverLink) netns \(server)", "ip link set \(clientLink) netns \(client)",
            "ip -n \(server) addr add \(serverAddress)/24 dev \(serverLink)",
            "ip -n \(client) addr add \(clientAddress)/24 dev \(clientLink)",
            "ip -n \(server) link set lo up", "ip -n \(client) link set lo up",
            "ip -n \(server) link set \(serverLink) up", "ip -n \(client) link set \(clientLink) up",
        ]
        try runSetup(commands, undo: remove)
    }

    deinit { remove() }

    /// Gives the server namespace a resolver at `silentAddress`, which never answers (each
    /// lookup waits out the resolver's timeout).
    public func useSilentResolver() throws {
        let directory = "/etc/netns/\(server)"
        let (status, output) = shell(
            "mkdir -p \(directory) && printf 'nameserver \(silentAddress)\\noptions timeout:5 attempts:2\\n' "
                + "> \(directory)/resolv.conf")
        guard status == 0 else { throw HarnessError("resolver: \(output)") }
    }

    /// The command prefix that runs a program in a namespace.
    public func launcher(_ namespace: String) -> [String] {
        ["/usr/sbin/ip", "netns", "exec", namespace]
    }

    /// Cuts (`false`) or restores the link, from the client side.
    public func setLink(up: Bool) throws {
        try setNamespaceLink(client, clientLink, up: up)
    }

    /// Deletes the namespaces (the veth pair goes with them) and the resolver file.
    private func remove() {
        shell("ip netns del \(server)")
        shell("ip netns del \(client)")
        shell("rm -rf /etc/netns/\(server)")
    }
}

/// One network namespace joined to this process's own (the root namespace) by a veth pair: a
/// server started in it (`launcher`) is reached by this process's clients at `namespaceAddress`
/// from `rootAddress`, and the link can be cut and restored. Needs root and `ip` (iproute2).
public final class RootLinkedNamespace: @unchecked Sendable {
    /// Instances made by this process so far.
    private static let instances = Atomic<Int>(0)

    /// The namespace's name.
    public let namespace: String
    /// The veth ends' names (in the root namespace and in the namespace).
    public let rootLink: String
    public let namespaceLink: String
    /// The addresses of each end.
    public let rootAddress: String
    public let namespaceAddress: String

    /// Creates the namespace and the link (names and a /24 chosen from the process id and a count
    /// of this process's instances, so that parallel runs and suites do not collide).
    public init() throws {
        let instance = RootLinkedNamespace.instances.wrappingAdd(1, ordering: .relaxed).oldValue % 40
        let tag = Int(getpid()) % 10_000 * 100 + instance
        let subnet = "10.\(214 + instance).\(Int(getpid()) % 250 + 1)"
        namespace = "cs-rl-\(tag)"
        rootLink = "cs-rr\(tag)"
        namespaceLink = "cs-rn\(tag)"
        rootAddress = "\(subnet).2"
        namespaceAddress = "\(subnet).1"
        remove()
        let commands = [
            "ip netns add \(namespace)",
            "ip link add \(rootLink) type veth peer name \(namespaceLink)",
            "ip link set \(namespaceLink) netns \(namespace)",
            "ip addr add \(rootAddress)/24 dev \(rootLink)",
            "ip -n \(namespace) addr add \(namespaceAddress)/24 dev \(namespaceLink)",
            "ip -n \(namespace) link set lo up", "ip link set \(rootLink) up",
            "ip -n \(namespace) link set \(namespaceLink) up",
        ]
        try runSetup(commands, undo: remove)
    }

    deinit { remove() }

    /// The command prefix that runs a program in the namespace.
    public var launcher: [String] { ["/usr/sbin/ip", "netns", "exec", namespace] }

    /// Cuts (`false`) or restores the link, at the namespace's end: the root end only loses its
    /// carrier and keeps its route, so packets to the namespace are dropped on the link while it
    /// is cut (they never take the root namespace's default route elsewhere).
    public func setLink(up: Bool) throws {
        try setNamespaceLink(namespace, namespaceLink, up: up)
    }

    /// Deletes the namespace (the veth pair goes with it).
    private func remove() {
        shell("ip netns del \(namespace)")
        shell("ip link del \(rootLink)")
    }
}

/// Runs the setup `commands` in order; at the first that fails, `undo` clears what the others made
/// and the failure is thrown, naming the command and its output.
func runSetup(_ commands: [String], undo: () -> Void) throws {
    for command in commands {
        let (status, output) = shell(command)
        guard status == 0 else {
            undo()
            throw HarnessError("\(command): \(output)")
        }
    }
}

/// Sets `link` in `namespace` up or down (down: the veth pair's other end loses its carrier).
func setNamespaceLink(_ namespace: String, _ link: String, up: Bool) throws {
    let (status, output) = shell("ip -n \(namespace) link set \(link) \(up ? "up" : "down")")
    guard status == 0 else { throw HarnessError("link: \(output)") }
}
