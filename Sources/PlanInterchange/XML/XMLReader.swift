import CExpat

/// Reads a whole XML document into `XMLElement`s with Expat, refusing what a plan file never
/// needs and an attacker always does: any DOCTYPE (so no DTD, no entity declaration, no
/// external entity — nothing is ever expanded or fetched), processing beyond `maxDepth`
/// levels, and anything that is not well-formed (a truncated file).
///
/// Expat was chosen over libxml2 (both are in Debian): it is a small streaming parser whose
/// handlers let the reader stop at the first DOCTYPE token, before any declaration is read,
/// and it has no network code at all. The five predefined entities and character references
/// (`&amp;`, `&#160;`) are decoded, as XML requires.
public enum XMLReader {
    /// The deepest nesting accepted (MSPDI needs 5 levels, .gan a level per outline level).
    public static let maxDepth = 256

    /// Parses `bytes` (UTF-8, UTF-16 or ISO-8859-1, as the XML declaration says; Expat decodes).
    /// - Throws: `XMLReadError` naming the problem and its line.
    public static func parse(_ bytes: [UInt8]) throws(XMLReadError) -> XMLElement {
        guard let parser = XML_ParserCreateNS(nil, namespaceSeparator) else {
            throw XMLReadError(message: "the XML parser could not be created", line: 0)
        }
        defer { XML_ParserFree(parser) }
        let builder = TreeBuilder(parser: parser)
        let context = Unmanaged.passUnretained(builder).toOpaque()
        XML_SetUserData(parser, context)
        XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        XML_SetElementHandler(parser, startElement, endElement)
        XML_SetCharacterDataHandler(parser, characterData)
        XML_SetStartDoctypeDeclHandler(parser, doctype)
        XML_SetEntityDeclHandler(parser, entityDeclaration)
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buffer.count, 1)) {
                XML_Parse(parser, $0, Int32(buffer.count), 1)
            }
        }
        if let refusal = builder.refusal { throw refusal }
        guard status == XML_STATUS_OK else {
            let reason = XML_ErrorString(XML_GetErrorCode(parser)).map { String(cString: $0) } ?? "unknown error"
            throw XMLReadError(
                message: "the file is not well-formed XML (\(reason))", line: Int(XML_GetCurrentLineNumber(parser)))
        }
        guard let root = builder.root else { throw XMLReadError(message: "the file holds no XML element", line: 1) }
        return root
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

/// What went wrong reading XML, with the line (0 when not known).
public struct XMLReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in words ("not well-formed XML", "DOCTYPE", "entity").
    public let message: String
    /// The line the problem is on.
    public let line: Int

    /// `message (line N)`.
    public var description: String { line > 0 ? "\(message) (line \(line))" : message }
}

/// The elements open so far, and the root once closed; a refusal stops the parser.
private final class TreeBuilder {
    let parser: XML_Parser
    var open: [XMLElement] = []
    var root: XMLElement?
    var refusal: XMLReadError?

    init(parser: XML_Parser) {
        self.parser = parser
    }

    func refuse(_ message: String) {
        guard refusal == nil else { return }
        refusal = XMLReadError(message: message, line: Int(XML_GetCurrentLineNumber(parser)))
        XML_StopParser(parser, 0)
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> TreeBuilder {
        Unmanaged<TreeBuilder>.fromOpaque(context!).takeUnretainedValue()
    }
}

private func startElement(
    _ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<XML_Char>?,
    _ attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?
) {
    let builder = TreeBuilder.from(context)
    guard builder.refusal == nil, let name else { return }
    guard builder.open.count < XMLReader.maxDepth else {
        return builder.refuse("the XML nests deeper than \(XMLReader.maxDepth) levels")
    }
    let (namespace, local) = XMLReader.split(name)
    var element = XMLElement(name: local, namespace: namespace, line: Int(XML_GetCurrentLineNumber(builder.parser)))
    var index = 0
    while let attributes, let key = attributes[index], let value = attributes[index + 1] {
        element.attributes[XMLReader.split(key).name] = String(cString: value)
        index += 2
    }
    builder.open.append(element)
}

private func endElement(_ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<XML_Char>?) {
    let builder = TreeBuilder.from(context)
    guard builder.refusal == nil, let element = builder.open.popLast() else { return }
    if builder.open.isEmpty {
        builder.root = element
    } else {
        builder.open[builder.open.count - 1].children.append(element)
    }
}

private func characterData(_ context: UnsafeMutableRawPointer?, _ text: UnsafePointer<XML_Char>?, _ length: Int32) {
    let builder = TreeBuilder.from(context)
    guard builder.refusal == nil, let text, !builder.open.isEmpty else { return }
    let bytes = UnsafeRawBufferPointer(start: text, count: Int(length))
    builder.open[builder.open.count - 1].text += String(decoding: bytes, as: UTF8.self)
}

private func doctype(
    _ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<XML_Char>?, _ systemID: UnsafePointer<XML_Char>?,
    _ publicID: UnsafePointer<XML_Char>?, _ hasInternalSubset: Int32
) {
    TreeBuilder.from(context).refuse(
        "the file has a DOCTYPE (a DTD), which plan files never need; it is refused so that no entity is expanded or fetched"
    )
}

private func entityDeclaration(
    _ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<XML_Char>?, _ isParameter: Int32,
    _ value: UnsafePointer<XML_Char>?, _ length: Int32, _ base: UnsafePointer<XML_Char>?,
    _ systemID: UnsafePointer<XML_Char>?, _ publicID: UnsafePointer<XML_Char>?,
    _ notation: UnsafePointer<XML_Char>?
) {
    TreeBuilder.from(context).refuse("the file declares an entity, which is refused: no entity is ever expanded")
}
