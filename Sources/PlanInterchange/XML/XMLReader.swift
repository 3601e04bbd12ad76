import CExpat

/// Reads XML with Expat, refusing what a plan file never needs and an attacker always does: any
/// DOCTYPE (so no DTD, no entity declaration, no external entity — nothing is ever expanded or
/// fetched), nesting beyond `maxDepth` levels, and anything that is not well-formed (a truncated
/// file).
///
/// Expat was chosen over libxml2 (both are in Debian): it is a small streaming parser whose
/// handlers let the reader stop at the first DOCTYPE token, before any declaration is read,
/// and it has no network code at all. The five predefined entities and character references
/// (`&amp;`, `&#160;`) are decoded, as XML requires.
///
/// A document is fed in chunks (`feed`), so a file is never held whole. What is kept is decided
/// when the root opens (`XMLSelection`): elements not named are checked and dropped, and
/// *records* (a row of a table two levels below the root, such as MS Project's `Tasks/Task`) are
/// handed over as each closes and are not kept in the tree. An importer then holds its own
/// compact rows, not the document.
public final class XMLReader {
    /// The deepest nesting accepted (MSPDI needs 5 levels, .gan a level per outline level).
    public static let maxDepth = 256

    private let parser: XML_Parser
    private let builder: XMLTreeBuilder
    private var finished = false

    /// A reader whose selection is decided by `select` from the root's local name, and which
    /// hands each record to `record` as it closes (an error thrown there stops the reading and
    /// is rethrown by `feed`).
    /// - Throws: `XMLReadError` when Expat cannot be set up.
    public init(
        select: @escaping (String) -> XMLSelection = { _ in XMLSelection() },
        record: @escaping (XMLElement) throws -> Void = { _ in }
    ) throws(XMLReadError) {
        guard let parser = XML_ParserCreateNS(nil, XMLReader.namespaceSeparator) else {
            throw XMLReadError(message: "the XML parser could not be created", line: 0)
        }
        self.parser = parser
        builder = XMLTreeBuilder(parser: parser, select: select, record: record)
        builder.install()
    }

    deinit { XML_ParserFree(parser) }

    /// Parses the next chunk of the document; `isFinal` for the last one (it may be empty).
    /// - Throws: `XMLReadError` naming the problem and its line, or the error a record handler
    ///   threw.
    public func feed(_ chunk: UnsafeRawBufferPointer, isFinal: Bool) throws {
        guard !finished else { return }
        finished = isFinal
        let base = chunk.baseAddress?.assumingMemoryBound(to: CChar.self)
        let status = XML_Parse(parser, base, Int32(chunk.count), isFinal ? 1 : 0)
        if let failure = builder.failure { throw failure }
        guard status == XML_STATUS_OK else {
            let reason = XML_ErrorString(XML_GetErrorCode(parser)).map { String(cString: $0) } ?? "unknown error"
            throw XMLReadError(
                message: "the file is not well-formed XML (\(reason))", line: Int(XML_GetCurrentLineNumber(parser)))
        }
    }

    /// The root element with what was kept of it (records left out), once the final chunk is fed.
    /// - Throws: `XMLReadError` when the document held no element or was not fed to its end.
    public func root() throws(XMLReadError) -> XMLElement {
        guard finished else { throw XMLReadError(message: "the file ended before its XML was read", line: 0) }
        guard let root = builder.root else { throw XMLReadError(message: "the file holds no XML element", line: 1) }
        return root
    }

    /// Parses a whole document held in memory (`bytes`: UTF-8, UTF-16 or ISO-8859-1, as the XML
    /// declaration says; Expat decodes). `keeping`, given the root's local name, names the
    /// elements worth keeping (nil: all).
    /// - Throws: `XMLReadError` naming the problem and its line.
    public static func parse(
        _ bytes: [UInt8], keeping: @escaping (String) -> Set<String>? = { _ in nil }
    ) throws(XMLReadError) -> XMLElement {
        let reader = try XMLReader(select: { XMLSelection(kept: keeping($0)) })
        do {
            try bytes.withUnsafeBytes { try reader.feed($0, isFinal: true) }
        } catch let error as XMLReadError {
            throw error
        } catch {
            throw XMLReadError(message: "\(error)", line: 0)
        }
        return try reader.root()
    }

    /// Expat joins a namespace URI and a local name with this character (`uri\u{1}name`).
    static let namespaceSeparator: XML_Char = 1

    /// Splits Expat's `uri\u{1}name` into the namespace and the local name.
    static func split(_ qualified: UnsafePointer<XML_Char>) -> (namespace: String, name: String) {
        let text = String(cString: qualified)
        guard let separator = text.firstIndex(of: "\u{1}") else { return ("", text) }
        return (String(text[..<separator]), String(text[text.index(after: separator)...]))
    }
}

/// What a reader keeps of a document, chosen when its root opens.
public struct XMLSelection: Sendable {
    /// The element names kept (nil: all); the others are checked and dropped with their insides.
    public var kept: Set<String>?
    /// The names of elements two levels below the root that are handed over as each closes and
    /// left out of the tree.
    public var records: Set<String>

    /// A selection.
    public init(kept: Set<String>? = nil, records: Set<String> = []) {
        self.kept = kept
        self.records = records
    }
}

/// What went wrong reading XML, with the line (0 when not known).
public struct XMLReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in words ("not well-formed XML", "DOCTYPE", "entity").
    public let message: String
    /// The line the problem is on.
    public let line: Int

    /// `message (line N)`.
    public var description: String { line > 0 ? "\(message) (line \(line))" : message }
}
