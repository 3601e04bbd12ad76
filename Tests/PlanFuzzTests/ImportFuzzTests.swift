import PlanFuzz
import SystemSupport
import Testing

/// The import path under mutated real files (MS Project's, GanttProject's): every case is refused
/// with a message or gives a plan whose own MS Project export imports again to the same plan.
@Suite("Fuzz: the import path")
struct ImportFuzzTests {
    static let files = String(#filePath[..<#filePath.lastIndex(of: "/")!]) + "/../PlanInterchangeTests/Files/"

    static func read(_ path: String) -> [UInt8] {
        (try? Files.read(path)) ?? []
    }

    static let corpus = [
        "mpxj/mspdirelations.xml", "mpxj/mspdinulltasks.xml", "mpxj/sample.xml",
        "mpxj/calendar-recurring-exceptions-project2016-mspdi.xml", "mpxj/task-dates-project2019-mspdi.xml",
        "ganttproject/HouseBuildingSample.gan", "ganttproject/holidays.xml",
    ].map { read(files + $0) }

    @Test("the corpus itself imports and survives its own export")
    func corpusHolds() {
        #expect(Self.corpus.allSatisfy { !$0.isEmpty })
        for (index, file) in Self.corpus.enumerated() {
            #expect(ImportFuzzRunner.check(file) == nil, "corpus file \(index)")
        }
    }

    @Test("600 mutated files: refused with a message or imported and exported again intact")
    func mutatedFiles() {
        let seed: UInt64 = 0x1D9_7A11
        let findings = ImportFuzzRunner.run(corpus: Self.corpus, seed: seed, cases: 0..<600)
        #expect(findings.isEmpty, "\(findings.prefix(5).map { "case \($0.index): \($0.reason)" })")
    }
}
