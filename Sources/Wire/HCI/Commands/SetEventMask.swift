/// HCI_Set_Event_Mask (Core Spec v5.4 Vol 4, Part E, §7.3.1): which events the controller may
/// send. Bit n enables the event with code n + 1; bit 61 (LE Meta) gates all LE events.
public struct SetEventMask: HCICommand, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.setEventMask

    public var eventMask: UInt64

    /// The controller's power-on default (§7.3.1).
    public static let defaultMask: UInt64 = 0x0000_1FFF_FFFF_FFFF

    public init(eventMask: UInt64) { self.eventMask = eventMask }

    /// The mask that enables exactly the events with these codes (0x01…0x40; others ignored).
    public init(enabling eventCodes: some Sequence<UInt8>) {
        eventMask = HCICommandFormat.mask(bitPerCode: eventCodes)
    }

    /// Whether the event with this code is enabled.
    public func enables(eventCode: UInt8) -> Bool {
        HCICommandFormat.maskContains(eventMask, code: eventCode)
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        eventMask = try r.u64("Event_Mask")
    }

    public func encode(into w: inout ByteWriter) { w.u64(eventMask) }

    public var summary: String { "mask " + HCICommandFormat.hex(eventMask) }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Mask", HCICommandFormat.hex(eventMask))
    }
}

/// HCI_LE_Set_Event_Mask (Core Spec v5.4 Vol 4, Part E, §7.8.1): which LE Meta subevents the
/// controller may send. Bit n enables subevent n + 1 (bit 0 LE Connection Complete, …).
public struct LESetEventMask: HCICommand, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.leSetEventMask

    public var leEventMask: UInt64

    /// The controller's power-on default: the first five LE subevents (§7.8.1).
    public static let defaultMask: UInt64 = 0x0000_0000_0000_001F

    public init(leEventMask: UInt64) { self.leEventMask = leEventMask }

    /// The mask that enables exactly the LE subevents with these codes (0x01…0x40; others ignored).
    public init(enabling subeventCodes: some Sequence<UInt8>) {
        leEventMask = HCICommandFormat.mask(bitPerCode: subeventCodes)
    }

    /// Whether the LE subevent with this code is enabled.
    public func enables(subeventCode: UInt8) -> Bool {
        HCICommandFormat.maskContains(leEventMask, code: subeventCode)
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        leEventMask = try r.u64("LE_Event_Mask")
    }

    public func encode(into w: inout ByteWriter) { w.u64(leEventMask) }

    public var summary: String { "mask " + HCICommandFormat.hex(leEventMask) }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Mask", HCICommandFormat.hex(leEventMask))
    }
}
