import ChronoSketchCore
import PlanProtocol

/// The plan details (`I`): the plan's id, title, version and the session's role, and the
/// calendar feed's full address (interchange.md §13) with what it means. The address is asked for
/// (`feed`) the first time the details are shown and kept for the session, not asked for at every
/// start; it stands on a line of its own from the left edge, so that the terminal's selection
/// copies it.
public struct PlanInfoState: Sendable, Hashable {
    /// Where the calendar address stands.
    public enum Feed: Sendable, Hashable {
        /// Not asked for yet (or asked for on a connection that dropped).
        case unknown
        /// Asked for, with this ref.
        case asking(ref: String)
        /// The server's path (`/plans/ID/calendar.ics?key=…`).
        case known(path: String)
        /// The server refused, in words.
        case failed(String)
    }

    /// Whether the details are shown.
    public internal(set) var shown = false
    /// The calendar address.
    public internal(set) var feed = Feed.unknown
    var asked = 0

    /// A request in flight is lost with its connection: asked for again on the next welcome.
    mutating func connectionLost() {
        if case .asking = feed { feed = .unknown }
    }
}

extension ClientModel {
    /// The calendar feed's full address, once the server gave it.
    public var feedURL: String? {
        guard case .known(let path) = planInfo.feed else { return nil }
        return (settings.serverOrigin ?? "") + path
    }

    /// `I`: shows the details, asking for the address unless it is known or being asked for.
    mutating func openPlanInfo() -> [ClientAction] {
        planInfo.shown = true
        return askFeedIfShown()
    }

    /// The `feed` request, when the details are shown and the address is not known or asked for
    /// (after a failure, showing them again asks again).
    mutating func askFeedIfShown() -> [ClientAction] {
        guard planInfo.shown, connection == .connected, !roleEnded else { return [] }
        switch planInfo.feed {
        case .known, .asking: return []
        case .unknown, .failed:
            planInfo.asked += 1
            let ref = "feed-\(settings.idPrefix)-\(planInfo.asked)"
            planInfo.feed = .asking(ref: ref)
            return [.requestFeed(ref: ref)]
        }
    }

    /// Takes the answer to the `feed` request (or its error); false for other messages.
    mutating func receiveFeed(_ message: ServerMessage) -> Bool {
        guard case .asking(let asked) = planInfo.feed, message.ref == asked else { return false }
        switch message {
        case .feed(_, let path?, _): planInfo.feed = .known(path: path)
        case .error(_, let text, _): planInfo.feed = .failed(text)
        default: planInfo.feed = .failed(message.typeName)
        }
        return true
    }

    /// The details as the body shows them.
    public var planInfoLines: [(text: String, style: CellStyle, edge: Bool)] {
        let labels = strings.planInfoLabels
        let labelWidth = [labels.plan, labels.title, labels.version, labels.role].map(\.displayWidth).max()! + 1
        func row(_ label: String, _ value: String) -> (String, CellStyle, Bool) {
            (label.padded(to: labelWidth) + " " + value, .normal, false)
        }
        var lines: [(text: String, style: CellStyle, edge: Bool)] = [
            row(labels.plan, settings.plan),
            row(labels.title, copy?.snapshot.title ?? "—"),
            row(labels.version, copy.map { String($0.version) } ?? "—"),
            row(labels.role, role.map(strings.roleName) ?? "—"),
            ("", .normal, false),
            (strings.feedHeading, .bold, false),
        ]
        switch planInfo.feed {
        case .known:
            // From the left edge, cut into whole lines where it is wider than the screen.
            var rest = Substring(feedURL ?? "")
            while !rest.isEmpty {
                lines.append((String(rest.prefix(width)), .normal, true))
                rest = rest.dropFirst(width)
            }
        case .unknown, .asking: lines.append((strings.feedAsking, .dim, false))
        case .failed(let reason): lines.append((strings.feedFailed(reason), .bold, false))
        }
        lines.append(("", .normal, false))
        lines += strings.feedMeaning.wrapped(to: width - 2).map { ($0, .normal, false) }
        lines.append(("", .normal, false))
        return lines
    }

    func drawPlanInfo(into canvas: inout TextCanvas, y: Int) {
        canvas.write(strings.planInfoTitle.truncated(to: width - 2), x: 1, y: y, style: .bold)
        let lines = planInfoLines.prefix(max(bodyHeight - 2, 1))
        for (offset, line) in lines.enumerated() {
            let x = line.edge ? 0 : 1
            canvas.write(line.text.truncated(to: width - x), x: x, y: y + 1 + offset, style: line.style)
        }
        canvas.write(strings.planInfoClose.truncated(to: width - 2), x: 1, y: y + 1 + lines.count, style: .dim)
    }
}
