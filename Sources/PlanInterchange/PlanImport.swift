import ChronoSketchCore

/// The formats a plan comes in as (interchange.md §1).
public enum InterchangeFormat: String, Sendable, CaseIterable {
    /// Our own export (`plan export`).
    case json
    /// MS Project XML (MSPDI).
    case msproject
    /// GanttProject's `.gan`.
    case gantt
}

/// Reading a plan file of any supported format, the format detected from the content (never
/// from the file name) unless named (interchange.md §0 A1, §1).
public enum PlanImport {
    /// The largest file read: 50,000 tasks of MS Project XML are about 25 MB.
    public static let maxBytes = 256 << 20

    /// Reads `bytes` as `format`, or as the format the content shows.
    /// - Throws: `ImportError` for content that is no supported format, is not the format named,
    ///   is not well-formed, declares a DTD or entity, or breaks a plan rule.
    public static func read(_ bytes: [UInt8], format: InterchangeFormat? = nil) throws(ImportError) -> ImportedPlan {
        var pending: [UInt8]? = bytes
        return try read(
            chunks: { () -> [UInt8]? in
                defer { pending = nil }
                return pending
            }, format: format)
    }

    /// Reads a file given in chunks by `next` (nil at its end) as `format`, or as the format the
    /// content shows. XML is parsed as it comes, and the rows of an MS Project file's tables are
    /// turned into compact rows as each closes, so that neither the file nor its document is
    /// ever held whole (our JSON, limited by the plan's own limits, is read whole).
    /// - Throws: `ImportError` as `read(_:format:)` does, or when `next` throws.
    public static func read(chunks next: @escaping () throws -> [UInt8]?, format: InterchangeFormat? = nil)
        throws(ImportError)
        -> ImportedPlan
    {
        var input = ImportInput(next: next)
        let first = try input.firstByte()
        if format == .json || (format == nil && first == UInt8(ascii: "{")) {
            let content = try input.rest()
            do {
                return ImportedPlan(document: try PlanDocument(json: try JSONValue(parsing: content)), warnings: [])
            } catch {
                throw ImportError("the file is not a plan in our JSON format: \(error)")
            }
        }
        guard first == UInt8(ascii: "<") else {
            throw ImportError(
                "the file is neither a plan in JSON nor XML (MS Project XML, GanttProject .gan): nothing was created")
        }
        return try readXML(&input, format: format)
    }

    private static func readXML(_ input: inout ImportInput, format: InterchangeFormat?) throws(ImportError)
        -> ImportedPlan
    {
        var records = MSProjectRecords()
        let root: XMLElement
        do {
            // MS Project's root keeps only what its importer reads, its tables as compact rows (a
            // .gan file is kept whole).
            let reader = try XMLReader(
                select: { rootName in
                    rootName == "Project" && format != .gantt ? MSProjectImport.selection : XMLSelection()
                },
                record: { records.add($0) })
            while let chunk = try input.next() {
                try chunk.withUnsafeBytes { try reader.feed($0, isFinal: false) }
            }
            try reader.feed(UnsafeRawBufferPointer(start: nil, count: 0), isFinal: true)
            root = try reader.root()
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportError("the file cannot be read as XML: \(error)")
        }
        let isMSProject = root.name == "Project" && root.namespace == MSProjectImport.namespace
        let isGantt = root.name == "project" && root.namespace.isEmpty
        switch format ?? (isMSProject ? .msproject : isGantt ? .gantt : nil) {
        case .msproject?:
            return try MSProjectImport.plan(from: root, records: records)
        case .gantt?:
            return try GanttProjectImport.plan(from: root)
        default:
            throw ImportError(
                "the XML is neither MS Project XML (<Project xmlns=\"\(MSProjectImport.namespace)\">) nor a GanttProject file (<project>): its root is <\(root.name)>"
            )
        }
    }
}

/// A file's chunks as the importer takes them: the size limit counted as they come, and the
/// first chunks held back until the first byte that is not a byte-order mark or a space shows
/// the format.
private struct ImportInput {
    let source: () throws -> [UInt8]?
    var held: [[UInt8]] = []
    var count = 0

    init(next: @escaping () throws -> [UInt8]?) {
        source = next
    }

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The next chunk, held ones first; nil at the end.
    mutating func next() throws(ImportError) -> [UInt8]? {
        held.isEmpty ? try pull() : held.removeFirst()
    }

    /// The next chunk from the source, counted against the limit.
    private mutating func pull() throws(ImportError) -> [UInt8]? {
        let chunk: [UInt8]?
        do {
            chunk = try source()
        } catch {
            throw ImportError("the file cannot be read: \(error)")
        }
        guard let chunk else { return nil }
        count += chunk.count
        guard count <= PlanImport.maxBytes else {
            throw ImportError(
                "the file is larger than \(PlanImport.maxBytes >> 20) MiB, more than any plan within the limits needs (tooLarge)"
            )
        }
        return chunk
    }

    /// The first byte after a UTF-8 byte-order mark that is not a space, tab or line break (nil
    /// for a file of spaces only); what was read to find it is held for `next`.
    mutating func firstByte() throws(ImportError) -> UInt8? {
        var position = 0
        var inMark = true  // whether the bytes so far begin a byte-order mark
        while let chunk = try pull() {
            held.append(chunk)
            for byte in chunk {
                defer { position += 1 }
                if position < 3, inMark {
                    if byte == Self.byteOrderMark[position] { continue }
                    if position > 0 { return Self.byteOrderMark[0] }
                    inMark = false
                }
                if ![0x20, 0x09, 0x0A, 0x0D].contains(byte) { return byte }
            }
        }
        return inMark && (1...2).contains(position) ? Self.byteOrderMark[0] : nil
    }

    /// Everything not yet taken, joined, without a leading byte-order mark.
    mutating func rest() throws(ImportError) -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = try next() { bytes += chunk }
        return bytes.starts(with: Self.byteOrderMark) ? Array(bytes.dropFirst(3)) : bytes
    }
}
