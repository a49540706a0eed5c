/// HCI_LE_Set_Random_Address (Core Spec v5.4 Vol 4, Part E, §7.8.4): the random address used
/// when Own_Address_Type is random.
public struct LESetRandomAddress: HCICommand, Hashable {
    public typealias ReturnParameters = StatusReturnParameters
    public static let opcode = HCIOpcode.leSetRandomAddress

    public var randomAddress: BDAddress

    public init(randomAddress: BDAddress) { self.randomAddress = randomAddress }

    public init(decoding r: inout ByteReader) throws(WireError) {
        randomAddress = try HCICommandFormat.readAddress(&r, "Random_Address")
    }

    public func encode(into w: inout ByteWriter) { w.append(randomAddress.bytes) }

    public var summary: String { randomAddress.string }

    public func describeFields(into fields: inout FieldList) {
        fields.add("Address", HCICommandFormat.address(randomAddress, random: true))
    }
}
