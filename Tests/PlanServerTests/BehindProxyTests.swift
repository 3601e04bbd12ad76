import CommandLineOptions
import Glibc
import PlanProtocol
import PlanTestSupport
import Testing

@testable import PlanServer

/// ops/deploy's proxy configurations as shipped, in front of two plan-server processes with
/// `--trusted-proxy 127.0.0.1/32`: TLS at the proxy, clients from distinct loopback addresses.
/// (ops/test installs haproxy and nginx; without them these tests are skipped, saying so.)
@Suite("Server: behind HAProxy and nginx (ops/deploy)", .database)
struct BehindProxyTests {
    static let haproxyInstalled = shell("command -v haproxy").status == 0
    static let nginxInstalled = shell("command -v nginx").status == 0

    @Test(
        "HAProxy (send-proxy-v2): healthy by HTTP/1.0 checks, a viewer's snapshot over wss, limits per real client",
        .timeLimit(.minutes(1)),
        .enabled(if: haproxyInstalled, "haproxy is not installed (ops/test installs it from ops/apt-packages)"))
    func haproxy() async throws {
        try await Self.scenario(.haproxy)
    }

    @Test(
        "nginx (X-Forwarded-For): a viewer's snapshot over wss, limits per real client",
        .timeLimit(.minutes(1)),
        .enabled(if: nginxInstalled, "nginx is not installed (ops/test installs it from ops/apt-packages)"))
    func nginx() async throws {
        try await Self.scenario(.nginx)
    }

    @Test("--trusted-proxy takes one comma-separated list; a malformed one stops the server at start, naming it")
    func option() throws {
        func configuration(_ arguments: [String]) throws(CommandLineError) -> ServerConfiguration {
            let options = try ParsedArguments(arguments, valueOptions: ServerConfiguration.serveValueOptions)
            return try ServerConfiguration(databaseURL: "", options: options)
        }
        #expect(try configuration([]).trustedProxies.isEmpty)
        let parsed = try configuration(["--trusted-proxy", "127.0.0.1/32,10.0.0.0/8, ::1/128"])
        #expect(parsed.trustedProxies.ranges.map(\.description) == ["127.0.0.1/32", "10.0.0.0/8", "::1/128"])
        #expect(parsed.transportConfiguration.connection.trustedProxies == parsed.trustedProxies)
        for (value, named) in [
            ("10.0.0.1/8", "did you mean 10.0.0.0/8"), ("10.0.0.0/8,", "empty entry"), ("proxy", "\"proxy\""),
        ] {
            #expect {
                _ = try configuration(["--trusted-proxy", value])
            } throws: { error in
                "\(error)".hasPrefix("--trusted-proxy: ") && "\(error)".contains(named)
            }
        }
        #expect(throws: CommandLineError.self) {
            _ = try configuration(["--trusted-proxy", "127.0.0.1", "--trusted-proxy", "::1"])
        }
        let code = ServerCommands.main(
            arguments: ["serve", "--trusted-proxy", "10.0.0.0/33", "--port", "0"],
            environment: ["DATABASE_URL": TestDatabase.url])
        #expect(code == 2)
    }

    /// Two servers allowing 2 connections per address, behind `kind`: a viewer from 127.0.0.2
    /// gets its snapshot and the server logs it from 127.0.0.2; 127.0.0.2 is then refused beyond
    /// its limit (2 per server: 4 through the proxy) while 127.0.0.3 is still admitted.
    static func scenario(_ kind: ProxyDeployment.Kind) async throws {
        let fixture = try PlanFixture.make()
        let arguments = ["--trusted-proxy", "127.0.0.1/32", "--max-connections-per-address", "2"]
        let servers = try [ServerProcess.start(arguments: arguments), ServerProcess.start(arguments: arguments)]
        defer { for server in servers { server.terminate() } }
        let proxy = try ProxyDeployment(kind, servers: servers.map(\.port))
        defer { proxy.stop() }
        try await proxy.waitUntilServing()
        try await offThePool {
            let viewer = try TLSClientSocket(from: "127.0.0.2", port: proxy.port)
            #expect(try viewer.upgrade() == nil)
            try viewer.send(ClientMessage.hello(token: fixture.viewerToken, client: "proxied/1"))
            #expect(try viewer.next("welcome") != nil)
            try viewer.send(ClientMessage.subscribe(plan: fixture.plan))
            guard case .snapshot(let snapshot, _)? = try viewer.next("snapshot") else {
                throw HarnessError("no snapshot through \(kind)")
            }
            #expect(snapshot.version == 0)
            // The session is logged from the client's address (the hub logs it as it opens).
            #expect(servers.contains { $0.log.contains("opened from 127.0.0.2 ") }, "\(servers.map(\.log))")
            #expect(!servers.contains { $0.log.contains("opened from 127.0.0.1 ") })
            // 127.0.0.2 holds one; four more would be five over two servers allowing two each.
            var held = [viewer]
            var refusals: [String] = []
            for _ in 0..<4 {
                let socket = try TLSClientSocket(from: "127.0.0.2", port: proxy.port)
                if let refusal = try socket.upgrade() { refusals.append(refusal) } else { held.append(socket) }
            }
            #expect(!refusals.isEmpty && held.count >= 2, "\(held.count) upgraded; refused: \(refusals)")
            for refusal in refusals {
                #expect(refusal.hasPrefix("HTTP/1.1 503 ") && refusal.contains("too many connections from 127.0.0.2:"))
            }
            // Another client is admitted, on either server.
            for _ in 0..<2 {
                let other = try TLSClientSocket(from: "127.0.0.3", port: proxy.port)
                #expect(try other.upgrade() == nil)
                held.append(other)
            }
            #expect(shell("curl -sk --http1.0 https://127.0.0.1:\(proxy.port)/healthz").output == "ok")
            // The refusals are counted where they happened.
            let refused = servers.compactMap { server in
                shell("curl -s http://127.0.0.1:\(server.port)/metrics").output.split(separator: "\n")
                    .first { $0.hasPrefix("chronosketch_connections_refused_total ") }
                    .flatMap { Int($0.split(separator: " ")[1]) }
            }
            #expect(refused.reduce(0, +) == refusals.count, "\(refused)")
        }
    }
}

