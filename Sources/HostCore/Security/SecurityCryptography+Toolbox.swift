import Wire

/// The cryptographic toolbox of Core Spec v5.4 Vol 3, Part H, §2.2, built on the primitives
/// of `SecurityCryptography`. Values are numbers as the specification writes them (most
/// significant octet first); messages to AES-CMAC are built most significant octet first, as
/// §2.2.5 requires.
extension SecurityCryptography {
    /// ah (§2.2.2): the 24-bit hash of a resolvable private address, from the IRK and the
    /// 24-bit prand.
    public func ah(irk: UInt128, prand: UInt32) -> UInt32 {
        UInt32(truncatingIfNeeded: encrypt(key: irk, block: UInt128(prand & 0xFF_FFFF))) & 0xFF_FFFF
    }

    /// c1 (§2.2.3): the legacy pairing confirm value. `preq` and `pres` are the 7 bytes of the
    /// Pairing Request and Response PDUs, code first, as sent; `ia`/`ra` the initiating and
    /// responding device addresses and their types (`iat`/`rat`: 0 public, 1 random).
    public func c1(k: UInt128, r: UInt128, preq: [UInt8], pres: [UInt8],
                   iat: UInt8, ia: BDAddress, rat: UInt8, ra: BDAddress) -> UInt128 {
        // p1 = pres || preq || rat' || iat'; p2 = padding || ia || ra.
        let p1 = Self.littleEndian(pres) << 72 | Self.littleEndian(preq) << 16 | UInt128(rat & 1) << 8 | UInt128(iat & 1)
        let p2 = UInt128(ia.value) << 48 | UInt128(ra.value)
        return encrypt(key: k, block: encrypt(key: k, block: r ^ p1) ^ p2)
    }

    /// s1 (§2.2.4): the legacy STK, from the low 64 bits of r1 (Srand) and r2 (Mrand).
    public func s1(k: UInt128, r1: UInt128, r2: UInt128) -> UInt128 {
        encrypt(key: k, block: (r1 & UInt128(UInt64.max)) << 64 | (r2 & UInt128(UInt64.max)))
    }

    /// f4 (§2.2.6): the LE Secure Connections confirm value, from the X coordinates of both
    /// public keys (`u`, `v`, 32 bytes each), a nonce `x` and the 8-bit `z`.
    public func f4(u: [UInt8], v: [UInt8], x: UInt128, z: UInt8) -> UInt128 {
        cmac(key: x, message: u + v + [z])
    }

    /// f5 (§2.2.7): MacKey and LTK from the DHKey `w`, both nonces and both addresses (`a1`,
    /// `a2`: address type octet then the address, 56 bits).
    public func f5(w: [UInt8], n1: UInt128, n2: UInt128, a1: [UInt8], a2: [UInt8]) -> (macKey: UInt128, ltk: UInt128) {
        let t = cmac(key: Self.f5Salt, message: w)
        // Counter || keyID "btle" || N1 || N2 || A1 || A2 || Length (256).
        let body = [0x62, 0x74, 0x6C, 0x65] + Self.bytes(n1) + Self.bytes(n2) + a1 + a2 + [0x01, 0x00]
        return (cmac(key: t, message: [0] + body), cmac(key: t, message: [1] + body))
    }

    /// f6 (§2.2.8): the DHKey Check value Ea / Eb. `ioCap` is the 24-bit AuthReq || OOB data
    /// flag || IO capability of the sending side (`SMPPairingFeatures.ioCap`).
    public func f6(w: UInt128, n1: UInt128, n2: UInt128, r: UInt128, ioCap: UInt32, a1: [UInt8], a2: [UInt8]) -> UInt128 {
        let io: [UInt8] = [UInt8(truncatingIfNeeded: ioCap >> 16), UInt8(truncatingIfNeeded: ioCap >> 8), UInt8(truncatingIfNeeded: ioCap)]
        return cmac(key: w, message: Self.bytes(n1) + Self.bytes(n2) + Self.bytes(r) + io + a1 + a2)
    }

    /// g2 (§2.2.9): the 32-bit value whose last six decimal digits are the number both users
    /// compare in Numeric Comparison.
    public func g2(u: [UInt8], v: [UInt8], x: UInt128, y: UInt128) -> UInt32 {
        UInt32(truncatingIfNeeded: cmac(key: x, message: u + v + Self.bytes(y)))
    }

    /// h6 (§2.2.10): key conversion with a 32-bit keyID (four ASCII characters, e.g. "lebr").
    public func h6(w: UInt128, keyID: UInt32) -> UInt128 {
        cmac(key: w, message: [UInt8(truncatingIfNeeded: keyID >> 24), UInt8(truncatingIfNeeded: keyID >> 16),
                                UInt8(truncatingIfNeeded: keyID >> 8), UInt8(truncatingIfNeeded: keyID)])
    }

    /// h7 (§2.2.11): key conversion with a 128-bit SALT.
    public func h7(salt: UInt128, w: UInt128) -> UInt128 {
        cmac(key: salt, message: Self.bytes(w))
    }

    /// SALT of f5 (§2.2.7).
    static var f5Salt: UInt128 { 0x6C88_8391_AAF5_A538_6037_0BDB_5A60_83BE }

    /// The 16 bytes of `v`, most significant first.
    public static func bytes(_ v: UInt128) -> [UInt8] {
        (0..<16).map { UInt8(truncatingIfNeeded: v >> (8 * (15 - UInt128($0)))) }
    }

    /// 16 bytes, most significant first, as a number.
    public static func value(_ bytes: [UInt8]) -> UInt128 {
        bytes.suffix(16).reduce(UInt128(0)) { $0 << 8 | UInt128($1) }
    }

    /// A PDU's bytes (least significant first) as a number, for preq / pres.
    static func littleEndian(_ bytes: [UInt8]) -> UInt128 {
        bytes.prefix(16).reversed().reduce(UInt128(0)) { $0 << 8 | UInt128($1) }
    }
}

extension DeviceAddress {
    /// A1 / A2 of f5 and f6 (§2.2.7): the address type (0x00 public, 0x01 random) in the most
    /// significant octet, then the address, most significant first.
    public var smpAddressOctets: [UInt8] {
        [type.isRandom ? 1 : 0] + address.bytes.reversed()
    }
}
