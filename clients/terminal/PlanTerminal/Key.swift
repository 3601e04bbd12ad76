/// A key press, decoded by the terminal adapter.
public enum Key: Sendable, Hashable {
    /// A printable character.
    case character(Character)
    /// Arrow keys.
    case up, down, left, right
    /// Paging and jumping.
    case pageUp, pageDown, home, end
    /// Return, Escape, Tab, Shift-Tab, Backspace.
    case enter, escape, tab, backTab, backspace
    /// Delete (the character at the cursor).
    case delete
    /// Shift-← and Shift-→ (in a form's text field: step a date, a time or a number).
    case shiftLeft, shiftRight
    /// A control key: `control("a")` is Ctrl-A (only the letters the client uses are decoded).
    case control(Character)
    /// A mouse button, wheel or drag (SGR mouse reporting).
    case mouse(MouseEvent)
}

/// Which view the interactive client shows.
public enum ViewMode: Sendable, Hashable, CaseIterable {
    /// The hierarchical list.
    case list
    /// The task timeline.
    case timeline
    /// The resource timeline.
    case resources
    /// The plan's history, newest first.
    case history

    /// The next view (the Tab key).
    public var next: ViewMode {
        switch self {
        case .list: .timeline
        case .timeline: .resources
        case .resources: .history
        case .history: .list
        }
    }
}

/// The state of the connection, as the heading shows it.
public enum ConnectionState: Sendable, Hashable {
    /// Connecting for the first time.
    case connecting
    /// Authenticated.
    case connected
    /// Dropped, trying again with backoff.
    case reconnecting(reason: String)
    /// Dropped for good.
    case closed(reason: String)
}
