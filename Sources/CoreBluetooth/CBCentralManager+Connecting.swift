import Foundation
import HostCore
import Runtime
import Wire

extension CBCentralManager {
    /// How a CoreBluetooth connection is made: ATT_MTU asked for as iOS does (it offers
    /// more than 23); the whole database discovered before `didConnect`, because the host
    /// subscribes only to characteristics whose CCCD it knows (the app's own discoveries then
    /// run their sub-procedures again, so what they report is what the peer says at that
    /// moment); up to 30 s for the peripheral to be found advertising (iOS waits forever; an
    /// attempt that times out is reported with `didFailToConnect`, `CBError.connectionTimeout`).
    static var connectionPlan: LinkPlan {
        var plan = LinkPlan()
        plan.discover = true
        plan.connectTimeout = HostDuration.seconds(30)
        return plan
    }

    public func connect(_ peripheral: CBPeripheral, options: [String: Any]? = nil) {
        guard let c = poweredOnCentral("connect(_:options:)") else { return }
        guard let g = peripheral.beginConnecting() else {
            CBLog.misuse("connect(_:options:) on \(peripheral), which is \(peripheral.state): ignored")
            return
        }
        let delay = (options?[CBConnectPeripheralOptionStartDelayKey] as? NSNumber)?.doubleValue ?? 0
        Task { [self] in
            if delay > 0 { try? await Task.sleep(for: .milliseconds(Int(delay * 1000))) }
            do {
                let link = try await c.connect(to: peripheral.address, plan: Self.connectionPlan)
                guard peripheral.attach(link, generation: g) else {
                    // Cancelled while connecting: the link that came up anyway goes at once.
                    return await link.disconnect()
                }
                onQueue { m in m.delegate?.centralManager(m, didConnect: peripheral) }
                peripheral.follow(link, generation: g) { [weak self] reason in
                    self?.ended(peripheral, generation: g, reason: reason)
                }
            } catch {
                guard peripheral.connectFailed(generation: g) else { return }
                let e = ErrorTranslation.delegateError(error)
                onQueue { m in m.delegate?.centralManager(m, didFailToConnect: peripheral, error: e) }
            }
        }
    }

    /// Disconnects (or gives up connecting); `didDisconnectPeripheral` follows without an error.
    public func cancelPeripheralConnection(_ peripheral: CBPeripheral) {
        guard poweredOnCentral("cancelPeripheralConnection(_:)") != nil else { return }
        guard let cancelling = peripheral.beginCancelling() else { return }
        let g = cancelling.generation
        guard let link = cancelling.link else { return ended(peripheral, generation: g, reason: nil) }
        Task { [self] in
            await link.disconnect()
            ended(peripheral, generation: g, reason: nil)
        }
    }

    /// Reports a connection's end once: no error when the app cancelled it, else
    /// `CBError.connectionTimeout` (supervision timeout) or `.peripheralDisconnected`.
    func ended(_ peripheral: CBPeripheral, generation g: Int, reason: HCIStatus?) {
        guard let cancelled = peripheral.detach(generation: g) else { return }
        let error: (any Error)? = cancelled ? nil : ErrorTranslation.disconnection(
            reason, text: reason.map { "the link to \(peripheral.address) ended: \(HostError.disconnected($0))" }
                ?? "the link to \(peripheral.address) ended with the adapter")
        onQueue { m in m.delegate?.centralManager(m, didDisconnectPeripheral: peripheral, error: error) }
    }
}
