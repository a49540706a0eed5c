/// The BTHome Device Information octet, first in the service data (bthome.io, "BTHome Data
/// format"): bit 0 encryption, bit 1 the advertiser's MAC address follows (6 octets, least
/// significant first), bit 2 trigger-based device (advertises on events, not regularly), bits
/// 3–4 reserved, bits 5–7 the BTHome version (2 for v2).
public struct BTHomeDeviceInfo: RawRepresentable, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public init(version: UInt8 = 2, encrypted: Bool = false, macIncluded: Bool = false, triggerBased: Bool = false) {
        rawValue = (version & 0x07) << 5 | (triggerBased ? 0x04 : 0) | (macIncluded ? 0x02 : 0) | (encrypted ? 0x01 : 0)
    }

    public var isEncrypted: Bool { rawValue & 0x01 != 0 }
    public var isMACIncluded: Bool { rawValue & 0x02 != 0 }
    public var isTriggerBased: Bool { rawValue & 0x04 != 0 }
    public var version: UInt8 { rawValue >> 5 }
}
