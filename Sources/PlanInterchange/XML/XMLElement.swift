/// One element of a parsed XML document, as the importers read it: its local name and
/// namespace, attributes, the text directly inside it (character data joined), its child
/// elements in document order, and the line it starts on (for messages).
public struct XMLElement: Sendable, Hashable {
    /// The local name (`Task` for `<p:Task>`).
    public var name: String
    /// The namespace URI, empty when none.
    public var namespace: String
    /// The attributes by local name (namespaced attributes by their local name too).
    public var attributes: [String: String]
    /// The element's own character data, joined (whitespace kept).
    public var text: String
    /// The child elements in document order.
    public var children: [XMLElement]
    /// The line the start tag is on (1-based).
    public var line: Int

    /// Creates an element.
    public init(
        name: String, namespace: String = "", attributes: [String: String] = [:], text: String = "",
        children: [XMLElement] = [], line: Int = 1
    ) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
        self.text = text
        self.children = children
        self.line = line
    }

    /// The first child named `name`, if any.
    public func child(_ name: String) -> XMLElement? {
        children.first { $0.name == name }
    }

    /// Every child named `name`, in order.
    public func children(_ name: String) -> [XMLElement] {
        children.filter { $0.name == name }
    }

    /// The text of the first child named `name`, if there is one.
    public func value(_ name: String) -> String? {
        child(name)?.text
    }

    /// The text of the child `name` as an integer (surrounding spaces allowed), if it is one.
    public func integer(_ name: String) -> Int? {
        value(name).flatMap { Int($0.trimmingSpaces) }
    }

    /// The text of the child `name` as a number (surrounding spaces allowed), if it is one.
    public func number(_ name: String) -> Double? {
        value(name).flatMap { Double($0.trimmingSpaces) }
    }

    /// Whether the child `name` says 1 or true.
    public func flag(_ name: String) -> Bool {
        switch value(name)?.trimmingSpaces.lowercased() {
        case "1", "true": true
        default: false
        }
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line breaks.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
