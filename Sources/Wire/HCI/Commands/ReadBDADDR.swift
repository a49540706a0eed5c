/// HCI_Read_BD_ADDR (Core Spec v5.4 Vol 4, Part E, §7.4.6): the controller's public address
/// (00:00:00:00:00:00 when it has none, as many LE-only controllers).
public struct ReadBDADDR: HCICommandWithoutParameters, Hashable {
    public static let opcode = HCIOpcode.readBDADDR
    public init() {}

    /// When the status is not success and the controller sent only the status, `bdAddress` is
    /// `BDAddress.zero` and `isStatusOnly` is true.
    public struct ReturnParameters: WireCodable, FieldDescribing, Hashable {
        public var status: HCIStatus
        public var bdAddress: BDAddress
        public var isStatusOnly: Bool

        public init(status: HCIStatus = .success, bdAddress: BDAddress) {
            self.status = status
            self.bdAddress = bdAddress
            isStatusOnly = false
        }

        public init(decoding r: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try r.u8("Status"))
            bdAddress = .zero
            isStatusOnly = !status.isSuccess && r.count < 6
            if isStatusOnly { return }
            bdAddress = try HCICommandFormat.readAddress(&r, "BD_ADDR")
        }

        public func encode(into w: inout ByteWriter) {
            w.u8(status.rawValue)
            if isStatusOnly { return }
            w.append(bdAddress.bytes)
        }

        public var summary: String { isStatusOnly ? status.description : bdAddress.string }

        public func describeFields(into fields: inout FieldList) {
            fields.add("Status", status.description)
            if isStatusOnly { return }
            fields.add("Address", bdAddress.string)
        }
    }
}
