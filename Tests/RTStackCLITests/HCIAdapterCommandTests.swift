import Testing
import Foundation
import RTStackCLI

/// `rtstack --adapter hci0` and `rtstack adapters` on a kernel without Bluetooth (the build
/// machines'): the message names the cause and the module, and the exit status is 3.
@Suite struct HCIAdapterCommandTests {
    static let kernelLacksBluetooth: Bool = {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue), 1)
        if fd >= 0 { close(fd); return false }
        return errno == EAFNOSUPPORT
    }()

    func run(_ args: [String]) async throws -> CLIRun {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rtstack-hci-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        return try await CLIRun.run(args + ["--state-dir", dir.path])
    }

    @Test(.enabled(if: kernelLacksBluetooth, "this kernel has Bluetooth (scripts/vm-test covers it)"))
    func sessionOnHCI0ExitsThreeNamingTheMissingKernelSupport() async throws {
        let r = try await run(["--adapter", "hci0", "--duration", "1"])
        #expect(r.code == .adapter)
        #expect(r.code.rawValue == 3)
        #expect(r.err.contains("hci0: no Bluetooth support in this kernel"), "\(r.err)")
        #expect(r.err.contains("EAFNOSUPPORT"))
        #expect(r.err.contains("modprobe bluetooth"))
    }

    @Test(.enabled(if: kernelLacksBluetooth, "this kernel has Bluetooth (scripts/vm-test covers it)"))
    func scanOnHCI0ExitsThree() async throws {
        let r = try await run(["scan", "--adapter", "hci0", "--duration", "1"])
        #expect(r.code == .adapter)
        #expect(r.err.contains("EAFNOSUPPORT"), "\(r.err)")
    }

    @Test(.enabled(if: kernelLacksBluetooth, "this kernel has Bluetooth (scripts/vm-test covers it)"))
    func adaptersSaysNoKernelSupportAndExitsThree() async throws {
        let code = await RTStackCLI.run(["adapters"], console: Console(out: OutputStream(fd: open("/dev/null", O_WRONLY)),
                                                                       err: OutputStream(fd: open("/dev/null", O_WRONLY))))
        #expect(code == .adapter)
    }

    // --backend kernel: same kernel check, its own usage errors.
    @Test(.enabled(if: kernelLacksBluetooth, "this kernel has Bluetooth (scripts/vm-test covers it)"))
    func kernelBackendSessionAndScanExitThreeNamingTheMissingKernelSupport() async throws {
        for args in [["--adapter", "hci0", "--backend", "kernel", "--duration", "1"],
                     ["scan", "--adapter", "hci0", "--backend", "kernel", "--duration", "1"]] {
            let r = try await run(args)
            #expect(r.code == .adapter, "\(args)")
            #expect(r.err.contains("EAFNOSUPPORT"), "\(r.err)")
            #expect(r.err.contains("modprobe bluetooth"))
        }
    }

    @Test func kernelBackendNeedsAKernelAdapter() async throws {
        let r = try await run(["scan", "--adapter", "tcp:127.0.0.1:9", "--backend", "kernel", "--duration", "1"])
        #expect(r.code == .usage)
        #expect(r.err.contains("--backend kernel works with a kernel adapter only (--adapter hciN)"), "\(r.err)")
        let bad = try await run(["--adapter", "hci0", "--backend", "bluez", "--duration", "1"])
        #expect(bad.code == .usage)
        #expect(bad.err.contains("--backend wants 'user-channel' or 'kernel'"), "\(bad.err)")
        let security = try await run(["--adapter", "hci0", "--security", "high", "--duration", "1"])
        #expect(security.code == .usage)
        // --security works on both backends; high without a way to authenticate is refused by name.
        #expect(security.err.contains("--security high needs an authenticated pairing"), "\(security.err)")
        // Every command works on the kernel backend: without kernel Bluetooth here, gatt gets as far
        // as the adapter and says why it cannot have it.
        let gatt = try await run(["gatt", "00:AA:01:01:00:01/public", "--adapter", "hci0", "--backend", "kernel"])
        #expect(gatt.code == .adapter)
        #expect(gatt.err.contains("EAFNOSUPPORT"), "\(gatt.err)")
    }
}
