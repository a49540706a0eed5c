/// The management interface's pairing commands and events (BlueZ doc/mgmt-api): how the
/// kernel backend is its own pairing agent, with no bluetoothd.

extension ManagementOpcode {
    public static let setBondable = ManagementOpcode(rawValue: 0x0009)
    public static let setSecureConnections = ManagementOpcode(rawValue: 0x002D)
    public static let setIOCapability = ManagementOpcode(rawValue: 0x0018)
    public static let pairDevice = ManagementOpcode(rawValue: 0x0019)
    public static let unpairDevice = ManagementOpcode(rawValue: 0x001B)
    public static let userConfirmationReply = ManagementOpcode(rawValue: 0x001C)
    public static let userConfirmationNegativeReply = ManagementOpcode(rawValue: 0x001D)
    public static let userPasskeyReply = ManagementOpcode(rawValue: 0x001E)
    public static let userPasskeyNegativeReply = ManagementOpcode(rawValue: 0x001F)
}

extension ManagementEventCode {
    public static let newLongTermKey = ManagementEventCode(rawValue: 0x000A)
    public static let userConfirmationRequest = ManagementEventCode(rawValue: 0x000F)
    public static let userPasskeyRequest = ManagementEventCode(rawValue: 0x0010)
    public static let authenticationFailed = ManagementEventCode(rawValue: 0x0011)
    public static let passkeyNotify = ManagementEventCode(rawValue: 0x0017)
}

extension ManagementSettings {
    /// The kernel stores the keys of a pairing (bonding); bluetoothd sets it, so rtstack
    /// does when it pairs without bluetoothd.
    public static let bondable = ManagementSettings(rawValue: 1 << 4)
    /// LE Secure Connections pairing (bluetoothd switches it on; the kernel's default is off).
    public static let secureConnections = ManagementSettings(rawValue: 1 << 11)
}

extension ManagementCommand {
    public static func setBondable(_ on: Bool, index: UInt16) -> ManagementCommand {
        ManagementCommand(opcode: .setBondable, index: index, parameters: [on ? 1 : 0])
    }

    public static func setSecureConnections(_ on: Bool, index: UInt16) -> ManagementCommand {
        ManagementCommand(opcode: .setSecureConnections, index: index, parameters: [on ? 1 : 0])
    }

    public static func setIOCapability(_ capability: SMPIOCapability, index: UInt16) -> ManagementCommand {
        ManagementCommand(opcode: .setIOCapability, index: index, parameters: [capability.rawValue])
    }

    /// Pairs with `peer` (connecting first if needed); Command Complete comes when pairing ended.
    public static func pairDevice(_ peer: DeviceAddress, ioCapability: SMPIOCapability, index: UInt16) -> ManagementCommand {
        ManagementCommand(opcode: .pairDevice, index: index, parameters: address(peer) + [ioCapability.rawValue])
    }

    /// Forgets the keys of `peer` (the kernel's bond), without disconnecting.
    public static func unpairDevice(_ peer: DeviceAddress, index: UInt16) -> ManagementCommand {
        ManagementCommand(opcode: .unpairDevice, index: index, parameters: address(peer) + [0])
    }

    public static func userConfirmation(_ yes: Bool, _ peer: DeviceAddress, index: UInt16) -> ManagementCommand {
        ManagementCommand(opcode: yes ? .userConfirmationReply : .userConfirmationNegativeReply, index: index,
                          parameters: address(peer))
    }

    /// The passkey the user typed; nil refuses.
    public static func userPasskey(_ passkey: UInt32?, _ peer: DeviceAddress, index: UInt16) -> ManagementCommand {
        guard let passkey else {
            return ManagementCommand(opcode: .userPasskeyNegativeReply, index: index, parameters: address(peer))
        }
        var w = ByteWriter()
        w.append(address(peer))
        w.u32(passkey)
        return ManagementCommand(opcode: .userPasskeyReply, index: index, parameters: w.bytes)
    }

    /// Address (6, wire order) and Address_Type (1 LE public, 2 LE random).
    static func address(_ peer: DeviceAddress) -> [UInt8] {
        peer.address.bytes + [peer.type.isRandom ? 2 : 1]
    }
}

/// A management event about pairing, decoded from `ManagementEvent.Payload.other`. The key of
/// New Long Term Key is read past, never kept: only what it says about the bond is.
public enum ManagementPairingEvent: Sendable, Hashable {
    /// Numeric Comparison (`justWorks` false), or Just Works asking to be authorized.
    case userConfirmationRequest(DeviceAddress, justWorks: Bool, value: UInt32)
    case userPasskeyRequest(DeviceAddress)
    /// The kernel shows this passkey for the peer's user to type.
    case passkeyNotify(DeviceAddress, passkey: UInt32)
    case authenticationFailed(DeviceAddress, ManagementStatus)
    /// A key the kernel made by pairing: whether it is to be kept (bonded), authenticated,
    /// from LE Secure Connections, and its size.
    case newLongTermKey(DeviceAddress, bonded: Bool, authenticated: Bool, secureConnections: Bool, keySize: UInt8)

    /// Nil for other events; throws for a pairing event too short for its fields.
    public init?(_ code: ManagementEventCode, _ parameters: ArraySlice<UInt8>) throws(WireError) {
        var r = ByteReader(parameters)
        switch code {
        case .userConfirmationRequest:
            let peer = try Self.address(&r)
            let hint = try r.u8("Confirm_Hint")
            self = .userConfirmationRequest(peer, justWorks: hint == 1, value: try r.u32("Value"))
        case .userPasskeyRequest:
            self = .userPasskeyRequest(try Self.address(&r))
        case .passkeyNotify:
            let peer = try Self.address(&r)
            self = .passkeyNotify(peer, passkey: try r.u32("Passkey"))
        case .authenticationFailed:
            let peer = try Self.address(&r)
            self = .authenticationFailed(peer, ManagementStatus(rawValue: try r.u8("Status")))
        case .newLongTermKey:
            let store = try r.u8("Store_Hint")
            let peer = try Self.address(&r)
            let type = try r.u8("Key_Type")
            _ = try r.u8("Central")
            let size = try r.u8("Encryption_Size")
            try r.skip(2 + 8 + 16, "EDiv, Rand, Value")
            // Key_Type: 0x00 unauthenticated, 0x01 authenticated (legacy); 0x02, 0x03 the same
            // for P-256 (Secure Connections); 0x04 debug.
            self = .newLongTermKey(peer, bonded: store == 1, authenticated: type == 0x01 || type == 0x03,
                                   secureConnections: type >= 0x02, keySize: size)
        default:
            return nil
        }
    }

    public var peer: DeviceAddress {
        switch self {
        case let .userConfirmationRequest(a, _, _), let .userPasskeyRequest(a), let .passkeyNotify(a, _),
             let .authenticationFailed(a, _), let .newLongTermKey(a, _, _, _, _):
            return a
        }
    }

    public static func address(_ r: inout ByteReader) throws(WireError) -> DeviceAddress {
        let bytes = try r.bytes(6, "Address")
        let type = try r.u8("Address_Type")
        return DeviceAddress(BDAddress(littleEndian: bytes) ?? .zero, type: type == 2 ? .randomDevice : .publicDevice)
    }
}
