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
    /// `keeping`, given the root's local name, names the elements worth keeping (nil: all): the
    /// others are parsed (and checked) but not kept, with everything inside them, so that a large
    /// file costs memory for what an importer reads only.
    /// - Throws: `XMLReadError` naming the problem and its line.
    public static func parse(
        _ bytes: [UInt8], keeping: @escaping (String) -> Set<String>? = { _ in nil }
    ) throws(XMLReadError)
        -> XMLElement
    {
        guard let parser = XML_ParserCreateNS(nil, namespaceSeparator) else {
            throw XMLReadError(message: "the XML parser could not be created", line: 0)
        }
        defer { XML_ParserFree(parser) }
        let builder = TreeBuilder(parser: parser, keeping: keeping)
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
    /// Which elements to keep, decided by the root's name (nil: all).
    let keeping: (String) -> Set<String>?
    var kept: Set<String>?
    /// How deep the reader is inside an element that is not kept (0: not inside one).
    var skipping = 0
    /// The namespaces met so far: each element shares one copy (MSPDI names its long URI on all).
    var namespaces: [String] = []

    init(parser: XML_Parser, keeping: @escaping (String) -> Set<String>?) {
        self.parser = parser
        self.keeping = keeping
    }

    /// `namespace`, as the copy met before when there is one.
    func shared(_ namespace: String) -> String {
        if let known = namespaces.first(where: { $0 == namespace }) { return known }
        if namespaces.count < 16 { namespaces.append(namespace) }
        return namespace
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
    guard builder.open.count + builder.skipping < XMLReader.maxDepth else {
        return builder.refuse("the XML nests deeper than \(XMLReader.maxDepth) levels")
    }
    let (namespace, local) = XMLReader.split(name)
    if builder.open.isEmpty, builder.root == nil { builder.kept = builder.keeping(local) }
    if builder.skipping > 0 || builder.kept.map({ !$0.contains(local) }) == true {
        builder.skipping += 1
        return
    }
    var element = XMLElement(
        name: local, namespace: builder.shared(namespace), line: Int(XML_GetCurrentLineNumber(builder.parser)))
    var index = 0
    while let attributes, let key = attributes[index], let value = attributes[index + 1] {
        element.attributes[XMLReader.split(key).name] = String(cString: value)
        index += 2
    }
    builder.open.append(element)
}

private func endElement(_ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<XML_Char>?) {
    let builder = TreeBuilder.from(context)
    guard builder.refusal == nil else { return }
    if builder.skipping > 0 {
        builder.skipping -= 1
        return
    }
    guard var element = builder.open.popLast() else { return }
    // The indentation between child elements is no text of the parent's (no format mixes them).
    if !element.children.isEmpty, element.text.utf8.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
        element.text = ""
    }
    if builder.open.isEmpty {
        builder.root = element
    } else {
        builder.open[builder.open.count - 1].children.append(element)
    }
}

private func characterData(_ context: UnsafeMutableRawPointer?, _ text: UnsafePointer<XML_Char>?, _ length: Int32) {
    let builder = TreeBuilder.from(context)
    guard builder.refusal == nil, builder.skipping == 0, let text, !builder.open.isEmpty else { return }
    let bytes = UnsafeRawBufferPointer(start: text, count: Int(length))
    let last = builder.open.count - 1
    // Indentation after a child element is not kept (see endElement).
    if !builder.open[last].children.isEmpty, bytes.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return }
    builder.open[last].text += String(decoding: bytes, as: UTF8.self)
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
