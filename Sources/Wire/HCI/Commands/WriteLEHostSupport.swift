/// HCI_Write_LE_Host_Support (Core Spec v5.4 Vol 4, Part E, §7.3.79): tells a dual-mode
/// controller that the host does LE. The second octet (once Simultaneous_LE_Host) is unused and
/// shall be 0; it is kept so a captured value round-trips.
public struct WriteLEHostSupport: HCICommand, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.writeLEHostSupport

    public var leSupportedHost: Bool
    public var unused: UInt8

    public init(leSupportedHost: Bool = true, unused: UInt8 = 0) {
        self.leSupportedHost = leSupportedHost
        self.unused = unused
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        leSupportedHost = try HCICommandFormat.readBool(&r, "LE_Supported_Host")
        unused = try r.u8("Unused")
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(leSupportedHost ? 1 : 0)
        w.u8(unused)
    }

    public var summary: String { leSupportedHost ? "LE host enabled" : "LE host disabled" }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Supported", HCICommandFormat.enabled(leSupportedHost))
        fields.add("Unused", HCICommandFormat.hex(unused))
    }
}
