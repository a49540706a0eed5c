/// pcapng (draft-ietf-opsawg-pcapng): a sequence of blocks `type | total length | body |
/// total length`, each section (SHB) choosing its byte order and each interface (IDB) its
/// link type and timestamp unit.
public enum PcapngFormat {
    public static let sectionHeaderBlock: UInt32 = 0x0a0d_0d0a
    public static let interfaceDescriptionBlock: UInt32 = 0x0000_0001
    public static let packetBlock: UInt32 = 0x0000_0002   // obsolete, still read
    public static let simplePacketBlock: UInt32 = 0x0000_0003
    public static let enhancedPacketBlock: UInt32 = 0x0000_0006
    public static let byteOrderMagic: UInt32 = 0x1a2b_3c4d

    /// Option codes used here (§3.5 general, §4.2 IDB, §4.3 EPB).
    public static let optionEndOfOptions: UInt16 = 0
    public static let optionInterfaceTimestampResolution: UInt16 = 9   // if_tsresol
    public static let optionInterfaceTimestampOffset: UInt16 = 14      // if_tsoffset
    public static let optionPacketFlags: UInt16 = 2                    // epb_flags

    /// Largest SHB/IDB the reader buffers; real ones are a few hundred bytes.
    static let maximumHeaderBlockLength = 1 << 20

    public static func blockTypeName(_ type: UInt32) -> String {
        switch type {
        case 0x0a0d_0d0a: return "Section Header Block"
        case 1: return "Interface Description Block"
        case 2: return "Packet Block"
        case 3: return "Simple Packet Block"
        case 4: return "Name Resolution Block"
        case 5: return "Interface Statistics Block"
        case 6: return "Enhanced Packet Block"
        case 9: return "systemd Journal Export Block"
        case 0xa: return "Decryption Secrets Block"
        case 0x0bad, 0x4000_0bad: return "Custom Block"
        default: return "block"
        }
    }
}

/// How one pcapng interface counts time (if_tsresol): units of 10^-n or 2^-n seconds.
struct PcapngTimestampUnit: Sendable, Hashable {
    var exponent: Int
    var binary: Bool

    static let microseconds = PcapngTimestampUnit(exponent: 6, binary: false)

    init(exponent: Int, binary: Bool) {
        self.exponent = exponent
        self.binary = binary
    }

    /// Decodes the one-byte option: top bit set = power of two.
    init(option byte: UInt8) {
        exponent = Int(byte & 0x7f)
        binary = byte & 0x80 != 0
    }

    private static let powersOfTen: [UInt64] = {
        var out: [UInt64] = [1]
        for _ in 1...19 { out.append(out[out.count - 1] &* 10) }
        return out
    }()

    /// Microseconds for a raw count, or nil when the result does not fit an Int64.
    func micros(_ units: UInt64) -> Int64? {
        let result: UInt64
        if binary {
            // units × 10^6 / 2^exponent over 128 bits.
            let (high, low) = units.multipliedFullWidth(by: 1_000_000)
            if exponent == 0 {
                guard high == 0 else { return nil }
                result = low
            } else if exponent < 64 {
                guard high >> exponent == 0 else { return nil }
                result = low >> exponent | high << (64 - exponent)
            } else {
                result = high >> (exponent - 64)
            }
        } else if exponent == 6 {
            result = units
        } else if exponent < 6 {
            let (product, overflow) = units.multipliedReportingOverflow(by: Self.powersOfTen[6 - exponent])
            guard !overflow else { return nil }
            result = product
        } else {
            let shift = exponent - 6
            result = shift >= Self.powersOfTen.count ? 0 : units / Self.powersOfTen[shift]
        }
        return Int64(exactly: result)
    }
}

/// What the reader keeps from one IDB.
struct PcapngInterface: Sendable, Hashable {
    var linkType: UInt32
    var snapLength: UInt32
    var unit: PcapngTimestampUnit = .microseconds
    var offsetSeconds: Int64 = 0
}

/// Calls `body` for each option in `options` (code, value) until opt_endofopt or the bytes
/// run out; returns false if an option overran the area.
@discardableResult
func forEachPcapngOption(
    in options: ArraySlice<UInt8>,
    bigEndian: Bool,
    _ body: (UInt16, ArraySlice<UInt8>) -> Void
) -> Bool {
    var i = options.startIndex
    while options.endIndex - i >= 4 {
        let a = UInt16(options[i]), b = UInt16(options[i + 1])
        let c = UInt16(options[i + 2]), d = UInt16(options[i + 3])
        let code = bigEndian ? a << 8 | b : b << 8 | a
        let length = Int(bigEndian ? c << 8 | d : d << 8 | c)
        if code == PcapngFormat.optionEndOfOptions { return true }
        let valueStart = i + 4
        guard options.endIndex - valueStart >= length else { return false }
        body(code, options[valueStart..<(valueStart + length)])
        let padded = (length + 3) & ~3
        i = valueStart + min(padded, options.endIndex - valueStart)
    }
    return true
}

/// Reads an integer from a slice in the section's byte order; the caller checked the length.
func pcapngU32(_ s: ArraySlice<UInt8>, _ at: Int, bigEndian: Bool) -> UInt32 {
    let i = s.startIndex + at
    let a = UInt32(s[i]), b = UInt32(s[i + 1]), c = UInt32(s[i + 2]), d = UInt32(s[i + 3])
    return bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
}

func pcapngU16(_ s: ArraySlice<UInt8>, _ at: Int, bigEndian: Bool) -> UInt16 {
    let i = s.startIndex + at
    let a = UInt16(s[i]), b = UInt16(s[i + 1])
    return bigEndian ? a << 8 | b : b << 8 | a
}
