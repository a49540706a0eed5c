// swift-tools-version:6.0
import PackageDescription

// Layers: imports point down only, and the dependency lists below are exactly the edges.
//   Wire                      codecs (no Foundation, no C library)
//   Timing, JSON              the one backoff; JSON text (no dependency)
//   Capture, Sensors          on Wire only
//   HostCore                  the sans-I/O host of both backends (Wire, Timing)
//   RunTracker                the run session (HostCore, Sensors)
//   Dissector                 packet decoding for decode/monitor/--trace (Capture, Sensors, JSON)
//   SecurityCrypto            HostCore's SecurityCryptography over Nettle (CNettle)
//   Runtime                   loops, transports, both backends' drivers, Central (Capture,
//                             HostCore; CBluetooth for the kernel's socket ABI)
//   MQTT, Service             beside Runtime: the MQTT client (CMosquitto, dlopen'd), systemd
//   Gateway                   the gateway's sans-I/O runtime and controller, topics, payloads,
//                             configuration (HostCore, Sensors, JSON, MQTT, Service, Timing;
//                             CYAML, CNettle for BTHome)
//   RTStackCLI → rtstack      the commands, assembling all of the above
// See Docs/architecture.md.
/// Targets off the data path (command-line handling, presentation, the gateway's publishing,
/// MQTT, systemd, the crypto glue) are optimized for size in release builds: it keeps the
/// static board binary within its 12,000,000-byte budget (Docs/embedded.md gives the figures).
/// Capture, Sensors, Dissector and RunTracker joined them when the Bluetooth proxy, its pairing
/// and connection parameters and the accept-list initiator took the binary 34 kB over: together
/// 110 kB, for 0.7 % more instructions per notification in the core benchmark and 3 % more CPU
/// in `decode` (Docs/embedded.md). Wire, HostCore and Runtime stay at -O: the notification path,
/// the event loop and the gateway's CPU per notification are measured there.
let optimizeForSize: [SwiftSetting] = [.unsafeFlags(["-Osize"], .when(configuration: .release))]

