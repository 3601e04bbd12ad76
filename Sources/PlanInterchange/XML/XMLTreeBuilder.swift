import CExpat

/// Expat's handlers for `XMLReader`: the elements open so far, the root once closed, records
/// handed over as they close, and the first failure (a refusal, or a record handler's error),
/// which stops the parser.
final class XMLTreeBuilder {
    let parser: XML_Parser
    var open: [XMLElement] = []
    var root: XMLElement?
    var failure: (any Error)?
    /// Which elements to keep, decided by the root's name.
    let select: (String) -> XMLSelection
    var selection = XMLSelection()
    /// Receives each record as it closes.
    let record: (XMLElement) throws -> Void
    /// How deep the reader is inside an element that is not kept (0: not inside one).
    var skipping = 0
    /// The namespaces met so far: each element shares one copy (MSPDI names its long URI on all).
    var namespaces: [String] = []

    init(parser: XML_Parser, select: @escaping (String) -> XMLSelection, record: @escaping (XMLElement) throws -> Void)
    {
        self.parser = parser
        self.select = select
        self.record = record
    }

    /// Registers this builder and its handlers with the parser, with DTDs and entities off.
    func install() {
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        XML_SetElementHandler(parser, startElement, endElement)
        XML_SetCharacterDataHandler(parser, characterData)
        XML_SetStartDoctypeDeclHandler(parser, doctype)
        XML_SetEntityDeclHandler(parser, entityDeclaration)
    }

    /// `namespace`, as the copy met before when there is one.
    func shared(_ namespace: String) -> String {
        if let known = namespaces.first(where: { $0 == namespace }) { return known }
        if namespaces.count < 16 { namespaces.append(namespace) }
        return namespace
    }

    func fail(_ error: any Error) {
        guard failure == nil else { return }
        failure = error
        XML_StopParser(parser, 0)
    }

    func refuse(_ message: String) {
        fail(XMLReadError(message: message, line: Int(XML_GetCurrentLineNumber(parser))))
    }

    /// Whether the element about to be closed (the last open one) is a record.
    var closingRecord: Bool { open.count == 3 && selection.records.contains(open[2].name) }

    static func from(_ context: UnsafeMutableRawPointer?) -> XMLTreeBuilder {
        Unmanaged<XMLTreeBuilder>.fromOpaque(context!).takeUnretainedValue()
    }
}

private func startElement(
    _ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<XML_Char>?,
    _ attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?
) {
    let builder = XMLTreeBuilder.from(context)
    guard builder.failure == nil, let name else { return }
    guard builder.open.count + builder.skipping < XMLReader.maxDepth else {
        return builder.refuse("the XML nests deeper than \(XMLReader.maxDepth) levels")
    }
    let (namespace, local) = XMLReader.split(name)
    if builder.open.isEmpty, builder.root == nil { builder.selection = builder.select(local) }
    if builder.skipping > 0 || builder.selection.kept.map({ !$0.contains(local) }) == true {
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
    let builder = XMLTreeBuilder.from(context)
    guard builder.failure == nil else { return }
    if builder.skipping > 0 {
        builder.skipping -= 1
        return
    }
    let isRecord = builder.closingRecord
    guard var element = builder.open.popLast() else { return }
    // The indentation between child elements is no text of the parent's (no format mixes them).
    if !element.children.isEmpty, element.text.utf8.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
        element.text = ""
    }
    if isRecord {
        do {
            try builder.record(element)
        } catch {
            builder.fail(error)
        }
    } else if builder.open.isEmpty {
        builder.root = element
    } else {
        builder.open[builder.open.count - 1].children.append(element)
    }
}

private func characterData(_ context: UnsafeMutableRawPointer?, _ text: UnsafePointer<XML_Char>?, _ length: Int32) {
    let builder = XMLTreeBuilder.from(context)
    guard builder.failure == nil, builder.skipping == 0, let text, !builder.open.isEmpty else { return }
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
    XMLTreeBuilder.from(context).refuse(
        "the file has a DOCTYPE (a DTD), which plan files never need; it is refused so that no entity is expanded or fetched"
    )
}

private func entityDeclaration(
    _ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<XML_Char>?, _ isParameter: Int32,
    _ value: UnsafePointer<XML_Char>?, _ length: Int32, _ base: UnsafePointer<XML_Char>?,
    _ systemID: UnsafePointer<XML_Char>?, _ publicID: UnsafePointer<XML_Char>?,
    _ notation: UnsafePointer<XML_Char>?
) {
    XMLTreeBuilder.from(context).refuse("the file declares an entity, which is refused: no entity is ever expanded")
}
