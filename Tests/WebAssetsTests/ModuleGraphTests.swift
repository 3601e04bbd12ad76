import Testing

@testable import WebAssets

@Suite("Module graph: static imports, resolution, reachability, preload hrefs")
struct ModuleGraphTests {
    @Test("every form of static import and re-export is found, in order; dynamic imports and other text are not")
    func staticImports() {
        let source = """
            // A module. import { no } from './comment.mjs';
            /* import { no } from './block.mjs'; */
            import { a, b as c } from './a.mjs';
            import d from "../d.mjs";
            import e, { f } from './e.mjs';
            import * as g from './g.mjs';
            import h, * as i from './h.mjs';
            import './side-effect.mjs';
            import {
              j,
              k,
            } from './multi-line.mjs';
            import{l}from'./tight.mjs'
              import { m } from '/absolute.mjs';
            export { n } from './n.mjs';
            export * from './star.mjs';
            export * as o from './star-as.mjs';
            export const p = './not-an-import.mjs';
            export { q };
            import { r } from 'bare-package';
            import { s } from 'https://example.com/s.mjs';
            const t = await import('./dynamic.mjs');
            const u = () => import(`./lang-${language}.mjs`);
            const important = './not.mjs';
            console.log("import { v } from './string.mjs'");
            x = import.meta.url;
            """
        #expect(
            ModuleGraph.staticImports(in: source) == [
                "./a.mjs", "../d.mjs", "./e.mjs", "./g.mjs", "./h.mjs", "./side-effect.mjs", "./multi-line.mjs",
                "./tight.mjs", "/absolute.mjs", "./n.mjs", "./star.mjs", "./star-as.mjs",
            ])
    }

    @Test(
        "a reference resolves against its base's directory; a scheme, a host, a climb above the root or a refused name is nil",
        arguments: [
            ("./b.mjs", "js/a.mjs", "js/b.mjs"), ("../b.mjs", "js/a.mjs", "b.mjs"), ("b.mjs", "js/a.mjs", "js/b.mjs"),
            ("./deep/./c.mjs", "js/a.mjs", "js/deep/c.mjs"), ("/x/y.mjs", "js/a.mjs", "x/y.mjs"),
            ("js/main.mjs", "index.html", "js/main.mjs"), ("./js/main.mjs?v=2#top", "index.html", "js/main.mjs"),
            ("a%20b.mjs", "index.html", "a b.mjs"), ("../x.mjs", "a/b/page.html", "a/x.mjs"),
            ("../b.mjs", "a.mjs", nil), ("./../../b.mjs", "js/a.mjs", nil), ("https://x/a.mjs", "index.html", nil),
            ("//x/a.mjs", "index.html", nil), ("data:text/javascript,1", "index.html", nil), ("", "index.html", nil),
            ("./.hidden.mjs", "js/a.mjs", nil), ("./%2e%2e/b.mjs", "js/a.mjs", nil), ("./a//b.mjs", "js/a.mjs", nil),
            ("./", "js/a.mjs", "js/index.html"),
        ] as [(String, String, String?)])
    func resolves(reference: String, base: String, expected: String?) {
        #expect(ModuleGraph.resolve(reference, from: base) == expected, "\(reference) from \(base)")
    }

    @Test("reachable: breadth first from the entries, each module once, cycles and missing files no trouble")
    func reachable() {
        let files: [String: [UInt8]] = [
            "js/main.mjs": Array("import { a } from './a.mjs';\nimport { b } from './b.mjs';\n".utf8),
            "js/a.mjs": Array("import { c } from './lib/c.mjs';\nimport { main } from './main.mjs';\n".utf8),
            "js/b.mjs": Array("export * from './lib/c.mjs';\nimport './missing.mjs';\n".utf8),
            "js/lib/c.mjs": Array("import { d } from '../../d.mjs';\nconst l = import('../late.mjs');\n".utf8),
            "d.mjs": Array("import { a } from './js/a.mjs';\n".utf8),
            "js/late.mjs": Array("export const late = 1;\n".utf8),
            "js/unused.mjs": Array("export {};\n".utf8),
        ]
        #expect(
            ModuleGraph.reachable(from: ["js/main.mjs"], files: files) == [
                "js/main.mjs", "js/a.mjs", "js/b.mjs", "js/lib/c.mjs", "d.mjs",
            ])
        #expect(ModuleGraph.reachable(from: ["nope.mjs"], files: files).isEmpty)
        #expect(ModuleGraph.reachable(from: ["d.mjs", "d.mjs"], files: files).first == "d.mjs")
    }

    @Test(
        "an href is relative to the page's directory and percent-encodes all but unreserved bytes and /",
        arguments: [
            ("js/a.mjs", "index.html", "js/a.mjs"), ("js/a.mjs", "js/page.html", "a.mjs"),
            ("js/a.mjs", "app/page.html", "../js/a.mjs"), ("a.mjs", "x/y/page.html", "../../a.mjs"),
            ("x/y/a.mjs", "x/page.html", "y/a.mjs"), ("js/a b\"<&>.mjs", "index.html", "js/a%20b%22%3C%26%3E.mjs"),
            ("js/€.mjs", "index.html", "js/%E2%82%AC.mjs"),
        ])
    func href(file: String, page: String, expected: String) {
        #expect(ModuleGraph.href(to: file, from: page) == expected)
        #expect(ModuleGraph.resolve(expected, from: page) == file, "the href names the file again")
    }
}
