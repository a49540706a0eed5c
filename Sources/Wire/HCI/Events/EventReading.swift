/// Reads of the field kinds many events share, with the event-specific checks in one place.
extension ByteReader {
    /// Connection_Handle: 12 bits; the top 4 bits are reserved and ignored on receipt
    /// (Vol 4, Part E, §5.4.2).
    mutating func eventConnectionHandle(_ field: StaticString = "Connection_Handle") throws(WireError) -> UInt16 {
        try u16(field) & 0x0FFF
    }

    mutating func eventStatus(_ field: StaticString = "Status") throws(WireError) -> HCIStatus {
        HCIStatus(rawValue: try u8(field))
    }

    /// A 6-byte device address in wire order.
    mutating func eventAddress(_ field: StaticString) throws(WireError) -> BDAddress {
        let b = try bytes(6, field)
        guard let a = BDAddress(littleEndian: b) else {
            throw WireError.truncated(field: field.description, needed: 6, available: b.count)
        }
        return a
    }

    /// An address type that must be one of the four of `LEAddressType`. `lenient` maps a
    /// reserved value to `.publicDevice` instead of throwing: a failed connection's other
    /// fields carry no meaning, and the failure itself must still reach the host.
    mutating func eventAddressType(_ field: StaticString, lenient: Bool = false) throws(WireError) -> LEAddressType {
        let raw = try u8(field)
        if let t = LEAddressType(rawValue: raw) { return t }
        if lenient { return .publicDevice }
        throw WireError.invalidValue(field: field.description, value: UInt64(raw))
    }
}

extension ByteWriter {
    mutating func eventAddress(_ a: BDAddress) {
        append(a.bytes)
    }

    /// Address bytes kept as a slice; anything but six bytes (impossible through the public
    /// initialisers) is padded or cut so the layout stays right.
    mutating func eventAddressBytes(_ b: ArraySlice<UInt8>) {
        for i in 0..<6 { u8(i < b.count ? b[b.startIndex + i] : 0) }
    }

    /// A one-byte length followed by the bytes; more than 255 bytes cannot be expressed, so
    /// the data is cut at 255 rather than written with a wrong length.
    mutating func eventLengthPrefixed(_ data: ArraySlice<UInt8>) {
        let d = data.prefix(255)
        u8(UInt8(truncatingIfNeeded: d.count))
        append(d)
    }
}

extension BDAddress {
    /// Built from bytes already checked to be six long.
    static func fromChecked(_ b: ArraySlice<UInt8>) -> BDAddress {
        BDAddress(littleEndian: b) ?? .zero
    }
}

extension RandomAddressKind {
    /// The kind from the two top bits of the most significant address byte (Core Spec Vol 6,
    /// Part B, §1.3.2), for text written straight from an event's address bytes.
    init(mostSignificantByte b: UInt8) {
        switch b >> 6 {
        case 0b11: self = .staticAddress
        case 0b01: self = .resolvablePrivate
        case 0b00: self = .nonResolvablePrivate
        default: self = .reserved
        }
    }
}

extension TextBuffer {
    /// `C0:11:22:33:44:55 (random static)`, as `LEConnectionText.address` writes it, from
    /// address bytes in wire order.
    mutating func appendAddressWithKind(wireOrder b: ArraySlice<UInt8>, _ type: LEAddressType) {
        appendAddress(wireOrder: b)
        append(" (")
        append(type.isRandom ? RandomAddressKind(mostSignificantByte: b.last ?? 0).name : "public")
        append(byte: 0x29)
    }
}
