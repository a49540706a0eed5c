/// The parameters of Identity Address Information (Core Spec v5.4 Vol 3, Part H, §3.6.5):
/// the public or static random address the IRK belongs to.
public struct SMPIdentityAddress: Hashable, Sendable {
    /// AddrType: 0x00 public, 0x01 static random; 0x02–0xFF reserved (kept as sent).
    public var addressType: UInt8
    public var address: BDAddress

    public init(addressType: UInt8, address: BDAddress) {
        self.addressType = addressType
        self.address = address
    }

    public init(_ identity: DeviceAddress) {
        addressType = identity.type.isRandom ? 0x01 : 0x00
        address = identity.address
    }

    /// The identity as a device address; nil for a reserved AddrType.
    public var deviceAddress: DeviceAddress? {
        switch addressType {
        case 0x00: return DeviceAddress(address, type: .publicDevice)
        case 0x01: return DeviceAddress(address, type: .randomDevice)
        default: return nil
        }
    }

    public var addressTypeName: String {
        switch addressType {
        case 0x00: return "Public"
        case 0x01: return "Static Random"
        default: return "Reserved"
        }
    }
}
