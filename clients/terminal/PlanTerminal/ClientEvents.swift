import ChronoSketchCore
import PlanProtocol

/// What happens to the interactive client: keys, size changes, and what the connection hears.
public enum ClientEvent: Sendable {
    /// A key press.
    case key(Key)
    /// The terminal's new size.
    case resize(width: Int, height: Int)
    /// Authenticated as `user`.
    case welcome(user: String)
    /// A server message, after the connection updated its copy.
    case server(ServerMessage)
    /// The connection's confirmed copy after a snapshot, confirmed or resumed.
    case copy(ClientPlanCopy)
    /// The connection dropped.
    case disconnected(reason: String, willReconnect: Bool)
    /// The delay a `ClientAction.wake` asked for passed.
    case wake(token: Int)
}

/// What the adapter must do for the client.
public enum ClientAction: Sendable {
    /// Send a proposal with this id.
    case propose(PlanOperation, id: String)
    /// Watch a timeline query under this id.
    case watch(TimelineQuery, id: String)
    /// End a watch.
    case unwatch(id: String)
    /// Send `ClientEvent.wake(token:)` after this many milliseconds (re-queries are coalesced).
    case wake(afterMilliseconds: Int, token: Int)
    /// Ask for a page of the history (`before` nil: up to the current version).
    case requestHistory(before: Int?, limit: Int, ref: String)
    /// Ask for the plan as it was at a version.
    case fetch(version: Int, ref: String)
    /// Ask for the schedule figures of `ids` at `version` (scheduling.md §6); no ids: of every
    /// scheduled task (the critical filter).
    case schedule(version: Int, ids: [String], ref: String)
    /// Ask for the session user's calendar feed address of the plan (protocol.md §4.6.1).
    case requestFeed(ref: String)
    /// Leave.
    case quit
}

/// The settings of the interactive client.
public struct ClientSettings: Sendable {
    /// The plan id.
    public var plan: String
    /// The labels' language.
    public var language: PlanLanguage
    /// A heading instead of the plan title.
    public var title: String?
    /// The chart's finite horizon.
    public var horizon: ChartHorizon
    /// Today's civil date (there is no clock in the model).
    public var today: CivilDate
    /// A prefix that makes proposal and task ids unique.
    public var idPrefix: String
    /// The timeline's zoom at the start.
    public var zoom: TimelineZoom
    /// The time zone the history shows times in (UTC unless given).
    public var localTime = LocalTime.utc
    /// The configuration file's settings (key bindings, colours, mouse).
    public var config = ClientConfig()
    /// The server's HTTP origin (`http://host:port`, `https://…` for wss://): the calendar
    /// feed's address begins with it.
    public var serverOrigin: String?
    /// The colours the screen uses (none unless the adapter finds a colour terminal and no
    /// `NO_COLOR`).
    public var colours = ColourDepth.none

    /// The colour decisions at this depth, with the configuration file's colours.
    public var palette: Palette { Palette(colours, overrides: config.colours) }

    /// Creates settings.
    public init(
        plan: String, language: PlanLanguage, title: String?, horizon: ChartHorizon, today: CivilDate, idPrefix: String,
        zoom: TimelineZoom = .oneDay
    ) {
        self.zoom = zoom
        self.plan = plan
        self.language = language
        self.title = title
        self.horizon = horizon
        self.today = today
        self.idPrefix = idPrefix
    }
}
