// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "kiosk",
    products: [
        .executable(name: "kiosk", targets: ["kiosk"]),
        .executable(name: "kiosk-bench", targets: ["kiosk-bench"]),
        .library(name: "ScrollEngine", targets: ["ScrollEngine"]),
        .library(name: "TouchInput", targets: ["TouchInput"]),
        .library(name: "EventLog", targets: ["EventLog"]),
    ],
    targets: [
        // UIScrollView's model and physics: pure Swift, no SDL, no clock, no I/O.
        .target(name: "ScrollEngine"),
        // Fingers to gestures: pan, pinch, taps, content touches, nested scroll views. Pure, like the engine.
        .target(name: "TouchInput", dependencies: ["ScrollEngine"]),
        // The event-log format (shared/design/event-log.md): reader, writer, and fingers to touch input.
        .target(name: "EventLog", dependencies: ["ScrollEngine", "TouchInput"]),
        .executableTarget(name: "kiosk", dependencies: ["ScrollEngine", "TouchInput", "EventLog"]),
        // Counts heap allocations by interposing malloc in the benchmark binary only.
        .target(name: "CAllocCounter"),
        .executableTarget(name: "kiosk-bench", dependencies: ["ScrollEngine", "TouchInput", "CAllocCounter"]),
        // Helpers shared by the test targets (a seeded generator, tolerant comparisons).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ScrollEngineTests", dependencies: ["ScrollEngine", "TestSupport"]),
        .testTarget(name: "EventLogTests", dependencies: ["EventLog", "ScrollEngine", "TouchInput", "TestSupport"]),
        .testTarget(
            name: "TouchInputTests", dependencies: ["TouchInput", "ScrollEngine", "EventLog", "TestSupport"],
            resources: [.copy("Fixtures")]),
    ]
)
