import WebSocketWire

/// What a page needs before its first render, and the page as served with it announced: its
/// module scripts, every module they import statically (`ModuleGraph`) and, for a client that
/// loads its texts per language, that language's module, each as a
/// `<link rel="modulepreload" href="…">` in the page's head. The browser then asks for all of them
/// at once, instead of one level of imports after the other. Pure.
public enum PagePreloads {
    /// The files that the module scripts of `page` (`<script type="module" src="…">`, outside
    /// comments) name, resolved from the page's name `name`, in order.
    public static func moduleScripts(in page: [UInt8], named name: String) -> [String] {
        let text = String(decoding: page, as: UTF8.self).replacing(#/<!--.*?-->/#.dotMatchesNewlines(), with: "")
        var scripts: [String] = []
        for tag in text.matches(of: #/<script\b(?<attributes>[^>]*)>/#.ignoresCase()) {
            var attributes: [String: String] = [:]
            let attribute = #/(?<name>[\w-]+)\s*=\s*(?:"(?<double>[^"]*)"|'(?<single>[^']*)'|(?<bare>[^\s"'=<>`]+))/#
            for match in tag.output.attributes.matches(of: attribute) {
                let value = match.output.double ?? match.output.single ?? match.output.bare ?? ""
                attributes[match.output.name.lowercased()] = String(value)
            }
            guard attributes["type"]?.trimmingSpaces.lowercased() == "module", let source = attributes["src"],
                let file = ModuleGraph.resolve(source.trimmingSpaces, from: name)
            else { continue }
            scripts.append(file)
        }
        return scripts
    }

    /// The language modules beside `modules`: files named `lang-XX.mjs` (XX two or three
    /// lowercase letters, a language's primary subtag) in the directory of one of them, by
    /// language. The web client loads one of them per page, chosen at run time
    /// (`import(`./lang-${language}.mjs`)`), so no static import names them.
    public static func languageModules(beside modules: [String], among names: some Sequence<String>) -> [String: String]
    {
        let directories = Set(modules.map { directory(of: $0) })
        var found: [String: String] = [:]
        for name in names where directories.contains(directory(of: name)) {
            let base = name.split(separator: "/").last ?? ""
            guard let match = base.wholeMatch(of: #/lang-(?<language>[a-z]{2,3})\.mjs/#) else { continue }
            found[String(match.output.language)] = name
        }
        return found
    }

    /// `page` with a `<link rel="modulepreload">` for each of `modules` (hrefs relative to the
    /// page's name `name`) on lines of their own before its `</head>`; nil when it has none.
    public static func injecting(_ modules: [String], into page: [UInt8], named name: String) -> [UInt8]? {
        let closing = Array("</head".utf8)
        guard closing.count < page.count,
            let at = (0..<(page.count - closing.count)).first(where: { start in
                zip(page[start...], closing).allSatisfy { lowercase($0) == $1 }
                    && [">", " ", "\t", "\r", "\n"].map { UInt8(ascii: $0) }.contains(page[start + closing.count])
            })
        else { return nil }
        let lineStart = page[..<at].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let beforeLine = page[lineStart..<at].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let insertAt = beforeLine ? lineStart : at
        var links = modules.map { "  <link rel=\"modulepreload\" href=\"\(ModuleGraph.href(to: $0, from: name))\">\n" }
            .joined()
        if !beforeLine { links = "\n" + links }
        return Array(page[..<insertAt]) + Array(links.utf8) + Array(page[insertAt...])
    }

    /// The directory part of a file name (`js` for `js/a.mjs`, empty for `index.html`).
    static func directory(of name: String) -> Substring {
        name.lastIndex(of: "/").map { name[..<$0] } ?? ""
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
