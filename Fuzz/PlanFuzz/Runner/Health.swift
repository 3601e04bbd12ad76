import SystemSupport

/// Liveness and health probes of the server.
public enum Health {
    /// Whether process `pid` is alive; a zombie (crashed, not yet reaped) counts as dead.
    public static func processIsAlive(_ pid: Int32) -> Bool {
        guard let text = try? Files.readText("/proc/\(pid)/stat") else { return false }
        guard let close = text.lastIndex(of: ")") else { return false }
        let state = text[text.index(after: close)...].first { $0 != " " }
        return state != "Z" && state != "X"
    }

    /// The status code of `GET /healthz`, or nil when no answer came within 5 s.
    public static func healthz(host: String, port: Int) -> Int? {
        guard let socket = FuzzSocket(host: host, port: port) else { return nil }
        let request = "GET /healthz HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n"
        guard socket.send(Array(request.utf8)), let head = socket.readHTTPHead(timeoutMilliseconds: 5000) else {
            return nil
        }
        let parts = head.split(separator: " ", maxSplits: 2)
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    /// Whether a fresh client is welcomed within 5 s.
    public static func welcomes(host: String, port: Int, token: String) -> Bool {
        FuzzClient(host: host, port: port)?.hello(token: token) ?? false
    }
}
