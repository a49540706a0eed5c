/// HCI_Read_RSSI (Core Spec v5.4 Vol 4, Part E, §7.5.4): the signal strength of a link; for LE
/// it is the absolute receive level in dBm.
public struct ReadRSSI: HCICommand, Hashable {
    public static let opcode = HCIOpcode.readRSSI

    public var handle: UInt16

    public init(handle: UInt16) { self.handle = handle }

    public init(decoding r: inout ByteReader) throws(WireError) {
        handle = try r.u16("Handle")
    }

    public func encode(into w: inout ByteWriter) { w.u16(handle) }

    public var summary: String { "handle " + HCICommandFormat.handle(handle) }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Handle", HCICommandFormat.handle(handle))
    }

    /// When the status is not success and the controller sent only the status, handle and RSSI
    /// are 0 and `isStatusOnly` is true.
    public struct ReturnParameters: WireCodable, FieldDescribing, Hashable {
        public var status: HCIStatus
        public var handle: UInt16
        /// dBm; 127 means not available.
        public var rssi: Int8
        public var isStatusOnly: Bool

        public init(status: HCIStatus = .success, handle: UInt16, rssi: Int8) {
            self.status = status
            self.handle = handle
            self.rssi = rssi
            isStatusOnly = false
        }

        public init(decoding r: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try r.u8("Status"))
            handle = 0; rssi = 0
            isStatusOnly = !status.isSuccess && r.count < 3
            if isStatusOnly { return }
            handle = try r.u16("Handle")
            rssi = try r.i8("RSSI")
        }

        public func encode(into w: inout ByteWriter) {
            w.u8(status.rawValue)
            if isStatusOnly { return }
            w.u16(handle)
            w.i8(rssi)
        }

        public var summary: String {
            isStatusOnly ? status.description
                : "handle " + HCICommandFormat.handle(handle) + " " + String(rssi) + " dBm"
        }

        public func describeFields(into fields: inout FieldList) {
            fields.add("Status", status.description)
            if isStatusOnly { return }
            fields.add("Handle", HCICommandFormat.handle(handle))
            fields.add("RSSI", String(rssi) + " dBm (" + HCICommandFormat.hex(UInt8(bitPattern: rssi)) + ")")
        }
    }
}
