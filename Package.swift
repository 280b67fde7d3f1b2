// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "kiosk",
    products: [
        .executable(name: "kiosk", targets: ["kiosk"]),
        .executable(name: "kiosk-bench", targets: ["kiosk-bench"]),
        .library(name: "ScrollEngine", targets: ["ScrollEngine"]),
    ],
    targets: [
        // UIScrollView's model and physics: pure Swift, no SDL, no clock, no I/O.
        .target(name: "ScrollEngine"),
        .executableTarget(name: "kiosk", dependencies: ["ScrollEngine"]),
        // Counts heap allocations by interposing malloc in the benchmark binary only.
        .target(name: "CAllocCounter"),
        .executableTarget(name: "kiosk-bench", dependencies: ["ScrollEngine", "CAllocCounter"]),
        .testTarget(name: "ScrollEngineTests", dependencies: ["ScrollEngine"]),
    ]
)
