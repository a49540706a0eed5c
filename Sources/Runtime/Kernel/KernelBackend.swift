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
        if info.isUp, let managed = ManagementIndexList.managedIndexes(), !managed.contains(index) {
            throw Failure("hci\(index): the adapter is busy (\(HCISocketError.errnoText(EBUSY))): a user channel holds it "
                + "(another rtstack with --backend user-channel, a Bumble or btproxy process), so the kernel cannot "
                + "use it for --backend kernel. Stop that program, or use another adapter (rtstack adapters lists them)")
        }
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
            driver = try KernelDriver(index: index, security: security, loop: loop, tap: PacketTap.make(sinks),
                                      application: makeApplication(), at: MonotonicClock.now())
        } catch {
            throw Failure(error.description)
        }
        let outcome = loop.run(driver, signals: signals)
        driver.close()
        return outcome
    }
}
