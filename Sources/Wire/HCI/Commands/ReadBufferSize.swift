/// HCI_Read_Buffer_Size (Core Spec v5.4 Vol 4, Part E, §7.4.5): the shared ACL buffers, which
/// LE traffic uses when LE Read Buffer Size reports a length of 0.
public struct ReadBufferSize: HCICommandWithoutParameters, Hashable {
    public static let opcode = HCIOpcode.readBufferSize
    public init() {}

    /// When the status is not success and the controller sent only the status, the sizes are 0
    /// and `isStatusOnly` is true.
    public struct ReturnParameters: WireCodable, FieldDescribing, Hashable {
        public var status: HCIStatus
        public var aclDataPacketLength: UInt16
        public var synchronousDataPacketLength: UInt8
        public var totalNumACLDataPackets: UInt16
        public var totalNumSynchronousDataPackets: UInt16
        public var isStatusOnly: Bool

        public init(status: HCIStatus = .success, aclDataPacketLength: UInt16,
                    synchronousDataPacketLength: UInt8, totalNumACLDataPackets: UInt16,
                    totalNumSynchronousDataPackets: UInt16) {
            self.status = status
            self.aclDataPacketLength = aclDataPacketLength
            self.synchronousDataPacketLength = synchronousDataPacketLength
            self.totalNumACLDataPackets = totalNumACLDataPackets
            self.totalNumSynchronousDataPackets = totalNumSynchronousDataPackets
            isStatusOnly = false
        }

        public init(decoding r: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try r.u8("Status"))
            aclDataPacketLength = 0; synchronousDataPacketLength = 0
            totalNumACLDataPackets = 0; totalNumSynchronousDataPackets = 0
            isStatusOnly = !status.isSuccess && r.count < 7
            if isStatusOnly { return }
            aclDataPacketLength = try r.u16("ACL_Data_Packet_Length")
            synchronousDataPacketLength = try r.u8("Synchronous_Data_Packet_Length")
            totalNumACLDataPackets = try r.u16("Total_Num_ACL_Data_Packets")
            totalNumSynchronousDataPackets = try r.u16("Total_Num_Synchronous_Data_Packets")
        }

        public func encode(into w: inout ByteWriter) {
            w.u8(status.rawValue)
            if isStatusOnly { return }
            w.u16(aclDataPacketLength)
            w.u8(synchronousDataPacketLength)
            w.u16(totalNumACLDataPackets)
            w.u16(totalNumSynchronousDataPackets)
        }

        public var summary: String {
            isStatusOnly ? status.description
                : "ACL " + String(aclDataPacketLength) + " x " + String(totalNumACLDataPackets)
        }

        public func describeFields(into fields: inout FieldList) {
            fields.add("Status", status.description)
            if isStatusOnly { return }
            fields.add("ACL MTU", String(aclDataPacketLength))
            fields.add("ACL max packets", String(totalNumACLDataPackets))
            fields.add("SCO MTU", String(synchronousDataPacketLength))
            fields.add("SCO max packets", String(totalNumSynchronousDataPackets))
        }
    }
}
