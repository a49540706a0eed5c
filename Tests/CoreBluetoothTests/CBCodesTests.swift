import CoreBluetooth
import Foundation
import Testing

@Suite("CoreBluetooth's codes")
struct CBCodesTests {
    @Test("CBManagerState, CBPeripheralState and CBManagerAuthorization have Apple's raw values")
    func stateRawValues() {
        #expect([CBManagerState.unknown, .resetting, .unsupported, .unauthorized, .poweredOff, .poweredOn].map(\.rawValue) == [0, 1, 2, 3, 4, 5])
        #expect([CBPeripheralState.disconnected, .connecting, .connected, .disconnecting].map(\.rawValue) == [0, 1, 2, 3])
        #expect([CBManagerAuthorization.notDetermined, .restricted, .denied, .allowedAlways].map(\.rawValue) == [0, 1, 2, 3])
        #expect(CBCharacteristicWriteType.withResponse.rawValue == 0 && CBCharacteristicWriteType.withoutResponse.rawValue == 1)
    }

    @Test("CBATTError.Code raw values are the ATT error codes of Core Spec Vol 3, Part F, §3.4.1.1")
    func attErrorCodes() {
        let codes: [(CBATTError.Code, Int)] = [
            (.success, 0x00), (.invalidHandle, 0x01), (.readNotPermitted, 0x02), (.writeNotPermitted, 0x03),
            (.invalidPdu, 0x04), (.insufficientAuthentication, 0x05), (.requestNotSupported, 0x06),
            (.invalidOffset, 0x07), (.insufficientAuthorization, 0x08), (.prepareQueueFull, 0x09),
            (.attributeNotFound, 0x0A), (.attributeNotLong, 0x0B), (.insufficientEncryptionKeySize, 0x0C),
            (.invalidAttributeValueLength, 0x0D), (.unlikelyError, 0x0E), (.insufficientEncryption, 0x0F),
            (.unsupportedGroupType, 0x10), (.insufficientResources, 0x11),
        ]
        for (code, raw) in codes { #expect(code.rawValue == raw, "\(code)") }
        let e = CBATTError(.readNotPermitted) as NSError
        #expect(e.domain == CBATTErrorDomain && e.code == 2)
    }

    @Test("CBError codes are Apple's, and an NSError of one has CBErrorDomain")
    func errorCodes() {
        #expect(CBError.Code.connectionTimeout.rawValue == 6)
        #expect(CBError.Code.peripheralDisconnected.rawValue == 7)
        #expect(CBError.Code.operationNotSupported.rawValue == 13)
        #expect(CBError.Code.tooManyLEPairedDevices.rawValue == 16)
        let e: any Error = CBError(.peripheralDisconnected, reason: "the link ended")
        #expect((e as? CBError)?.code == CBError.peripheralDisconnected)
        #expect((e as NSError).domain == CBErrorDomain && (e as NSError).code == 7)
        #expect(e.localizedDescription == "the link ended")
    }

    @Test("CBCharacteristicProperties are the declaration's property bits")
    func propertyBits() {
        let p: CBCharacteristicProperties = [.read, .notify]
        #expect(p.rawValue == 0x12)
        #expect(CBCharacteristicProperties.writeWithoutResponse.rawValue == 0x04 && CBCharacteristicProperties.indicate.rawValue == 0x20)
    }

    @Test("The advertisement and option keys have Apple's string values")
    func keyStrings() {
        #expect(CBAdvertisementDataLocalNameKey == "kCBAdvDataLocalName")
        #expect(CBAdvertisementDataServiceUUIDsKey == "kCBAdvDataServiceUUIDs")
        #expect(CBAdvertisementDataManufacturerDataKey == "kCBAdvDataManufacturerData")
        #expect(CBAdvertisementDataIsConnectable == "kCBAdvDataIsConnectable")
        #expect(CBCentralManagerScanOptionAllowDuplicatesKey == "kCBScanOptionAllowDuplicates")
    }
}
