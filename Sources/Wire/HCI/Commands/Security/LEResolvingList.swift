/// The controller's resolving list (Core Spec v5.4 Vol 4, Part E, §7.8.38–§7.8.45, Vol 6,
/// Part B, §4.7): peers' identity addresses with their IRKs, so that the link layer resolves
/// their resolvable private addresses itself, reports their identity address (address type
/// 0x02/0x03) and connects to an identity address.

/// HCI_LE_Add_Device_To_Resolving_List (§7.8.38). The IRKs are secrets: never described.
public struct LEAddDeviceToResolvingList: HCICommand, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.leAddDeviceToResolvingList

    /// The peer's identity address (public or random static).
    public var peerIdentity: DeviceAddress
    public var peerIRK: UInt128
    /// rtstack's IRK (all zeros: the controller then uses no local RPA towards this peer).
    public var localIRK: UInt128

    public init(peerIdentity: DeviceAddress, peerIRK: UInt128, localIRK: UInt128) {
        self.peerIdentity = peerIdentity
        self.peerIRK = peerIRK
        self.localIRK = localIRK
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        let type: LEAddressType = try r.u8("Peer_Identity_Address_Type") == 0 ? .publicDevice : .randomDevice
        peerIdentity = DeviceAddress(try HCICommandFormat.readAddress(&r, "Peer_Identity_Address"), type: type)
        peerIRK = try r.u128("Peer_IRK")
        localIRK = try r.u128("Local_IRK")
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(peerIdentity.type.isRandom ? 1 : 0)
        w.append(peerIdentity.address.bytes)
        w.u128(peerIRK)
        w.u128(localIRK)
    }

    public var summary: String { peerIdentity.description }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Peer identity address", peerIdentity.description)
        fields.add("Peer IRK", SMPKeyVisibility.placeholder)
        fields.add("Local IRK", SMPKeyVisibility.placeholder)
    }
}

/// HCI_LE_Clear_Resolving_List (§7.8.40).
public struct LEClearResolvingList: HCICommandWithoutParameters, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.leClearResolvingList
    public init() {}
}

/// HCI_LE_Set_Address_Resolution_Enable (§7.8.44).
public struct LESetAddressResolutionEnable: HCICommand, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.leSetAddressResolutionEnable

    public var enable: Bool

    public init(enable: Bool) { self.enable = enable }

    public init(decoding r: inout ByteReader) throws(WireError) {
        enable = try HCICommandFormat.readBool(&r, "Address_Resolution_Enable")
    }

    public func encode(into w: inout ByteWriter) { w.u8(enable ? 1 : 0) }

    public var summary: String { enable ? "enabled" : "disabled" }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Address resolution", HCICommandFormat.enabled(enable))
    }
}

/// HCI_LE_Set_Privacy_Mode (§7.8.77): Device Privacy Mode (0x01) for a resolving-list entry,
/// so that the controller also accepts the peer's identity address. In the default Network
/// Privacy Mode it drops advertising from a listed peer that does not use an RPA.
public struct LESetPrivacyMode: HCICommand, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.leSetPrivacyMode

    public var peerIdentity: DeviceAddress
    /// 0x00 Network Privacy Mode, 0x01 Device Privacy Mode.
    public var devicePrivacy: Bool

    public init(peerIdentity: DeviceAddress, devicePrivacy: Bool) {
        self.peerIdentity = peerIdentity
        self.devicePrivacy = devicePrivacy
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        let type: LEAddressType = try r.u8("Peer_Identity_Address_Type") == 0 ? .publicDevice : .randomDevice
        peerIdentity = DeviceAddress(try HCICommandFormat.readAddress(&r, "Peer_Identity_Address"), type: type)
        devicePrivacy = try r.u8("Privacy_Mode") == 1
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(peerIdentity.type.isRandom ? 1 : 0)
        w.append(peerIdentity.address.bytes)
        w.u8(devicePrivacy ? 1 : 0)
    }

    public var summary: String { peerIdentity.description + (devicePrivacy ? " device privacy" : " network privacy") }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Peer identity address", peerIdentity.description)
        fields.add("Privacy mode", devicePrivacy ? "Device Privacy Mode (0x01)" : "Network Privacy Mode (0x00)")
    }
}
