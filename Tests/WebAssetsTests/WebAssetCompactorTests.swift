import Glibc
import Testing
import WebSocketWire

@testable import WebAssets

/// The web client's files as the server sends them (issue 16, page weight): comments, blank lines
/// and indentation gone, every string, template literal and regular expression as written, every
/// line break between code lines kept, and a file it cannot classify left as it is.
@Suite("Web assets: compacted without touching strings, templates or regular expressions")
struct WebAssetCompactorTests {
    static func js(_ text: String) -> String? {
        WebAssetCompactor.javaScript(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    static func css(_ text: String) -> String? {
        WebAssetCompactor.css(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("comments, blank lines and indentation go; the line breaks between code lines stay")
    func removesWhatOnlyAReaderNeeds() {
        let source = """
            // The module.
            /**
             * A documented export.
             */
            export function f(a, b) {

              const c = a + b; // trailing comment
              return c /* inline */ * 2;
            }
            let x = 1
            let y = x

            """
        #expect(
            Self.js(source) == "export function f(a, b) {\nconst c = a + b;\nreturn c   * 2;\n}\nlet x = 1\nlet y = x\n"
        )
    }

    @Test(
        "strings, template literals and regular expressions are kept byte for byte",
        arguments: [
            "const s = '//not a comment';", "const s = \"/* not a comment */\";", "const s = '*/';",
            "const s = \"it's // \\\" still\";", "const u = `${scheme}//${host}/ws`;",
            "const t = `a ${b ? `in ${c} // x` : '/*'} // z`;", "const r = /\\/\\//g;", "const r = /[/]\\/*/;",
            "if (/'/.test(s)) f();", "const q = a / b / c;", "const q = (a + b) / 2 / (c);", "x = y[1] / 2 // half",
            "return /^(\\d{4})-(\\d{2})$/.exec(s);", "const k = typeof /x/;", "a = b\n/ c / d;",
            "const o = { a: 1 }; const p = o.a / 2;", "const h = 1 /2/ 3;", "f(a) /* c */ / 2;",
        ])
    func keepsLiterals(source: String) {
        let expected = source.replacing(" // half", with: "")
            .replacing("/* c */", with: " ")
        #expect(Self.js(source + "\n") == expected + "\n")
    }

    @Test("a comment after a string or a regular expression is removed, the literal is not")
    func commentsAfterLiterals() {
        #expect(Self.js("const a = '//'; // gone\n") == "const a = '//';\n")
        #expect(Self.js("const r = /a\\/b/g; // gone\n") == "const r = /a\\/b/g;\n")
        #expect(Self.js("const t = `//${x}`; /* gone */\n") == "const t = `//${x}`;\n")
        #expect(Self.js("x = 1 /* a\n b */ y = 2\n") == "x = 1\ny = 2\n")
    }

    @Test(
        "what it cannot classify is left alone",
        arguments: [
            "const t = `line one\nline two`;", "const s = 'a\\\nb';", "const r = /a\nb/;", "x = '\r\n';",
            "if (a) { b() }\n/re/.test(c) / 2;", "i++ / 2 / 3;", "let \\u0061 = 1;", "f(;", "f());", "{ [ }",
            "/* never closed", "const s = 'never closed;", "x = `${a`;", "x = 1\n--> a /* b\ny(); // */",
            "x = a <!-- b",
        ])
    func leavesAlone(source: String) {
        #expect(Self.js(source) == nil)
        let bytes = Array(source.utf8)
        #expect(WebAssetCompactor.compacted(name: "js/a.mjs", body: bytes) == bytes)
    }

    @Test("after `}` or `++` a `/` with no other `/` on its line is division")
    func ambiguousSlashes() {
        #expect(Self.js("function f() { return i++ / 2 }\n") == "function f() { return i++ / 2 }\n")
        #expect(Self.js("  x = {}.a / 2; // half\n") == "x = {}.a / 2;\n")
        #expect(Self.js("const n = {}\n  / 2;\n") == "const n = {}\n/ 2;\n")
    }

    @Test("the last line keeps or lacks its line break as in the file")
    func lastLine() {
        #expect(Self.js("export const x = 1;") == "export const x = 1;")
        #expect(Self.js("  export const x = 1;  \n\n") == "export const x = 1;\n")
        #expect(Self.js("// only a comment\n") == "")
    }

    @Test("CSS: comments, blank lines and indentation go; strings and url() stay")
    func css() {
        let source = """
            /* Colours. */
            :root {
              --a: #fff; /* white */
              --font: 13px 'a /* b */ c';
            }

            .x { background: url(data:x/*y*/z); content: "*/"; }

            """
        #expect(
            Self.css(source)
                == ":root {\n--a: #fff;\n--font: 13px 'a /* b */ c';\n}\n.x { background: url(data:x/*y*/z); content: \"*/\"; }\n"
        )
        #expect(Self.css(".a/**/.b { }") == nil)  // the comment keeps two selectors apart
        #expect(Self.css(".a { content: 'x\\\ny'; }") == nil)
        #expect(Self.css("/* open") == nil)
    }

    @Test("HTML: indentation and blank lines go, unless something keeps its whitespace")
    func html() {
        let page =
            "<!doctype html>\n<html>\n  <head>\n    <script type=\"module\" src=\"a.mjs\"></script>\n\n  </head>\n</html>\n"
        let compacted = WebAssetCompactor.compacted(name: "index.html", body: Array(page.utf8))
        #expect(
            String(decoding: compacted, as: UTF8.self)
                == "<!doctype html>\n<html>\n<head>\n<script type=\"module\" src=\"a.mjs\"></script>\n</head>\n</html>\n"
        )
        for kept in [
            "<pre>\n  a\n</pre>\n", "<p>\n  <TEXTAREA>\n  x</TEXTAREA>\n", "<script>\n  x()\n</script>\n",
            "<!-- a -->\n  <p>\n", "<style>\n  p {}\n</style>\n",
        ] {
            #expect(WebAssetCompactor.html(Array(kept.utf8)) == nil, "\(kept)")
        }
    }

    @Test("other files are served as they are")
    func otherFiles() {
        let svg = Array("<svg>\n  <!-- c -->\n</svg>\n".utf8)
        #expect(WebAssetCompactor.compacted(name: "favicon.svg", body: svg) == svg)
        let json = Array("{\n  \"a\": \"//\"\n}\n".utf8)
        #expect(WebAssetCompactor.compacted(name: "a.json", body: json) == json)
    }

    /// The checkout's web client: `clients/web` and its `js`, each file's bytes by name.
    static func webClientFiles() throws -> [String: [UInt8]] {
        var root = #filePath
        for _ in 0..<3 { root = String(root[..<root.lastIndex(of: "/")!]) }
        var files: [String: [UInt8]] = [:]
        for directory in ["", "js/"] {
            let handle = try #require(opendir(root + "/clients/web/" + directory))
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                }
                guard entry.pointee.d_type == UInt8(DT_REG) else { continue }
                let file = try #require(fopen(root + "/clients/web/" + directory + name, "rb"))
                defer { fclose(file) }
                var bytes: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 65536)
                while case let count = fread(&buffer, 1, buffer.count, file), count > 0 {
                    bytes += buffer[0..<count]
                }
                files[directory + name] = bytes
            }
        }
        return files
    }

    @Test(
        "every script, style and page of the web client is compacted (none falls back), under 150 KB in either language"
    )
    func webClient() throws {
        let files = try Self.webClientFiles()
        #expect(files["js/main.mjs"] != nil && files["index.html"] != nil && files["app.css"] != nil)
        // A page fetches one language's module: each language's page counts its own.
        var served = ["en": 0, "de": 0]
        for (name, body) in files.sorted(by: { $0.key < $1.key }) {
            let compacted = WebAssetCompactor.compacted(name: name, body: body)
            if name.hasSuffix(".mjs") || name.hasSuffix(".css") || name.hasSuffix(".html") {
                #expect(compacted.count < body.count, "\(name) is served as it is: the compactor cannot classify it")
            }
            for language in served.keys {
                let other = language == "en" ? "js/lang-de.mjs" : "js/lang-en.mjs"
                if name != other { served[language]! += compacted.count }
            }
        }
        for (language, bytes) in served {
            #expect(bytes < 150_000, "the web client's files would weigh \(bytes) bytes in \(language)")
        }
    }

    /// A random statement as written (code only) and a comment to put after it, built from parts
    /// that look like comments or other literals from inside strings, templates and regular
    /// expressions.
    static func randomLine(_ random: inout SplitMix) -> (code: String, comment: String) {
        func pick(_ parts: [String], _ count: Int) -> String {
            (0..<count).map { _ in parts[random.below(parts.count)] }.joined()
        }
        let tricky = ["/", "*", "//", "/*", "*/", "a", " ", "${", "\\\\", "x y"]
        let code: String
        switch random.below(7) {
        case 0: code = "x = '" + pick(tricky + ["\\'", "\""], random.below(6)) + "';"
        case 1: code = "x = \"" + pick(tricky + ["\\\"", "'"], random.below(6)) + "\";"
        case 2:
            code =
                "x = `" + pick(tricky.filter { $0 != "${" } + ["\\`", "${a / b}", "${'//'}"], random.below(6)) + "`;"
        case 3: code = "x = /a" + pick(["\\/", "[/]", "[*/]", "a", "\\*", "'", "\""], random.below(5)) + "/g.test(y);"
        case 4: code = "x = a / b / " + pick(["c", "(d)", "e[1]"], 1) + ";"
        case 5: code = "if (a) x = /" + pick(["'", "\\/\\/", "b"], 1 + random.below(3)) + "/.exec(y);"
        default: code = "f(a) / 2 + g(b) / 3;"
        }
        return (code, pick(["a", " ", "'", "\"", "`", "/", "*", "/*", "*/", "//"], random.below(8)))
    }

    @Test("random files of tricky lines: the output is exactly their code, line by line (1,000 seeds)")
    func randomFiles() {
        for seed in 0..<1000 {
            var random = SplitMix(seed: UInt64(seed))
            var source = ""
            var expected = ""
            for _ in 0..<(1 + random.below(12)) {
                let (code, comment) = Self.randomLine(&random)
                let indent = String(repeating: " ", count: random.below(5))
                switch random.below(4) {
                case 0: source += indent + code + " // " + comment + "\n"
                case 1: source += indent + "/* " + comment.replacing("*", with: "+") + " */ " + code + "\n"
                case 2: source += indent + code + "\n\n" + indent + "// " + comment + "\n"
                default: source += indent + code + "  \n"
                }
                expected += code + "\n"
            }
            #expect(Self.js(source) == expected, "seed \(seed):\n\(source)")
        }
    }
}

/// A small seeded random number generator (SplitMix64), so a failing case can be run again.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
