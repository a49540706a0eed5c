// swift-tools-version:6.0
import PackageDescription

// Layers (imports point down only): rtstack → RTStackCLI → Runtime / Dissector → Sensors → HostCore → Capture → Wire.
// CBluetooth is imported by Runtime only. See Docs/architecture.md.
let package = Package(
    name: "rtstack",
    products: [
        .executable(name: "rtstack", targets: ["rtstack"]),
        .library(name: "Wire", targets: ["Wire"]),
        .library(name: "Capture", targets: ["Capture"]),
        .library(name: "HostCore", targets: ["HostCore"]),
        .library(name: "Sensors", targets: ["Sensors"]),
        .library(name: "Runtime", targets: ["Runtime"]),
    ],
    targets: [
        .systemLibrary(
            name: "CBluetooth",
            pkgConfig: nil,
            providers: [.apt(["libbluetooth-dev"])]
        ),
        .target(name: "Wire"),
        .target(name: "Capture", dependencies: ["Wire"]),
        .target(name: "HostCore", dependencies: ["Wire"]),
        .target(name: "Sensors", dependencies: ["Wire"]),
        .target(name: "Dissector", dependencies: ["Wire", "Capture", "Sensors"]),
        .target(name: "Runtime", dependencies: ["Wire", "Capture", "HostCore", "CBluetooth"]),
        .target(name: "RTStackCLI", dependencies: ["Wire", "Capture", "Dissector", "HostCore", "Sensors", "Runtime"]),
        .executableTarget(name: "rtstack", dependencies: ["RTStackCLI"]),
        .testTarget(name: "WireTests", dependencies: ["Wire"]),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "Wire"]),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors", "Wire"]),
        .testTarget(name: "DissectorTests", dependencies: ["Dissector", "Capture", "Wire", "RTStackCLI"]),
        .testTarget(name: "HostCoreTests", dependencies: ["HostCore", "Wire"]),
        .testTarget(name: "RuntimeTests", dependencies: ["Runtime", "Wire"]),
    ],
    swiftLanguageModes: [.v6]
)
