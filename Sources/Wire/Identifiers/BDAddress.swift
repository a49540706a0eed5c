/// A 48-bit device address, stored in wire (little-endian) order and shown most significant
/// byte first, as every tool does (Core Spec Vol 2, Part B, §1.2; Vol 6, Part B, §1.3).
public struct BDAddress: Hashable, Sendable, Comparable {
    /// Wire order: bytes[0] is the least significant byte.
    public let bytes: [UInt8]

    /// From six bytes in wire order; nil for any other count.
    public init?(littleEndian b: ArraySlice<UInt8>) {
        guard b.count == 6 else { return nil }
        bytes = Array(b)
    }

    /// From six bytes most-significant first (as written in text).
    public init?(bigEndian b: [UInt8]) {
        guard b.count == 6 else { return nil }
        bytes = b.reversed()
    }

    /// Parses `AA:BB:CC:DD:EE:FF` (also with `-`); nil otherwise.
    public init?(string: String) {
        let parts = string.split(whereSeparator: { $0 == ":" || $0 == "-" })
        guard parts.count == 6 else { return nil }
        var out: [UInt8] = []
        for p in parts {
            guard p.count == 2, let v = UInt8(p, radix: 16) else { return nil }
            out.append(v)
        }
        self.init(bigEndian: out)
    }

    public static let zero = BDAddress(bigEndian: [0, 0, 0, 0, 0, 0])!

    public var string: String {
        let b = bytes
        return String(unsafeUninitializedCapacity: 17) { buf in
            var o = 0
            for i in stride(from: 5, through: 0, by: -1) {
                let v = i < b.count ? b[i] : 0
                buf[o] = Hex.upperDigits[Int(v >> 4)]
                buf[o + 1] = Hex.upperDigits[Int(v & 0xF)]
                if i > 0 { buf[o + 2] = 0x3A }
                o += i > 0 ? 3 : 2
            }
            return o
        }
    }

    /// The two most significant bits, which tell the kind of a random address
    /// (Core Spec Vol 6, Part B, §1.3.2).
    public var randomKind: RandomAddressKind {
        switch bytes[5] >> 6 {
        case 0b11: return .staticAddress
        case 0b01: return .resolvablePrivate
        case 0b00: return .nonResolvablePrivate
        default: return .reserved
        }
    }

    public static func < (l: BDAddress, r: BDAddress) -> Bool {
        l.bytes.reversed().lexicographicallyPrecedes(r.bytes.reversed())
    }
}

extension BDAddress: CustomStringConvertible {
    public var description: String { string }
}

/// Sub-type of a random device address, from its two top bits.
public enum RandomAddressKind: Sendable, Hashable {
    case staticAddress, resolvablePrivate, nonResolvablePrivate, reserved

    public var name: String {
        switch self {
        case .staticAddress: return "random static"
        case .resolvablePrivate: return "resolvable private"
        case .nonResolvablePrivate: return "non-resolvable private"
        case .reserved: return "reserved"
        }
    }
}

/// Address type as carried in LE HCI commands and events (Core Spec Vol 4, Part E, §7.7.65.1).
public enum LEAddressType: UInt8, Sendable, Hashable {
    case publicDevice = 0x00
    case randomDevice = 0x01
    case publicIdentity = 0x02
    case randomIdentity = 0x03

    public var name: String {
        switch self {
        case .publicDevice: return "public"
        case .randomDevice: return "random"
        case .publicIdentity: return "public identity"
        case .randomIdentity: return "random identity"
        }
    }

    /// Whether the address itself is a random one (identity or not).
    public var isRandom: Bool { self == .randomDevice || self == .randomIdentity }
}

/// An address with its type: what a central needs to connect to a device.
public struct DeviceAddress: Hashable, Sendable, CustomStringConvertible {
    public var address: BDAddress
    public var type: LEAddressType

    public init(_ address: BDAddress, type: LEAddressType) {
        self.address = address
        self.type = type
    }

    /// `AA:BB:CC:DD:EE:FF/public` or `/random`.
    public var description: String { address.string + "/" + (type.isRandom ? "random" : "public") }

    /// A name for display that says which kind of random address it is.
    public var kindName: String {
        type.isRandom ? address.randomKind.name : "public"
    }
}
