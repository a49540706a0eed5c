import Glibc
import HostCore

/// Runs an application on `--backend kernel`: checks the adapter, opens the management socket,
/// and turns a `MultiDescriptorLoop` on the calling thread until the application ends it.
public enum KernelBackend {
    /// Why the kernel backend could not start; `description` names the cause and the fix.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// The adapter exists and no user channel holds it (the kernel must keep it for this backend).
    public static func check(index: UInt16) throws(Failure) {
        let info: HCIDeviceInfo
        do throws(HCISocketError) {
            let control = try HCIControlSocket(index: index)
            info = try control.deviceInfo(index)
        } catch {
            throw Failure(error.description)
        }
        if let kind = rfkillBlock(index: index) {
            throw Failure("hci\(index): the adapter is blocked by rfkill (\(kind) block, \(HCISocketError.errnoText(HCISocketError.rfkillErrno))), "
                + "so the kernel cannot power it on; unblock it with 'rfkill unblock bluetooth'"
                + (kind == "hard" ? " (a hard block is a switch or the firmware: that command cannot lift it)" : ""))
        }
        if info.isUp, let managed = ManagementIndexList.managedIndexes(), !managed.contains(index) {
            throw Failure("hci\(index): the adapter is busy (\(HCISocketError.errnoText(EBUSY))): a user channel holds it "
                + "(another rtstack with --backend user-channel, a Bumble or btproxy process), so the kernel cannot "
                + "use it for --backend kernel. Stop that program, or use another adapter (rtstack adapters lists them)")
        }
    }

    /// "soft" or "hard" when /sys/class/bluetooth/hciN/rfkill*/ says the adapter is blocked.
    static func rfkillBlock(index: UInt16) -> String? {
        let directory = "\(HCIAdapterDirectory.path)/hci\(index)"
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix("rfkill") else { continue }
            for kind in ["hard", "soft"] where readFlag("\(directory)/\(name)/\(kind)") {
                return kind
            }
        }
        return nil
    }

    private static func readFlag(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { FileDescriptorFlags.closeIgnoringErrors(fd) }
        var byte: UInt8 = 0
        return Glibc.read(fd, &byte, 1) == 1 && byte == UInt8(ascii: "1")
    }

    /// Checks the adapter, then runs until the application or a signal ends the loop. The
    /// adapter is left as found (discovery stopped, powered off again if rtstack powered it on).
    public static func run(index: UInt16, security: KernelSecurityLevel?, sinks: [any PacketSinkFactory],
                           signals: SignalWatcher?,
                           makeApplication: () -> KernelApplication) throws(Failure) -> EventLoopOutcome {
        try check(index: index)
        let loop: MultiDescriptorLoop
        do throws(TransportError) {
            loop = try MultiDescriptorLoop()
        } catch {
            throw Failure(error.description)
        }
        let driver: KernelDriver
        do throws(HCISocketError) {
            driver = try KernelDriver(index: index, security: security, tap: PacketTap.make(sinks),
                                      application: makeApplication(), at: MonotonicClock.now())
        } catch {
            throw Failure(error.description)
        }
        let outcome = loop.run(driver, signals: signals)
        driver.close()
        return outcome
    }
}
