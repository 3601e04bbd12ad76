// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ChronoSketchPlanServer",
    products: [
        .library(name: "ChronoSketchCore", targets: ["ChronoSketchCore"])
    ],
    targets: [
        // Pure domain: dates, tasks, timeline data, time axis, JSON coding. No I/O.
        .target(name: "ChronoSketchCore", linkerSettings: [.linkedLibrary("m")]),
        .executableTarget(
            name: "core-bench",
            dependencies: ["ChronoSketchCore"],
            path: "Benchmarks/core-bench"
        ),
        .testTarget(name: "ChronoSketchCoreTests", dependencies: ["ChronoSketchCore"]),
    ],
    swiftLanguageModes: [.v6]
)
