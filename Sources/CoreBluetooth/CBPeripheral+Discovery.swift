import Foundation
import HostCore
import Runtime
import Wire

/// Discovery, each with the GATT sub-procedure iOS uses (Core Spec v5.4 Vol 3, Part G, §4.4–
/// §4.7); what is found is added to what was found before, and the filters filter.
extension CBPeripheral {
    public func discoverServices(_ serviceUUIDs: [CBUUID]?) {
        request("discoverServices") { link, current in
            let result: Result<[GATTService], any Error>
            do {
                if let uuids = serviceUUIDs, !uuids.isEmpty {
                    var found: [GATTService] = []
                    for u in uuids { found += try await link.discoverPrimaryServices(uuid: u.value) }
                    result = .success(found)
                } else {
                    result = .success(try await link.discoverPrimaryServices())
                }
            } catch {
                result = .failure(error)
            }
            guard current() else { return }
            let error = result.failure.map(ErrorTranslation.delegateError)
            if case .success(let found) = result {
                self.lock.guarded {
                    var list = self.storedServices ?? []
                    for s in found where !list.contains(where: { $0.startHandle == s.startHandle }) {
                        list.append(CBService(s, peripheral: self, lock: self.lock))
                    }
                    self.storedServices = list.sorted { $0.startHandle < $1.startHandle }
                }
            }
            self.onQueue { p in p.delegate?.peripheral(p, didDiscoverServices: error) }
        }
    }

    public func discoverIncludedServices(_ includedServiceUUIDs: [CBUUID]?, for service: CBService) {
        request("discoverIncludedServices") { link, current in
            let result: Result<[GATTIncludedService], any Error>
            do { result = .success(try await link.findIncludedServices(in: service.startHandle...service.endHandle)) } catch { result = .failure(error) }
            guard current() else { return }
            if case .success(let found) = result {
                let wanted = includedServiceUUIDs.map { Set($0.map(\.value)) }
                self.lock.guarded {
                    var list = service.storedIncluded ?? []
                    for i in found {
                        guard let uuid = i.uuid, wanted?.contains(uuid) ?? true,
                              !list.contains(where: { $0.startHandle == i.startHandle }) else { continue }
                        let s = GATTService(uuid: uuid, startHandle: i.startHandle, endHandle: i.endHandle, isPrimary: false)
                        list.append(CBService(s, peripheral: self, lock: self.lock))
                    }
                    service.storedIncluded = list
                }
            }
            let error = result.failure.map(ErrorTranslation.delegateError)
            self.onQueue { p in p.delegate?.peripheral(p, didDiscoverIncludedServicesFor: service, error: error) }
        }
    }

    public func discoverCharacteristics(_ characteristicUUIDs: [CBUUID]?, for service: CBService) {
        request("discoverCharacteristics") { link, current in
            let result: Result<[GATTCharacteristic], any Error>
            // All of the service's, so each one's end handle is known; then filtered.
            do { result = .success(try await link.discoverCharacteristics(in: service.startHandle...service.endHandle)) } catch { result = .failure(error) }
            guard current() else { return }
            if case .success(let found) = result {
                let wanted = characteristicUUIDs.flatMap { $0.isEmpty ? nil : Set($0.map(\.value)) }
                self.lock.guarded {
                    var list = service.storedCharacteristics ?? []
                    for c in found where wanted?.contains(c.uuid) ?? true && !list.contains(where: { $0.valueHandle == c.valueHandle }) {
                        list.append(CBCharacteristic(c, service: service, lock: self.lock))
                    }
                    service.storedCharacteristics = list.sorted { $0.valueHandle < $1.valueHandle }
                }
            }
            let error = result.failure.map(ErrorTranslation.delegateError)
            self.onQueue { p in p.delegate?.peripheral(p, didDiscoverCharacteristicsFor: service, error: error) }
        }
    }

    public func discoverDescriptors(for characteristic: CBCharacteristic) {
        request("discoverDescriptors") { link, current in
            let result: Result<[GATTDescriptor], any Error>
            if characteristic.endHandle > characteristic.valueHandle {
                do { result = .success(try await link.discoverDescriptors(in: (characteristic.valueHandle + 1)...characteristic.endHandle)) } catch { result = .failure(error) }
            } else {
                result = .success([])
            }
            guard current() else { return }
            if case .success(let found) = result {
                self.lock.guarded {
                    var list = characteristic.storedDescriptors ?? []
                    for d in found where !list.contains(where: { $0.handle == d.handle }) {
                        list.append(CBDescriptor(uuid: d.uuid, handle: d.handle, characteristic: characteristic, lock: self.lock))
                    }
                    characteristic.storedDescriptors = list.sorted { $0.handle < $1.handle }
                }
            }
            let error = result.failure.map(ErrorTranslation.delegateError)
            self.onQueue { p in p.delegate?.peripheral(p, didDiscoverDescriptorsFor: characteristic, error: error) }
        }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
