import Foundation
import HostCore
import Runtime
import Wire

/// Reads, writes and notifications. A value is stored in the attribute on the delegate's
/// queue right before the delegate hears of it, so `characteristic.value` inside
/// `didUpdateValueFor` is always the value being reported.
extension CBPeripheral {
    public func readValue(for characteristic: CBCharacteristic) {
        read(characteristic.valueHandle, "readValue(for: characteristic)") { p, value, error in
            if let value { p.lock.guarded { characteristic.storedValue = value } }
            p.delegate?.peripheral(p, didUpdateValueFor: characteristic, error: error)
        }
    }

    public func readValue(for descriptor: CBDescriptor) {
        read(descriptor.handle, "readValue(for: descriptor)") { p, value, error in
            if let value { p.lock.guarded { descriptor.storedValue = value } }
            p.delegate?.peripheral(p, didUpdateValueFor: descriptor, error: error)
        }
    }

    /// Reads `handle` (long values too) and hands the value or the app's error to `report` on
    /// the delegate's queue.
    private func read(_ handle: UInt16, _ what: String,
                      report: @escaping @Sendable (CBPeripheral, Data?, (any Error)?) -> Void) {
        request(what) { link, current in
            let result: Result<[UInt8], any Error>
            do { result = .success(try await link.read(handle: handle)) } catch { result = .failure(error) }
            guard current() else { return }
            let error = result.failure.map(ErrorTranslation.delegateError)
            let value = (try? result.get()).map { Data($0) }
            self.onQueue { p in report(p, value, error) }
        }
    }

    /// Writes `value` to `handle` with a response and hands the app's error (nil: written) to
    /// `report` on the delegate's queue.
    private func write(_ value: [UInt8], to handle: UInt16, _ what: String,
                       report: @escaping @Sendable (CBPeripheral, (any Error)?) -> Void) {
        request(what) { link, current in
            let outcome: (any Error)?
            do {
                try await link.write(handle: handle, value: value, withResponse: true)
                outcome = nil
            } catch {
                outcome = ErrorTranslation.delegateError(error)
            }
            guard current() else { return }
            self.onQueue { p in report(p, outcome) }
        }
    }

    /// With response: Write Request (Prepare/Execute Write beyond 20 bytes) and
    /// `didWriteValueFor`. Without response: Write Command, no answer; see
    /// `canSendWriteWithoutResponse`.
    public func writeValue(_ data: Data, for characteristic: CBCharacteristic, type: CBCharacteristicWriteType) {
        let value = [UInt8](data)
        guard type == .withoutResponse else {
            return write(value, to: characteristic.valueHandle, "writeValue(_:for:type:)") { p, error in
                p.delegate?.peripheral(p, didWriteValueFor: characteristic, error: error)
            }
        }
        lock.guarded { connection?.writesWithoutResponse += 1 }
        request("writeValue(_:for:type: .withoutResponse)") { link, current in
            do { try await link.write(handle: characteristic.valueHandle, value: value, withResponse: false) } catch {
                CBLog.warning("Write Without Response to \(characteristic.uuid) of \(self.identifier) failed: \(error)")
            }
            let ready: Bool = self.lock.guarded {
                guard current(), var c = self.connection else { return false }
                c.writesWithoutResponse -= 1
                if !c.canSendWriteWithoutResponse { c.waitingForWriteWindow = true }
                let ready = c.waitingForWriteWindow && c.canSendWriteWithoutResponse
                if ready { c.waitingForWriteWindow = false }
                self.connection = c
                return ready
            }
            if ready { self.onQueue { p in p.delegate?.peripheralIsReady(toSendWriteWithoutResponse: p) } }
        }
    }

    /// The Client Characteristic Configuration is written with `setNotifyValue` only, as on
    /// iOS (which raises an exception; this logs API MISUSE and ignores the call).
    public func writeValue(_ data: Data, for descriptor: CBDescriptor) {
        guard descriptor.uuid.value != BluetoothUUIDs.cccd else {
            CBLog.misuse("the Client Characteristic Configuration descriptor is written with setNotifyValue(_:for:), not writeValue(_:for:): ignored")
            return
        }
        write([UInt8](data), to: descriptor.handle, "writeValue(_:for: descriptor)") { p, error in
            p.delegate?.peripheral(p, didWriteValueFor: descriptor, error: error)
        }
    }

    /// Writes the CCCD (notifications when the characteristic has them, else indications)
    /// and reports `didUpdateNotificationStateFor` once the peer answered; turning it off
    /// reports once the CCCD is written back to 0.
    public func setNotifyValue(_ enabled: Bool, for characteristic: CBCharacteristic) {
        request("setNotifyValue") { link, current in
            let handle = characteristic.valueHandle
            if enabled {
                if self.lock.guarded({ self.connection?.notifications[handle] != nil }) {
                    self.onQueue { p in p.delegate?.peripheral(p, didUpdateNotificationStateFor: characteristic, error: nil) }
                    return
                }
                do {
                    let batches = try await link.notificationBatches(valueHandle: handle)
                    let reader = Task(executorPreference: link.central.loopExecutor) { [self] in
                        for await batch in batches {
                            let values = batch.map { Data($0) }
                            self.onQueue { p in
                                for v in values {
                                    p.lock.guarded { characteristic.storedValue = v }
                                    p.delegate?.peripheral(p, didUpdateValueFor: characteristic, error: nil)
                                }
                            }
                        }
                    }
                    let kept: Bool = self.lock.guarded {
                        guard current() else { return false }
                        self.connection?.notifications[handle] = reader
                        characteristic.storedNotifying = true
                        return true
                    }
                    guard kept else { return reader.cancel() }
                    self.onQueue { p in p.delegate?.peripheral(p, didUpdateNotificationStateFor: characteristic, error: nil) }
                } catch {
                    let e = ErrorTranslation.delegateError(error)
                    guard current() else { return }
                    self.onQueue { p in p.delegate?.peripheral(p, didUpdateNotificationStateFor: characteristic, error: e) }
                }
            } else {
                let reader = self.lock.guarded { self.connection?.notifications.removeValue(forKey: handle) }
                reader?.cancel()
                await reader?.value
                await link.central.unsubscribed()
                guard current() else { return }
                self.lock.guarded { characteristic.storedNotifying = false }
                self.onQueue { p in p.delegate?.peripheral(p, didUpdateNotificationStateFor: characteristic, error: nil) }
            }
        }
    }

    /// The controllers rtstack drives are not asked for a link's RSSI (HCI Read RSSI is not
    /// sent): the answer is 127 ("not available", Core Spec v5.4 Vol 4, Part E, §7.5.4) with
    /// `CBError.operationNotSupported`.
    public func readRSSI() {
        request("readRSSI") { _, current in
            guard current() else { return }
            let e = CBError(.operationNotSupported, reason: "rtstack does not read a connection's RSSI; the advertisement's RSSI is in didDiscover")
            self.onQueue { p in p.delegate?.peripheral(p, didReadRSSI: NSNumber(value: 127), error: e) }
        }
    }
}
