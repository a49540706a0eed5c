/// HCI_Hardware_Error (Vol 4, Part E, §7.7.16): the controller failed; the code is the
/// maker's own. A host's usual answer is a Reset and a fresh bring-up.
public struct HardwareErrorEvent: WireCodable, FieldDescribing, Hashable {
    public var hardwareCode: UInt8

    public init(hardwareCode: UInt8) { self.hardwareCode = hardwareCode }

    public init(decoding r: inout ByteReader) throws(WireError) {
        hardwareCode = try r.u8("Hardware_Code")
    }

    public func encode(into w: inout ByteWriter) { w.u8(hardwareCode) }

    public var summary: String { "code " + EventFormat.hex8(hardwareCode) }

    public func describeFields(into f: inout FieldList) {
        f.add("Hardware code", EventFormat.hex8(hardwareCode))
    }
}
