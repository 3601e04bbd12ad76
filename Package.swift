// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ChronoSketchPlanServer",
    products: [
        .library(name: "ChronoSketchCore", targets: ["ChronoSketchCore"]),
        .library(name: "PlanProtocol", targets: ["PlanProtocol"]),
        .library(name: "PlanStore", targets: ["PlanStore"]),
        .library(name: "PlanTerminal", targets: ["PlanTerminal"]),
    ],
    targets: [
        // Pure domain: dates, tasks, timeline data, time axis, JSON coding. No I/O.
        .target(name: "ChronoSketchCore", linkerSettings: [.linkedLibrary("m")]),
        // Process plumbing every module shares: checked threads and pipes, whole-file reads,
        // standard error, the environment, clocks and `Duration` in seconds.
        .target(name: "SystemSupport"),
        // The one command-line parser of plan-server, plan and plan-load (pure, no I/O).
        .target(name: "CommandLineOptions"),
        // RFC 6455 and the HTTP/1.1 upgrade as pure values: request heads, handshakes, frames.
        .target(name: "WebSocketWire"),
        // zlib from Debian's zlib1g-dev, for gzip.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The web client's files as the server holds and serves them: paths, types, ETags, gzip,
        // module preloads.
        .target(name: "WebAssets", dependencies: ["WebSocketWire", "CZlib"]),
        // The wire contract (protocol.md) as values: client and server messages, limits, `changes`.
        .target(name: "PlanProtocol", dependencies: ["ChronoSketchCore"]),
        // Expat from Debian's libexpat1-dev: the XML parser of the importers (no DTD, no entities).
        .systemLibrary(name: "CExpat", pkgConfig: "expat", providers: [.apt(["libexpat1-dev"])]),
        // Plans in and out of the formats planners use (interchange.md): MS Project XML and
        // GanttProject import, MS Project XML, CSV and iCalendar export.
        .target(name: "PlanInterchange", dependencies: ["ChronoSketchCore", "CExpat"]),
        // libpq from Debian's libpq-dev.
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // libwebsockets from Debian's libwebsockets-dev.
        .systemLibrary(
            name: "CWebSockets", pkgConfig: "libwebsockets", providers: [.apt(["libwebsockets-dev"])]),
        // Sockets, epoll and eventfd for Swift (what Swift cannot import, and nothing else).
        .target(name: "CNetwork"),
        // OpenSSL from Debian's libssl-dev, for wss://.
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // PostgreSQL storage: schema, plans, mutation log, accounts, notifications.
        .target(name: "PlanStore", dependencies: ["ChronoSketchCore", "CPostgres", "SystemSupport"]),
        // Benchmarks (ops/bench-*), with a shared plan generator.
        .target(
            name: "BenchSupport", dependencies: ["ChronoSketchCore", "SystemSupport"], path: "Benchmarks/BenchSupport"),
        // The raw client on WebSocketWire: one blocking socket, any bytes out, the server's frames
        // in (the tests' and the fuzzers' raw client; the load generator's viewers share its parts).
        .target(name: "WebSocketClient", dependencies: ["WebSocketWire", "SystemSupport"]),
        // The transport: epoll service threads, TLS handshakes, accepting, memory budgets; each
        // connection a WebSocketWire state machine. Knows nothing of the plan protocol.
        .target(
            name: "WebSocketServer", dependencies: ["WebSocketWire", "CNetwork", "COpenSSL", "SystemSupport"]),
        // The server: hub (per-plan validate → commit → fan out), sessions, metrics, commands.
        .target(
            name: "PlanServer",
            dependencies: [
                "ChronoSketchCore", "PlanProtocol", "PlanStore", "CNetwork", "WebSocketWire", "WebSocketServer",
                "WebAssets", "SystemSupport", "CommandLineOptions", "PlanInterchange",
            ]),
        // The client library on lws: connections, hello, subscribe/resume, confirmed copies, proposals.
        .target(
            name: "PlanClient",
            dependencies: ["ChronoSketchCore", "PlanProtocol", "CWebSockets", "CNetwork", "COpenSSL", "SystemSupport"]),
        // The load generator: many viewers and editors on one client transport.
        .target(
            name: "PlanLoad",
            dependencies: [
                "PlanClient", "PlanProtocol", "ChronoSketchCore", "CWebSockets", "CNetwork", "WebSocketWire",
                "SystemSupport", "CommandLineOptions",
            ],
            path: "clients/load/PlanLoad"),
        .executableTarget(
            name: "plan-load", dependencies: ["PlanLoad", "SystemSupport"], path: "clients/load/plan-load"),
        // ncursesw from Debian's libncurses-dev.
        // (No pkgConfig: its -D_XOPEN_SOURCE flags are refused by SwiftPM; the shim sets what it needs.)
        .systemLibrary(name: "CNcurses", providers: [.apt(["libncurses-dev"])]),
        // The terminal client: pure screen model and rendering, forms, the ncurses adapter, subcommands.
        .target(
            name: "PlanTerminal",
            dependencies: [
                "ChronoSketchCore", "PlanProtocol", "PlanClient", "CNcurses", "CNetwork", "SystemSupport",
                "CommandLineOptions",
            ],
            path: "clients/terminal/PlanTerminal"),
        // `plan`: the interactive terminal client and its scriptable subcommands.
        .executableTarget(name: "plan", dependencies: ["PlanTerminal"], path: "clients/terminal/plan"),
        // `plan-server serve|migrate|user add|grant|plan create|plan export`.
        .executableTarget(
            name: "plan-server", dependencies: ["PlanServer", "PlanStore", "ChronoSketchCore", "SystemSupport"]),
        .executableTarget(
            name: "core-bench", dependencies: ["ChronoSketchCore", "BenchSupport"], path: "Benchmarks/core-bench"),
        .executableTarget(
            name: "schedule-bench", dependencies: ["ChronoSketchCore", "BenchSupport"],
            path: "Benchmarks/schedule-bench"),
        .executableTarget(
            name: "flood-bench", dependencies: ["PlanClient", "PlanProtocol", "ChronoSketchCore", "SystemSupport"],
            path: "Benchmarks/flood-bench"),
        .executableTarget(
            name: "history-bench",
            dependencies: ["PlanClient", "PlanProtocol", "ChronoSketchCore", "SystemSupport", "CommandLineOptions"],
            path: "Benchmarks/history-bench"),
        .executableTarget(
            name: "revoke-bench", dependencies: ["CommandLineOptions", "PlanClient", "SystemSupport"],
            path: "Benchmarks/revoke-bench"),
        .executableTarget(
            name: "store-bench", dependencies: ["PlanStore", "PlanProtocol", "ChronoSketchCore", "BenchSupport"],
            path: "Benchmarks/store-bench"),
        // The fuzzers (ops/fuzz): seeded frame, handshake and message generators and the runner that
        // drives a server and checks it afterwards.
        .target(
            name: "PlanFuzz",
            dependencies: [
                "ChronoSketchCore", "PlanProtocol", "SystemSupport", "WebSocketWire", "WebSocketClient",
                "PlanInterchange",
            ],
            path: "Fuzz/PlanFuzz"
        ),
        .executableTarget(
            name: "plan-fuzz", dependencies: ["PlanFuzz", "SystemSupport", "CommandLineOptions"], path: "Fuzz/plan-fuzz"
        ),
        .testTarget(name: "ChronoSketchCoreTests", dependencies: ["ChronoSketchCore"]),
        .testTarget(name: "WebSocketWireTests", dependencies: ["WebSocketWire"]),
        .testTarget(name: "WebAssetsTests", dependencies: ["WebAssets", "WebSocketWire", "CZlib"]),
        .testTarget(name: "WebSocketServerTests", dependencies: ["WebSocketServer", "WebSocketWire", "CNetwork"]),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport"]),
        .testTarget(name: "CommandLineOptionsTests", dependencies: ["CommandLineOptions"]),
        .testTarget(
            name: "PlanInterchangeTests",
            dependencies: ["PlanInterchange", "ChronoSketchCore", "PlanTestSupport", "SystemSupport"],
            exclude: ["Files"]),
        .testTarget(name: "PlanProtocolTests", dependencies: ["PlanProtocol", "ChronoSketchCore", "PlanTestSupport"]),
        // Shared by the tests: the test database, shell helpers, random plan operations.
        .target(
            name: "PlanTestSupport", dependencies: ["PlanStore", "PlanProtocol", "ChronoSketchCore", "SystemSupport"],
            path: "Tests/PlanTestSupport"),
        .testTarget(name: "PlanStoreTests", dependencies: ["PlanStore", "ChronoSketchCore", "PlanTestSupport"]),
        .testTarget(
            name: "PlanServerTests",
            dependencies: [
                "PlanServer", "PlanClient", "PlanProtocol", "PlanStore", "ChronoSketchCore", "PlanTestSupport",
                "WebSocketWire", "WebSocketServer", "WebSocketClient", "SystemSupport", "COpenSSL",
            ]),
        .testTarget(
            name: "PlanLoadTests",
            dependencies: [
                "PlanLoad", "PlanClient", "PlanStore", "ChronoSketchCore", "PlanTestSupport", "CWebSockets",
                "WebSocketWire",
            ]),
        .testTarget(
            name: "PlanTerminalTests",
            dependencies: ["PlanTerminal", "PlanProtocol", "PlanStore", "ChronoSketchCore", "PlanTestSupport"],
            exclude: ["Golden"]),
        // PlanClient on its own: HTTP GETs, export answers, direct answers (real servers where needed).
        .testTarget(
            name: "PlanClientTests",
            dependencies: ["PlanClient", "PlanProtocol", "PlanStore", "ChronoSketchCore", "PlanTestSupport"]),
        .testTarget(
            name: "PlanFuzzTests",
            dependencies: ["PlanFuzz", "PlanStore", "ChronoSketchCore", "PlanTestSupport", "SystemSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
