/// Initiator / Responder Key Distribution of a Pairing Request or Response (Core Spec v5.4
/// Vol 3, Part H, §3.6.1, Figure 3.11): which keys each side will send in the Transport
/// Specific Key Distribution phase. Bits 4–7 are reserved and kept as they came.
public struct SMPKeyDistribution: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// EncKey: LTK with EDIV and Rand (legacy pairing) — in LE Secure Connections it is
    /// ignored, both sides having derived the LTK.
    public static let encryptionKey = SMPKeyDistribution(rawValue: 0x01)
    /// IdKey: IRK and identity address.
    public static let identityKey = SMPKeyDistribution(rawValue: 0x02)
    /// SignKey: CSRK.
    public static let signingKey = SMPKeyDistribution(rawValue: 0x04)
    /// LinkKey: derive the BR/EDR link key (cross-transport; LE-only stacks leave it 0).
    public static let linkKey = SMPKeyDistribution(rawValue: 0x08)

    public var reservedBits: UInt8 { rawValue & 0xF0 }

    /// The keys by their specification names, e.g. "EncKey, IdKey"; "none" when empty.
    public var names: String {
        var parts: [String] = []
        if contains(.encryptionKey) { parts.append("EncKey") }
        if contains(.identityKey) { parts.append("IdKey") }
        if contains(.signingKey) { parts.append("SignKey") }
        if contains(.linkKey) { parts.append("LinkKey") }
        if reservedBits != 0 { parts.append("RFU " + L2CAPText.hex8(reservedBits)) }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}

extension SMPKeyDistribution: CustomStringConvertible {
    public var description: String { L2CAPText.hex8(rawValue) + " (" + names + ")" }
}
