import Testing

@testable import WebAssets

@Suite("Page preloads: module scripts, language modules, the links put in the head")
struct PagePreloadsTests {
    static let page = """
        <!doctype html>
        <html lang="en">
        <head>
          <meta charset="utf-8">
          <!-- <script type="module" src="js/commented.mjs"></script> -->
          <link rel="stylesheet" href="app.css">
          <script type="module" src="js/main.mjs"></script>
          <SCRIPT TYPE='Module' SRC=./js/second.mjs?v=1></SCRIPT>
          <script src="js/classic.js"></script>
          <script type="module">inline();</script>
          <script type="module" src="https://cdn.example/x.mjs"></script>
          <script type="text/plain" src="js/not.mjs"></script>
        </head>
        <body><header>h</header></body>
        </html>

        """

    @Test("the module scripts are those with a type of module and a same-site src, outside comments")
    func moduleScripts() {
        #expect(
            PagePreloads.moduleScripts(in: Array(Self.page.utf8), named: "index.html") == [
                "js/main.mjs", "js/second.mjs",
            ])
        #expect(
            PagePreloads.moduleScripts(in: Array(Self.page.utf8), named: "app/index.html").first == "app/js/main.mjs")
        #expect(PagePreloads.moduleScripts(in: Array("<p>no scripts</p>".utf8), named: "a.html").isEmpty)
        #expect(PagePreloads.moduleScripts(in: [0xFF, 0xFE, 0x3C], named: "a.html").isEmpty, "bytes that are no UTF-8")
    }

    @Test("the links go on lines of their own before </head>, the rest of the page byte for byte as it was")
    func injects() throws {
        let body = Array(Self.page.utf8)
        let served = try #require(PagePreloads.injecting(["js/a.mjs", "js/b c.mjs"], into: body, named: "index.html"))
        let text = String(decoding: served, as: UTF8.self)
        let links = """
              <link rel="modulepreload" href="js/a.mjs">
              <link rel="modulepreload" href="js/b%20c.mjs">
            </head>
            """
        #expect(text.contains("<script type=\"text/plain\" src=\"js/not.mjs\"></script>\n" + links))
        #expect(text.replacing(links, with: "</head>") == Self.page)
        #expect(PagePreloads.injecting([], into: body, named: "index.html") == body)
    }

    @Test("</head> is found in any case and after other text on its line; a page without one is left alone")
    func headEdges() throws {
        let inline = try #require(
            PagePreloads.injecting(["a.mjs"], into: Array("<head><title>t</title></HEAD ><body>".utf8), named: "p.html")
        )
        #expect(
            String(decoding: inline, as: UTF8.self)
                == "<head><title>t</title>\n  <link rel=\"modulepreload\" href=\"a.mjs\">\n</HEAD ><body>")
        #expect(PagePreloads.injecting(["a.mjs"], into: Array("<header></header>".utf8), named: "p.html") == nil)
        #expect(PagePreloads.injecting(["a.mjs"], into: Array("</head".utf8), named: "p.html") == nil)
        #expect(PagePreloads.injecting(["a.mjs"], into: [], named: "p.html") == nil)
    }

    @Test("language modules: lang-XX.mjs beside the page's modules, by language; none elsewhere or named otherwise")
    func languageModules() {
        let names = [
            "js/main.mjs", "js/lang-en.mjs", "js/lang-de.mjs", "js/lang-fil.mjs", "js/lang-EN.mjs", "js/lang-en-GB.mjs",
            "js/lang-english.mjs", "other/lang-fr.mjs", "lang-it.mjs", "js/lang-de.js",
        ]
        #expect(
            PagePreloads.languageModules(beside: ["js/main.mjs"], among: names) == [
                "en": "js/lang-en.mjs", "de": "js/lang-de.mjs", "fil": "js/lang-fil.mjs",
            ])
        #expect(PagePreloads.languageModules(beside: ["main.mjs"], among: names) == ["it": "lang-it.mjs"])
        #expect(PagePreloads.languageModules(beside: [], among: names).isEmpty)
    }
}
