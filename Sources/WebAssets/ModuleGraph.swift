/// The static import graph of a site's JavaScript modules, read from their sources: which files a
/// page's module scripts need before they run, so that the page can ask for all of them at once
/// (`<link rel="modulepreload">`) instead of one level of imports after the other. Pure.
///
/// Only static imports count: `import … from './x.mjs'`, `import './x.mjs'`,
/// `export … from './x.mjs'`, each starting a line (as the statements of a module's top level
/// do), their specifier a relative (`./`, `../`) or absolute (`/`) path. A dynamic `import(…)` is
/// no edge: what it loads is wanted later, or chosen at run time.
public enum ModuleGraph {
    /// The specifiers of the static relative imports and re-exports in `source`, in order.
    public static func staticImports(in source: String) -> [String] {
        source.matches(of: statement).map { String($0.output.specifier) }
    }

    /// An `import` or `export … from` statement at the start of a line, up to its specifier.
    private static var statement: Regex<(Substring, quote: Substring, specifier: Substring)> {
        #/
        ^ \h*
        (?:
          import \b \s* (?: [\w$]+ \s* ,? \s* )? (?: \* \s* as \s+ [\w$]+ \s* | \{ [^}]* \} \s* )? (?: from \b \s* )?
          | export \b \s* (?: \* (?: \s* as \s+ [\w$]+ )? | \{ [^}]* \} ) \s* from \b \s*
        )
        (?<quote> ["'] ) (?<specifier> \.{0,2} / [^"'\n]* ) \k<quote>
        /#
        .anchorsMatchLineEndings()
    }

    /// The file that `reference` (a URL path: relative to `base`'s directory, or absolute from the
    /// root when it starts with one `/`) names, with `.` and `..` segments applied, a query or
    /// fragment dropped and percent escapes decoded; nil when it has a scheme or a host, climbs
    /// above the root, or names what `StaticPath` refuses.
    public static func resolve(_ reference: String, from base: String) -> String? {
        let path = reference.prefix { $0 != "?" && $0 != "#" }
        guard !path.isEmpty, !path.hasPrefix("//"), !path.prefix(while: { $0 != "/" }).contains(":") else {
            return nil
        }
        var segments =
            path.hasPrefix("/") ? [] : base.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() where !(index == 0 && part.isEmpty) {
            switch part {
            case ".": continue
            case "..":
                guard !segments.isEmpty else { return nil }
                segments.removeLast()
            default: segments.append(part)
            }
        }
        guard case .file(let name) = StaticPath.resolve("/" + segments.joined(separator: "/")) else { return nil }
        return name
    }

    /// Every module of `files` that `entries` need, by static imports, in breadth-first order
    /// (the entries first, each module once). An import of a file that is not there is left out
    /// (the browser reports it when it runs the module).
    public static func reachable(from entries: [String], files: [String: [UInt8]]) -> [String] {
        var order: [String] = []
        var seen: Set<String> = []
        var queue = entries[...]
        while let module = queue.popFirst() {
            guard let body = files[module], seen.insert(module).inserted else { continue }
            order.append(module)
            for specifier in staticImports(in: String(decoding: body, as: UTF8.self)) {
                if let name = resolve(specifier, from: module), !seen.contains(name) { queue.append(name) }
            }
        }
        return order
    }

    /// `file` as a URL path relative to `page`'s directory (`../` for each directory to leave),
    /// every byte but the unreserved ones (RFC 3986 §2.3) and `/` percent-encoded, so that it is
    /// safe in an HTML attribute and a URL alike.
    public static func href(to file: String, from page: String) -> String {
        let directory = page.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        let target = file.split(separator: "/", omittingEmptySubsequences: false)
        var shared = 0
        while shared < directory.count, shared < target.count - 1, directory[shared] == target[shared] { shared += 1 }
        let up = Array(repeating: "..", count: directory.count - shared)
        let path = (up + target[shared...].map(String.init)).joined(separator: "/")
        return path.utf8.map { byte in
            isUnreserved(byte) || byte == UInt8(ascii: "/")
                ? String(UnicodeScalar(byte)) : "%" + StaticSite.hex(byte).uppercased()
        }.joined()
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
