/// Address_Type of the Filter Accept List commands (Core Spec v5.4 Vol 4, Part E, §7.8.16):
/// public, random, or 0xFF for devices sending anonymous advertisements.
public struct LEFilterAcceptListAddressType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let publicDevice = LEFilterAcceptListAddressType(rawValue: 0x00)
    public static let randomDevice = LEFilterAcceptListAddressType(rawValue: 0x01)
    public static let anonymous = LEFilterAcceptListAddressType(rawValue: 0xFF)

    /// The list type of a device address (identity types map to their base type).
    public init(_ type: LEAddressType) {
        self.init(rawValue: type.isRandom ? 0x01 : 0x00)
    }

    public var name: String {
        switch rawValue {
        case 0x00: return "Public"
        case 0x01: return "Random"
        case 0xFF: return "Anonymous advertisements"
        default: return "Reserved"
        }
    }

    public var description: String { HCICommandFormat.named(name, rawValue) }
}

/// HCI_LE_Read_Filter_Accept_List_Size (Core Spec v5.4 Vol 4, Part E, §7.8.14).
public struct LEReadFilterAcceptListSize: HCICommandWithoutParameters, Hashable {
    public static let opcode = HCIOpcode.leReadFilterAcceptListSize
    public init() {}

    /// When the status is not success and the controller sent only the status, the size is 0 and
    /// `isStatusOnly` is true.
    public struct ReturnParameters: WireCodable, FieldDescribing, Hashable {
        public var status: HCIStatus
        public var filterAcceptListSize: UInt8
        public var isStatusOnly: Bool

        public init(status: HCIStatus = .success, filterAcceptListSize: UInt8) {
            self.status = status
            self.filterAcceptListSize = filterAcceptListSize
            isStatusOnly = false
        }

        public init(decoding r: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try r.u8("Status"))
            filterAcceptListSize = 0
            isStatusOnly = !status.isSuccess && r.count < 1
            if isStatusOnly { return }
            filterAcceptListSize = try r.u8("Filter_Accept_List_Size")
        }

        public func encode(into w: inout ByteWriter) {
            w.u8(status.rawValue)
            if isStatusOnly { return }
            w.u8(filterAcceptListSize)
        }

        public var summary: String {
            isStatusOnly ? status.description : "size " + String(filterAcceptListSize)
        }

        public func describeFields(into fields: inout FieldList) {
            fields.add("Status", status.description)
            if isStatusOnly { return }
            fields.add("Size", String(filterAcceptListSize))
        }
    }
}

/// HCI_LE_Clear_Filter_Accept_List (Core Spec v5.4 Vol 4, Part E, §7.8.15).
public struct LEClearFilterAcceptList: HCICommandWithoutParameters, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.leClearFilterAcceptList
    public init() {}
}

/// The one parameter pair Add and Remove Device share (§7.8.16, §7.8.17): which device.
public struct LEFilterAcceptListEntry: WireCodable, FieldDescribing, Hashable {
    public var addressType: LEFilterAcceptListAddressType
    public var address: BDAddress

    public init(addressType: LEFilterAcceptListAddressType, address: BDAddress) {
        self.addressType = addressType
        self.address = address
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        addressType = LEFilterAcceptListAddressType(rawValue: try r.u8("Address_Type"))
        address = try HCICommandFormat.readAddress(&r, "Address")
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(addressType.rawValue)
        w.append(address.bytes)
    }

    public var summary: String { address.string + " (" + addressType.name.lowercased() + ")" }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Address type", addressType.description)
        fields.add("Address", HCICommandFormat.address(address, random: addressType == .randomDevice))
    }
}

/// A command whose parameters are one filter accept list entry: its codec and display are
/// the entry's.
public protocol LEFilterAcceptListEntryCommand: HCICommand where ReturnParameters == StatusReturnParameters {
    var entry: LEFilterAcceptListEntry { get set }
    init(entry: LEFilterAcceptListEntry)
}

extension LEFilterAcceptListEntryCommand {
    public init(addressType: LEFilterAcceptListAddressType, address: BDAddress) {
        self.init(entry: LEFilterAcceptListEntry(addressType: addressType, address: address))
    }

    public init(_ device: DeviceAddress) {
        self.init(addressType: LEFilterAcceptListAddressType(device.type), address: device.address)
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        self.init(entry: try LEFilterAcceptListEntry(decoding: &r))
    }

    public func encode(into w: inout ByteWriter) { entry.encode(into: &w) }

    public var addressType: LEFilterAcceptListAddressType { entry.addressType }
    public var address: BDAddress { entry.address }
    public var summary: String { entry.summary }
    public func describeFields(into fields: inout FieldList) { entry.describeFields(into: &fields) }
}

/// HCI_LE_Add_Device_To_Filter_Accept_List (Core Spec v5.4 Vol 4, Part E, §7.8.16). Not allowed
/// while the list is in use by scanning, initiating or advertising (Command Disallowed).
public struct LEAddDeviceToFilterAcceptList: LEFilterAcceptListEntryCommand, Hashable {
    public static let opcode = HCIOpcode.leAddDeviceToFilterAcceptList
    public var entry: LEFilterAcceptListEntry
    public init(entry: LEFilterAcceptListEntry) { self.entry = entry }
}

/// HCI_LE_Remove_Device_From_Filter_Accept_List (Core Spec v5.4 Vol 4, Part E, §7.8.17).
public struct LERemoveDeviceFromFilterAcceptList: LEFilterAcceptListEntryCommand, Hashable {
    public static let opcode = HCIOpcode.leRemoveDeviceFromFilterAcceptList
    public var entry: LEFilterAcceptListEntry
    public init(entry: LEFilterAcceptListEntry) { self.entry = entry }
}
