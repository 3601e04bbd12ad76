import Glibc
import Testing
import WebSocketWire

@testable import WebAssets

/// The checkout's web client as the server serves it (issue 30, item 7): everything its first
/// render needs, gzipped, within 70,000 bytes in each language.
@Suite("The web client's first render: preloads and the gzipped budget")
struct WebClientBudgetTests {
    /// What the first render may weigh, gzipped, in bytes.
    static let budget = 70_000

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

    /// The files a page's first render fetches: the page, what its head links (style sheet,
    /// icon), its module scripts, and what it preloads.
    static func firstRender(page: [UInt8]) -> [String] {
        let text = String(decoding: page, as: UTF8.self)
        let linked = text.matches(of: #/<link rel="(?:stylesheet|icon|modulepreload)" href="(?<href>[^"]*)"/#)
            .compactMap { ModuleGraph.resolve(String($0.output.href), from: "index.html") }
        return ["index.html"] + PagePreloads.moduleScripts(in: page, named: "index.html") + linked
    }

    @Test("the page preloads its whole static graph and one language; first render ≤ 70,000 bytes gzipped")
    func budget() throws {
        let files = try Self.webClientFiles()
        let site = StaticSite(files: files)
        let page = try #require(site.pages["index.html"])
        #expect(Set(page.languageModules.keys) == ["en", "de"])
        #expect(page.preloads.count >= 10 && !page.preloads.contains("js/main.mjs"))
        // Closed under static imports: every module a preloaded one imports is preloaded.
        for module in ["js/main.mjs"] + page.preloads {
            for specifier in ModuleGraph.staticImports(in: String(decoding: files[module] ?? [], as: UTF8.self)) {
                let imported = try #require(ModuleGraph.resolve(specifier, from: module), "\(module): \(specifier)")
                #expect(page.preloads.contains(imported), "\(module) imports \(imported), not preloaded")
            }
        }
        for language in ["en", "de"] {
            let variant = try #require(page.languages[language])
            let gzippedPage = try #require(variant.gzip?.body)
            let served = try #require(inflateGzip(gzippedPage))
            let names = Self.firstRender(page: served)
            #expect(names.contains("app.css") && names.contains("js/main.mjs"))
            #expect(names.contains("js/lang-\(language).mjs") && names.count == Set(names).count)
            var gzipped = gzippedPage.count
            var raw = variant.identity.body.count
            for name in names.dropFirst() {
                let file = try #require(site.files[name], "\(name) is linked but not served")
                gzipped += (file.gzip ?? file.identity).body.count
                raw += file.identity.body.count
            }
            print("first render, \(language): \(names.count) files, \(raw) bytes as written, \(gzipped) gzipped")
            #expect(gzipped <= Self.budget, "the first render in \(language) weighs \(gzipped) bytes gzipped")
        }
        print("all \(site.files.count) files: \(site.byteCount) bytes as written, \(site.gzippedByteCount) gzipped")
    }
}