let package = Package(
    name: "rtstack",
    products: [
        .executable(name: "rtstack", targets: ["rtstack"]),
        .library(name: "Wire", targets: ["Wire"]),
        .library(name: "Capture", targets: ["Capture"]),
        .library(name: "HostCore", targets: ["HostCore"]),
        .library(name: "Sensors", targets: ["Sensors"]),
        .library(name: "Runtime", targets: ["Runtime"]),
        // Apple's central-side CoreBluetooth API over `Central`, so iOS code builds unchanged
        // (Docs/corebluetooth.md). Foundation is used here only, never in the board binary.
        .library(name: "CoreBluetooth", targets: ["CoreBluetooth"]),
    ],
    targets: [
        .systemLibrary(
            name: "CBluetooth",
            pkgConfig: nil,
            providers: [.apt(["libbluetooth-dev"])]
        ),
        // Nettle (AES, AES-CMAC, AES-CCM) and Hogweed over GMP (P-256) for the Security Manager and
        // BTHome's encrypted advertisements. Linked from
        // the static archives: the board binary must not need them installed, and they cost
        // about 0.2 MB where a static OpenSSL libcrypto costs 3.8 MB (Docs/security.md).
        .systemLibrary(
            name: "CNettle",
            pkgConfig: nil,
            providers: [.apt(["nettle-dev", "libgmp-dev"])]
        ),
        // libmosquitto's types and function-pointer types only: the library itself is opened
        // with dlopen when MQTT is used (Sources/MQTT/MosquittoLibrary.swift).
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: nil,
            providers: [.apt(["libmosquitto-dev"])]
        ),
        // libyaml, linked from its static archive (module.modulemap).
        .systemLibrary(
            name: "CYAML",
            pkgConfig: nil,
            providers: [.apt(["libyaml-dev"])]
        ),
        // ESPHome's native API messages as protobuf-c code generated from the project's own
        // Sources/ESPHomeProto/api.proto (scripts/generate-esphome-proto), linked with Debian's
        // libprotobuf-c from its static archive (Docs/gateway.md weighs it).
        .target(name: "ESPHomeProto",
                linkerSettings: [.unsafeFlags(["-Xlinker", "-l:libprotobuf-c.a"])]),
        .target(name: "Wire"),
        .target(name: "Capture", dependencies: ["Wire"], swiftSettings: optimizeForSize),
        // The wait between attempts (a link's reconnection, the broker, an adapter's reopening),
        // below every layer that retries.
        .target(name: "Timing"),
        .target(name: "HostCore", dependencies: ["Wire", "Timing"]),
        .target(name: "Sensors", dependencies: ["Wire"], swiftSettings: optimizeForSize),
        // JSON text for JSON Lines output and the gateway's payloads: no Foundation, no dependency,
        // so the decoder and the gateway share it without either reaching the other.
        .target(name: "JSON"),
        .target(name: "Dissector", dependencies: ["Wire", "Capture", "Sensors", "JSON"], swiftSettings: optimizeForSize),
        .target(name: "RunTracker", dependencies: ["Wire", "Timing", "HostCore", "Sensors"], swiftSettings: optimizeForSize),
        // The MQTT client, driven from a poll loop the caller owns (Docs/gateway.md).
        .target(name: "MQTT", dependencies: ["CMosquitto", "Timing"], swiftSettings: optimizeForSize),
        // The gateway's policy, sans I/O (runtime, controller), and its pure parts: topics,
        // payloads, Home Assistant discovery, configuration.
        .target(name: "Gateway", dependencies: ["Wire", "JSON", "Timing", "HostCore", "Sensors", "MQTT", "Service", "CYAML", "CNettle", "ESPHomeAPI"],
                swiftSettings: optimizeForSize,
                linkerSettings: [.unsafeFlags(["-Xlinker", "-l:libnettle.a"])]),
        // Running as a systemd service: sd_notify, the watchdog schedule, journald log lines.
        .target(name: "Service", swiftSettings: optimizeForSize),
        // The Home Assistant Bluetooth proxy's protocol without I/O: ESPHome's native API
        // framing, its Noise_NNpsk0 encryption (Nettle) and messages (Docs/gateway.md).
        .target(name: "ESPHomeAPI", dependencies: ["ESPHomeProto", "CNettle"],
                swiftSettings: optimizeForSize,
                linkerSettings: [.unsafeFlags(["-Xlinker", "-l:libhogweed.a", "-Xlinker", "-l:libnettle.a", "-Xlinker", "-l:libgmp.a"])]),
        .target(name: "SecurityCrypto", dependencies: ["HostCore", "Wire", "CNettle"],
                swiftSettings: optimizeForSize,
                linkerSettings: [.unsafeFlags(["-Xlinker", "-l:libhogweed.a", "-Xlinker", "-l:libnettle.a", "-Xlinker", "-l:libgmp.a"])]),
        .target(name: "Runtime", dependencies: ["Wire", "Capture", "HostCore", "SecurityCrypto", "CBluetooth"]),
        .target(name: "CoreBluetooth", dependencies: ["Runtime", "HostCore", "Wire"]),
        // A CoreBluetooth app as an iOS developer writes one: heart rate, scan, connect, print.
        .executableTarget(name: "cb-heart-rate", dependencies: ["CoreBluetooth"]),
        .target(name: "RTStackCLI", dependencies: ["Wire", "JSON", "Capture", "Dissector", "HostCore", "Sensors", "RunTracker", "Runtime", "Gateway", "MQTT", "Service", "SecurityCrypto", "ESPHomeAPI"],
                swiftSettings: optimizeForSize),
        // SwiftPM links executables with --export-dynamic, which puts every Swift symbol in
        // the dynamic symbol table (0.93 MB that `strip` cannot remove); nothing loads rtstack
        // as a library or looks its symbols up at run time, so they stay out (Docs/embedded.md).
        // Release builds fold identical functions whose address is never taken (--icf=safe, gold
        // and lld): generic specialisations repeat; 258 KB of the stripped binary.
        // A release rtstack is linked as a position-dependent executable (-no-pie), as Swift's
        // fully static SDK links them: the PIE's relocation table was 0.88 MB of the board
        // binary. The libraries, heap and stack are still randomized; the code image is not
        // (Docs/embedded.md weighs it).
        .executableTarget(name: "rtstack", dependencies: ["RTStackCLI"],
                          linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux])),
                                           .unsafeFlags(["-Xlinker", "--icf=safe", "-Xclang-linker", "-no-pie"],
                                                        .when(platforms: [.linux], configuration: .release))]),
        // Benchmarks of issue 6 (print figures, assert nothing; Docs/performance.md).
        .executableTarget(name: "rtstack-bench", dependencies: ["Wire", "HostCore", "Sensors", "RunTracker", "Runtime", "MQTT", "SecurityCrypto", "TestSupport", "CoreBluetooth"]),
        // Helpers shared by the test targets (seeded random numbers, the real captures' advertising
        // reports); never linked into the product.
        .target(name: "TestSupport", dependencies: ["Wire", "Capture", "MQTT"], path: "Tests/TestSupport"),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        .testTarget(name: "TimingTests", dependencies: ["Timing"]),
        .testTarget(name: "WireTests", dependencies: ["Wire", "TestSupport"]),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "Wire", "TestSupport"]),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors", "Wire", "TestSupport"]),
        .testTarget(name: "DissectorTests", dependencies: ["Dissector", "JSON", "Capture", "Wire", "TestSupport"]),
        // The CLI's own: commands run in-process, options, output, the live view, the gateway's
        // control socket and options.
        .testTarget(name: "RTStackCLITests", dependencies: ["RTStackCLI", "Capture", "Dissector", "ESPHomeAPI", "Gateway", "HostCore", "MQTT", "RunTracker", "Runtime", "Sensors", "Service", "TestSupport", "Wire"]),
        .testTarget(name: "SecurityTests", dependencies: ["HostCore", "SecurityCrypto", "Runtime", "Wire", "TestSupport"]),
        .testTarget(name: "HostCoreTests", dependencies: ["HostCore", "Timing", "SecurityCrypto", "Wire", "TestSupport"]),
        .testTarget(name: "RunTrackerTests", dependencies: ["RunTracker", "HostCore", "Sensors", "Wire", "TestSupport"]),
        .testTarget(name: "RuntimeTests", dependencies: ["Runtime", "HostCore", "Wire", "Capture"]),
        .testTarget(name: "ReplayTests", dependencies: ["HostCore", "RunTracker", "Capture", "Wire", "Sensors"]),
        // A client in a process of its own for the MQTT tests (last will after SIGKILL).
        .executableTarget(name: "rtstack-mqtt-probe", dependencies: ["MQTT"], path: "Tests/MQTTProbe"),
        .testTarget(name: "MQTTTests", dependencies: ["MQTT", "Timing", "TestSupport"]),
        .testTarget(name: "ServiceTests", dependencies: ["Service"]),
        .testTarget(name: "ESPHomeAPITests", dependencies: ["ESPHomeAPI", "TestSupport"]),
        .testTarget(name: "GatewayTests", dependencies: ["Gateway", "HostCore", "Sensors", "MQTT", "Wire", "ESPHomeAPI", "TestSupport"]),
        .testTarget(name: "CoreBluetoothTests", dependencies: ["CoreBluetooth", "Runtime", "HostCore", "Wire", "TestSupport"]),
        // The iOS-shaped CoreBluetooth apps (Foundation and CoreBluetooth only), shared by the
        // integration tests and cb-apps, which runs them as a program where a test process cannot
        // reach the world (the VM: Tests/VM/corebluetooth-tests.sh).
        .target(name: "CoreBluetoothApps", dependencies: ["CoreBluetooth"], path: "Tests/CoreBluetoothApps"),
        .executableTarget(name: "cb-apps", dependencies: ["CoreBluetooth", "CoreBluetoothApps"], path: "Tests/CoreBluetoothAppsRunner"),
        .testTarget(name: "IntegrationTests", dependencies: ["CoreBluetooth", "CoreBluetoothApps", "Runtime", "HostCore", "SecurityCrypto", "Sensors", "Wire", "RunTracker", "Capture", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
