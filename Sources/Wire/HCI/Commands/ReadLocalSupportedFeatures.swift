/// HCI_Read_Local_Supported_Features (Core Spec v5.4 Vol 4, Part E, §7.4.3): page 0 of the LMP
/// feature mask, where a central learns whether the controller does LE at all.
public struct ReadLocalSupportedFeatures: HCICommandWithoutParameters, Hashable {
    public static let opcode = HCIOpcode.readLocalSupportedFeatures
    public init() {}

    /// When the status is not success and the controller sent only the status, `lmpFeatures` is 0
    /// and `isStatusOnly` is true.
    public struct ReturnParameters: WireCodable, FieldDescribing, Hashable {
        public var status: HCIStatus
        /// LMP_Features, octet 0 in the low byte (Vol 2, Part C, §3.3).
        public var lmpFeatures: UInt64
        public var isStatusOnly: Bool

        public init(status: HCIStatus = .success, lmpFeatures: UInt64) {
            self.status = status
            self.lmpFeatures = lmpFeatures
            isStatusOnly = false
        }

        public init(decoding r: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try r.u8("Status"))
            lmpFeatures = 0
            isStatusOnly = !status.isSuccess && r.count < 8
            if isStatusOnly { return }
            lmpFeatures = try r.u64("LMP_Features")
        }

        public func encode(into w: inout ByteWriter) {
            w.u8(status.rawValue)
            if isStatusOnly { return }
            w.u64(lmpFeatures)
        }

        /// Feature bit 37, "BR/EDR Not Supported".
        public var brEdrNotSupported: Bool { lmpFeatures & (1 << 37) != 0 }
        /// Feature bit 38, "LE Supported (Controller)".
        public var leSupportedController: Bool { lmpFeatures & (1 << 38) != 0 }

        public var summary: String {
            isStatusOnly ? status.description : "features " + HCICommandFormat.hex(lmpFeatures)
        }

        public func describeFields(into fields: inout FieldList) {
            fields.add("Status", status.description)
            if isStatusOnly { return }
            fields.add("Features", HCICommandFormat.hex(lmpFeatures))
            fields.add("LE Supported (Controller)", leSupportedController ? "yes" : "no")
            fields.add("BR/EDR Not Supported", brEdrNotSupported ? "yes" : "no")
        }
    }
}
