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
        guard bytes.count <= maxBytes else {
            throw ImportError(
                "the file is larger than \(maxBytes >> 20) MiB, more than any plan within the limits needs (tooLarge)")
        }
        let content = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let first = content.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if format == .json || (format == nil && first == UInt8(ascii: "{")) {
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
        let root: XMLElement
        do {
            // MS Project's root keeps only what its importer reads (a .gan file is kept whole).
            root = try XMLReader.parse(bytes) { rootName in
                rootName == "Project" && format != .gantt ? MSProjectImport.elementsRead : nil
            }
        } catch {
            throw ImportError("the file cannot be read as XML: \(error)")
        }
        let isMSProject = root.name == "Project" && root.namespace == MSProjectImport.namespace
        let isGantt = root.name == "project" && root.namespace.isEmpty
        switch format ?? (isMSProject ? .msproject : isGantt ? .gantt : nil) {
        case .msproject?:
            return try MSProjectImport.plan(from: root)
        case .gantt?:
            return try GanttProjectImport.plan(from: root)
        default:
            throw ImportError(
                "the XML is neither MS Project XML (<Project xmlns=\"\(MSProjectImport.namespace)\">) nor a GanttProject file (<project>): its root is <\(root.name)>"
            )
        }
    }
}
