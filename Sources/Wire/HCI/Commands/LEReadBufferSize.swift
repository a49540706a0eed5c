/// HCI_LE_Read_Buffer_Size [v1] (Core Spec v5.4 Vol 4, Part E, §7.8.2): the ACL buffers reserved
/// for LE. A length of 0 means LE shares the buffers of Read Buffer Size.
public struct LEReadBufferSize: HCICommandWithoutParameters, Hashable {
    public static let opcode = HCIOpcode.leReadBufferSize
    public init() {}

    /// When the status is not success and the controller sent only the status, the sizes are 0
    /// and `isStatusOnly` is true.
    public struct ReturnParameters: WireCodable, FieldDescribing, Hashable {
        public var status: HCIStatus
        public var leACLDataPacketLength: UInt16
        public var totalNumLEACLDataPackets: UInt8
        public var isStatusOnly: Bool

        public init(status: HCIStatus = .success, leACLDataPacketLength: UInt16, totalNumLEACLDataPackets: UInt8) {
            self.status = status
            self.leACLDataPacketLength = leACLDataPacketLength
            self.totalNumLEACLDataPackets = totalNumLEACLDataPackets
            isStatusOnly = false
        }

        public init(decoding r: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try r.u8("Status"))
            leACLDataPacketLength = 0; totalNumLEACLDataPackets = 0
            isStatusOnly = !status.isSuccess && r.count < 3
            if isStatusOnly { return }
            leACLDataPacketLength = try r.u16("LE_ACL_Data_Packet_Length")
            totalNumLEACLDataPackets = try r.u8("Total_Num_LE_ACL_Data_Packets")
        }

        public func encode(into w: inout ByteWriter) {
            w.u8(status.rawValue)
            if isStatusOnly { return }
            w.u16(leACLDataPacketLength)
            w.u8(totalNumLEACLDataPackets)
        }

        public var summary: String {
            isStatusOnly ? status.description
                : "LE ACL " + String(leACLDataPacketLength) + " x " + String(totalNumLEACLDataPackets)
        }

        public func describeFields(into fields: inout FieldList) {
            fields.add("Status", status.description)
            if isStatusOnly { return }
            fields.add("Data packet length", String(leACLDataPacketLength))
            fields.add("Num data packets", String(totalNumLEACLDataPackets))
        }
    }
}

/// HCI_LE_Read_Buffer_Size [v2] (Core Spec v5.4 Vol 4, Part E, §7.8.2): the LE ACL buffers and
/// the ISO buffers.
public struct LEReadBufferSizeV2: HCICommandWithoutParameters, Hashable {
    public static let opcode = HCIOpcode.leReadBufferSizeV2
    public init() {}

    /// When the status is not success and the controller sent only the status, the sizes are 0
    /// and `isStatusOnly` is true.
    public struct ReturnParameters: WireCodable, FieldDescribing, Hashable {
        public var status: HCIStatus
        public var leACLDataPacketLength: UInt16
        public var totalNumLEACLDataPackets: UInt8
        public var isoDataPacketLength: UInt16
        public var totalNumISODataPackets: UInt8
        public var isStatusOnly: Bool

        public init(status: HCIStatus = .success, leACLDataPacketLength: UInt16, totalNumLEACLDataPackets: UInt8,
                    isoDataPacketLength: UInt16, totalNumISODataPackets: UInt8) {
            self.status = status
            self.leACLDataPacketLength = leACLDataPacketLength
            self.totalNumLEACLDataPackets = totalNumLEACLDataPackets
            self.isoDataPacketLength = isoDataPacketLength
            self.totalNumISODataPackets = totalNumISODataPackets
            isStatusOnly = false
        }

        public init(decoding r: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try r.u8("Status"))
            leACLDataPacketLength = 0; totalNumLEACLDataPackets = 0
            isoDataPacketLength = 0; totalNumISODataPackets = 0
            isStatusOnly = !status.isSuccess && r.count < 6
            if isStatusOnly { return }
            leACLDataPacketLength = try r.u16("LE_ACL_Data_Packet_Length")
            totalNumLEACLDataPackets = try r.u8("Total_Num_LE_ACL_Data_Packets")
            isoDataPacketLength = try r.u16("ISO_Data_Packet_Length")
            totalNumISODataPackets = try r.u8("Total_Num_ISO_Data_Packets")
        }

        public func encode(into w: inout ByteWriter) {
            w.u8(status.rawValue)
            if isStatusOnly { return }
            w.u16(leACLDataPacketLength)
            w.u8(totalNumLEACLDataPackets)
            w.u16(isoDataPacketLength)
            w.u8(totalNumISODataPackets)
        }

        public var summary: String {
            isStatusOnly ? status.description
                : "LE ACL " + String(leACLDataPacketLength) + " x " + String(totalNumLEACLDataPackets)
                + ", ISO " + String(isoDataPacketLength) + " x " + String(totalNumISODataPackets)
        }

        public func describeFields(into fields: inout FieldList) {
            fields.add("Status", status.description)
            if isStatusOnly { return }
            fields.add("ACL data packet length", String(leACLDataPacketLength))
            fields.add("ACL num data packets", String(totalNumLEACLDataPackets))
            fields.add("ISO data packet length", String(isoDataPacketLength))
            fields.add("ISO num data packets", String(totalNumISODataPackets))
        }
    }
}
