/// Random device address rules (Core Spec v5.4 Vol 6, Part B, §1.3.2).
extension BDAddress {
    /// The 48-bit value, most significant bit first as in text.
    public var value: UInt64 {
        var v: UInt64 = 0
        for (i, b) in bytes.enumerated() where i < 6 { v |= UInt64(b) << (8 * UInt64(i)) }
        return v
    }

    /// From the low 48 bits of `value`.
    public init(value: UInt64) {
        var b = [UInt8](repeating: 0, count: 6)
        for i in 0..<6 { b[i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
        self = BDAddress(littleEndian: b[...]) ?? .zero
    }

    /// A random address of `kind` whose remaining bits come from `bits` (the two top bits are
    /// set for the kind). For the test world and tests; no check of the rules below is made.
    public static func random(_ kind: RandomAddressKind, bits: UInt64) -> BDAddress {
        let top: UInt64
        switch kind {
        case .staticAddress: top = 0b11
        case .resolvablePrivate: top = 0b01
        case .nonResolvablePrivate: top = 0b00
        case .reserved: top = 0b10
        }
        return BDAddress(value: top << 46 | bits & 0x3FFF_FFFF_FFFF)
    }

    /// For a resolvable private address: `prand` (upper 24 bits, kind bits included) and
    /// `hash` (lower 24 bits). Nil for the other kinds.
    public var resolvablePrivateParts: (prand: UInt32, hash: UInt32)? {
        guard randomKind == .resolvablePrivate else { return nil }
        let v = value
        return (UInt32(truncatingIfNeeded: v >> 24), UInt32(truncatingIfNeeded: v & 0xFF_FFFF))
    }

    /// Why the address cannot be a random address as the specification defines one; nil when
    /// it can. Static and non-resolvable private addresses need their 46 random bits to be
    /// neither all 0 nor all 1; a resolvable private address needs that of the 22 random bits
    /// of `prand`; the top bits `0b10` are reserved.
    public var randomAddressProblem: String? {
        let v = value
        switch randomKind {
        case .staticAddress, .nonResolvablePrivate:
            let random = v & 0x3FFF_FFFF_FFFF
            if random == 0 { return "the random part of a \(randomKind.name) address is all 0" }
            if random == 0x3FFF_FFFF_FFFF { return "the random part of a \(randomKind.name) address is all 1" }
            return nil
        case .resolvablePrivate:
            let random = (v >> 24) & 0x3F_FFFF
            if random == 0 { return "the random part of prand is all 0" }
            if random == 0x3F_FFFF { return "the random part of prand is all 1" }
            return nil
        case .reserved:
            return "the two most significant bits 0b10 are reserved for random addresses"
        }
    }

    public var isValidRandomAddress: Bool { randomAddressProblem == nil }
}

extension DeviceAddress {
    /// For a random address, what is wrong with it (see `BDAddress.randomAddressProblem`);
    /// always nil for a public one.
    public var randomAddressProblem: String? {
        type.isRandom ? address.randomAddressProblem : nil
    }
}