/// A proxy from ops/deploy running in a directory of its own with a fresh self-signed certificate.
final class ProxyDeployment: @unchecked Sendable {
    enum Kind: String {
        case haproxy
        case nginx
    }

    let kind: Kind
    let directory: String
    /// Where clients connect (TLS), and HAProxy's statistics page.
    let port: Int
    let statsPort: Int
    private let pid: pid_t

    /// The repository's root (this file is Tests/PlanServerTests/…).
    static let repository: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    init(_ kind: Kind, servers: [Int]) throws {
        self.kind = kind
        directory = "/tmp/chronosketch-proxy-\(UInt32.random(in: 0...UInt32.max))"
        port = try freePort()
        statsPort = try freePort()
        let made = shell(
            "mkdir -p \(directory)/logs && cd \(directory) && openssl req -x509 -newkey rsa:2048 -nodes "
                + "-keyout key.pem -out cert.pem -days 1 -subj /CN=127.0.0.1 && cat cert.pem key.pem > proxy.pem")
        guard made.status == 0 else { throw HarnessError("no certificate: \(made.output)") }
        let settings = [
            "PLAN_PROXY_BIND": "127.0.0.1:\(port)", "PLAN_PROXY_LISTEN": "127.0.0.1:\(port)",
            "PLAN_PROXY_CERT": kind == .haproxy ? "\(directory)/proxy.pem" : "\(directory)/cert.pem",
            "PLAN_PROXY_KEY": "\(directory)/key.pem", "PLAN_PROXY_STATS": "127.0.0.1:\(statsPort)",
            "PLAN_SERVER_1": "127.0.0.1:\(servers[0])", "PLAN_SERVER_2": "127.0.0.1:\(servers[1])",
        ]
        let command: String
        switch kind {
        case .haproxy:
            let environment = settings.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
            command = "\(environment) haproxy -db -f \(Self.repository)/ops/deploy/haproxy.cfg"
        case .nginx:
            // nginx expands no environment variables: the file is rendered as its header says.
            var text = String(decoding: try readAll("\(Self.repository)/ops/deploy/nginx.conf"), as: UTF8.self)
            for (name, value) in settings { text = text.replacing("${\(name)}", with: value) }
            guard let file = fopen("\(directory)/nginx.conf", "w") else {
                throw HarnessError("cannot write nginx.conf")
            }
            fputs(text, file)
            fclose(file)
            command =
                "nginx -p \(directory)/ -c \(directory)/nginx.conf -e stderr -g 'daemon off; pid \(directory)/nginx.pid;'"
        }
        let started = shell("\(command) > \(directory)/proxy.log 2>&1 & echo $!")
        guard started.status == 0, let pid = pid_t(started.output) else {
            throw HarnessError("cannot start \(kind): \(started.output)")
        }
        self.pid = pid
    }

    /// Waits (polling, for at most 20 s) until the proxy serves `/healthz`; HAProxy until its
    /// checks (HTTP/1.0, after a PROXY v2 LOCAL header) found both servers up.
    func waitUntilServing() async throws {
        for _ in 0..<200 {
            guard kill(pid, 0) == 0 else { throw HarnessError("\(kind) exited: \(log)") }
            if kind == .haproxy {
                let csv = shell("curl -s 'http://127.0.0.1:\(statsPort)/;csv'").output
                let servers = csv.split(separator: "\n").filter { $0.hasPrefix("plan_servers,s") }
                if servers.count == 2, servers.allSatisfy({ $0.contains(",UP,") && $0.contains("L7OK") }) { return }
            } else if shell("curl -sk https://127.0.0.1:\(port)/healthz").output == "ok" {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw HarnessError("\(kind) never served: \(log)")
    }

    /// The proxy's log so far.
    var log: String {
        (try? String(decoding: readAll("\(directory)/proxy.log"), as: UTF8.self)) ?? ""
    }

    /// Stops the proxy and removes its directory.
    func stop() {
        kill(pid, SIGTERM)
        shell("rm -rf \(directory)")
    }
}

/// A TCP port free on 127.0.0.1 now (the kernel's pick for a socket bound to port 0).
func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    guard bound else { throw HarnessError("no free port: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
}
