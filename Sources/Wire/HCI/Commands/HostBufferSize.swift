/// HCI_Host_Buffer_Size (Core Spec v5.4 Vol 4, Part E, §7.3.39): the host's own receive buffers,
/// which the controller honours only after Set Controller To Host Flow Control.
public struct HostBufferSize: HCICommand, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.hostBufferSize

    public var hostACLDataPacketLength: UInt16
    public var hostSynchronousDataPacketLength: UInt8
    public var hostTotalNumACLDataPackets: UInt16
    public var hostTotalNumSynchronousDataPackets: UInt16

    public init(hostACLDataPacketLength: UInt16, hostSynchronousDataPacketLength: UInt8 = 0,
                hostTotalNumACLDataPackets: UInt16, hostTotalNumSynchronousDataPackets: UInt16 = 0) {
        self.hostACLDataPacketLength = hostACLDataPacketLength
        self.hostSynchronousDataPacketLength = hostSynchronousDataPacketLength
        self.hostTotalNumACLDataPackets = hostTotalNumACLDataPackets
        self.hostTotalNumSynchronousDataPackets = hostTotalNumSynchronousDataPackets
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        hostACLDataPacketLength = try r.u16("Host_ACL_Data_Packet_Length")
        hostSynchronousDataPacketLength = try r.u8("Host_Synchronous_Data_Packet_Length")
        hostTotalNumACLDataPackets = try r.u16("Host_Total_Num_ACL_Data_Packets")
        hostTotalNumSynchronousDataPackets = try r.u16("Host_Total_Num_Synchronous_Data_Packets")
    }

    public func encode(into w: inout ByteWriter) {
        w.u16(hostACLDataPacketLength)
        w.u8(hostSynchronousDataPacketLength)
        w.u16(hostTotalNumACLDataPackets)
        w.u16(hostTotalNumSynchronousDataPackets)
    }

    public var summary: String {
        "ACL " + String(hostACLDataPacketLength) + " x " + String(hostTotalNumACLDataPackets)
    }

    public func describeFields(into fields: inout FieldList) {
        fields.add("ACL MTU", String(hostACLDataPacketLength))
        fields.add("ACL max packets", String(hostTotalNumACLDataPackets))
        fields.add("SCO MTU", String(hostSynchronousDataPacketLength))
        fields.add("SCO max packets", String(hostTotalNumSynchronousDataPackets))
    }
}
