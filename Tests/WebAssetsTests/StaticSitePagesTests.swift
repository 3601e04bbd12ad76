import Testing
import WebSocketWire

@testable import WebAssets

@Suite("Static pages: module preloads put in at start, one variant per language")
struct StaticSitePagesTests {
    static let page = """
        <!doctype html>
        <head>
          <script type="module" src="js/main.mjs"></script>
        </head>
        <body></body>

        """
    static let files: [String: [UInt8]] = [
        "index.html": Array(page.utf8),
        "js/main.mjs": Array("import { a } from './a.mjs';\nconst help = () => import('./help.mjs');\n".utf8),
        "js/a.mjs": Array("export * from './b.mjs';\n".utf8), "js/b.mjs": Array("export const b = 1;\n".utf8),
        "js/help.mjs": Array("export const help = 1;\n".utf8),
        "js/lang-en.mjs": Array("export default { hello: 'Hello' };\n".utf8),
        "js/lang-de.mjs": Array("export default { hello: 'Hallo' };\n".utf8),
    ]

    static func get(_ site: StaticSite, _ fields: [(String, String)] = []) -> StaticSite.Response {
        site.respond(to: HTTPRequestHead(method: "GET", target: "/", version: "HTTP/1.1", fields: fields))
    }

    static func preloads(_ body: [UInt8]) -> [String] {
        String(decoding: inflateGzip(body) ?? body, as: UTF8.self)
            .matches(of: #/<link rel="modulepreload" href="(?<href>[^"]*)">/#).map { String($0.output.href) }
    }

    @Test("the page announces its static graph and the language Accept-Language picks; Vary names both fields")
    func languages() throws {
        let site = StaticSite(files: Self.files)
        let page = try #require(site.pages["index.html"])
        #expect(page.preloads == ["js/a.mjs", "js/b.mjs"] && page.fallbackLanguage == "en")
        #expect(page.languageModules == ["en": "js/lang-en.mjs", "de": "js/lang-de.mjs"])
        let german = Self.get(site, [("Accept-Language", "de-DE,de;q=0.9,en;q=0.8")])
        let english = Self.get(site, [("Accept-Language", "en-US")])
        let unnamed = Self.get(site)
        #expect(Self.preloads(german.body) == ["js/a.mjs", "js/b.mjs", "js/lang-de.mjs"])
        #expect(Self.preloads(english.body) == ["js/a.mjs", "js/b.mjs", "js/lang-en.mjs"])
        #expect(unnamed.body == english.body && site.files["index.html"] == page.languages["en"])
        for answer in [german, english, unnamed] {
            #expect(answer.headers.contains("Vary: Accept-Encoding, Accept-Language"))
        }
        let tag = { (answer: StaticSite.Response) in answer.headers.first { $0.hasPrefix("ETag: ") } }
        #expect(tag(german) != tag(english) && tag(english) == tag(unnamed))
        let german304 = Self.get(
            site, [("Accept-Language", "de"), ("If-None-Match", String(tag(german)!.dropFirst(6)))])
        #expect(german304.status == 304)
        let englishWithGermanTag = Self.get(site, [("If-None-Match", String(tag(german)!.dropFirst(6)))])
        #expect(englishWithGermanTag.status == 200)
        #expect(!String(decoding: english.body, as: UTF8.self).contains("help.mjs"), "a dynamic import is no preload")
    }

    @Test(
        "without language modules the page has one variant; without module scripts or </head> it is served as written")
    func oneVariant() throws {
        var files = Self.files
        files["js/lang-en.mjs"] = nil
        files["js/lang-de.mjs"] = nil
        files["plain.html"] = Array("<head></head><p>no modules</p>".utf8)
        files["headless.html"] = Array("<script type=\"module\" src=\"js/main.mjs\"></script>".utf8)
        let site = StaticSite(files: files)
        let answer = Self.get(site, [("Accept-Language", "de"), ("Accept-Encoding", "gzip")])
        #expect(Self.preloads(answer.body) == ["js/a.mjs", "js/b.mjs"])
        #expect(answer.headers.contains("Vary: Accept-Encoding"))
        #expect(site.pages["index.html"]?.languages.isEmpty == true)
        #expect(site.files["plain.html"]?.identity.body == files["plain.html"])
        #expect(site.files["headless.html"]?.identity.body == files["headless.html"])
        #expect(site.pages["plain.html"] == nil && site.pages["headless.html"] == nil)
    }
}
