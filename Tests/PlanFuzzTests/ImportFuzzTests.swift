import Glibc
import PlanFuzz
import Testing

/// The import path under mutated real files (MS Project's, GanttProject's): every case is refused
/// with a message or gives a plan whose own MS Project export imports again to the same plan.
@Suite("Fuzz: the import path")
struct ImportFuzzTests {
    static let files = String(#filePath[..<#filePath.lastIndex(of: "/")!]) + "/../PlanInterchangeTests/Files/"

    static func read(_ path: String) -> [UInt8] {
        guard let handle = fopen(path, "rb") else { return [] }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let count = fread(&chunk, 1, chunk.count, handle), count > 0 { bytes += chunk[0..<count] }
        return bytes
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
