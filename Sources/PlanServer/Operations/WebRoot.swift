import Glibc
import SystemSupport
import WebAssets
import WebSocketWire

/// The web client's files (`clients/web`, or `--web-root DIR`), read into memory once when the
/// server starts, so that serving them never waits for the disk on a service thread.
///
/// Only regular files are loaded, and only those that really lie under the root: hidden names
/// (starting with a dot) are skipped, and a symbolic link is followed only when its target is a
/// regular file inside the root (a link pointing elsewhere is left out, not served). Changes on
/// disk take effect with the next start. The files are served as written, gzipped once here
/// (`StaticSite`), pages with their module preloads.
enum WebRoot {
    /// The most files loaded.
    static let maxFiles = 2000
    /// The most bytes loaded in all.
    static let maxBytes = 32 << 20
    /// The deepest directory nesting followed.
    static let maxDepth = 16

    /// The files under `directory` as a site.
    /// - Throws: `SystemError` when the directory cannot be read, or holds more than `maxFiles`
    ///   files or `maxBytes` bytes.
    static func load(_ directory: String) throws(SystemError) -> StaticSite {
        guard let root = realPath(directory), isDirectory(root) else {
            throw SystemError("the web root \(directory) is not a readable directory")
        }
        var files: [String: [UInt8]] = [:]
        var total = 0
        try collect(root: root, relative: [], depth: 0, into: &files, total: &total)
        return StaticSite(files: files)
    }

    /// `PLAN_WEB_ROOT` when set, else `clients/web` beside or above the running executable (a
    /// checkout's build directory), else the source checkout's `clients/web` (as `sql/` is found),
    /// else nil: no web client is served.
    static func defaultDirectory(environment: [String: String]) -> String? {
        if let configured = environment["PLAN_WEB_ROOT"], !configured.isEmpty { return configured }
        if let beside = ShippedFiles.besideExecutable("clients/web", holding: "index.html", levels: 6) {
            return beside
        }
        let checkout = ShippedFiles.inSourceCheckout("clients/web")
        return access("\(checkout)/index.html", R_OK) == 0 ? checkout : nil
    }

    private static func collect(
        root: String, relative: [String], depth: Int, into files: inout [String: [UInt8]], total: inout Int
    ) throws(SystemError) {
        let directory = ([root] + relative).joined(separator: "/")
        guard let handle = opendir(directory) else { throw SystemError("cannot read \(directory)") }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(validatingCString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard let name, case .file(let checked) = StaticPath.resolve("/" + name), checked == name else {
                continue  // hidden, ".", "..", or a name no request could name
            }
            let path = directory + "/" + name
            guard let target = realPath(path), target.hasPrefix(root + "/") else { continue }
            if isDirectory(target) {
                // A link to a directory inside the root is skipped: it could loop.
                guard depth < maxDepth, target == path else { continue }
                try collect(root: root, relative: relative + [name], depth: depth + 1, into: &files, total: &total)
            } else if isRegularFile(target) {
                let bytes = try Files.read(target)
                total += bytes.count
                guard files.count < maxFiles, total <= maxBytes else {
                    throw SystemError("the web root \(root) holds more than \(maxFiles) files or \(maxBytes) bytes")
                }
                files[(relative + [name]).joined(separator: "/")] = bytes
            }
        }
    }

    /// The canonical absolute path, symbolic links resolved, or nil when it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isDirectory(_ path: String) -> Bool { fileType(path) == S_IFDIR }

    private static func isRegularFile(_ path: String) -> Bool { fileType(path) == S_IFREG }

    private static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }
}
