/// The LE_States bitmap (Core Spec v5.4 Vol 4, Part E, §7.8.27): which combinations of link
/// layer states the controller can be in at once. A central asks it whether it may keep
/// scanning while a connection is being initiated or is up.
public struct LESupportedStates: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let passiveScanning = LESupportedStates(rawValue: 1 << 4)
    public static let activeScanning = LESupportedStates(rawValue: 1 << 5)
    public static let initiating = LESupportedStates(rawValue: 1 << 6)
    public static let passiveScanningAndInitiating = LESupportedStates(rawValue: 1 << 22)
    public static let activeScanningAndInitiating = LESupportedStates(rawValue: 1 << 23)
    public static let passiveScanningAndCentral = LESupportedStates(rawValue: 1 << 24)
    public static let activeScanningAndCentral = LESupportedStates(rawValue: 1 << 25)
    /// Initiating while already Central of another link (and Central of several links).
    public static let initiatingAndCentral = LESupportedStates(rawValue: 1 << 28)
}

/// HCI_LE_Read_Supported_States (Core Spec v5.4 Vol 4, Part E, §7.8.27).
public struct LEReadSupportedStates: HCICommandWithoutParameters, Hashable {
    public static let opcode = HCIOpcode.leReadSupportedStates
    public init() {}

    /// When the status is not success and the controller sent only the status, `leStates` is
    /// empty and `isStatusOnly` is true.
    public struct ReturnParameters: WireCodable, FieldDescribing, Hashable {
        public var status: HCIStatus
        public var leStates: LESupportedStates
        public var isStatusOnly: Bool

        public init(status: HCIStatus = .success, leStates: LESupportedStates) {
            self.status = status
            self.leStates = leStates
            isStatusOnly = false
        }

        public init(decoding r: inout ByteReader) throws(WireError) {
            status = HCIStatus(rawValue: try r.u8("Status"))
            leStates = []
            isStatusOnly = !status.isSuccess && r.count < 8
            if isStatusOnly { return }
            leStates = LESupportedStates(rawValue: try r.u64("LE_States"))
        }

        public func encode(into w: inout ByteWriter) {
            w.u8(status.rawValue)
            if isStatusOnly { return }
            w.u64(leStates.rawValue)
        }

        public var summary: String {
            isStatusOnly ? status.description : "states " + HCICommandFormat.hex(leStates.rawValue)
        }

        public func describeFields(into fields: inout FieldList) {
            fields.add("Status", status.description)
            if isStatusOnly { return }
            fields.add("States", HCICommandFormat.hex(leStates.rawValue))
            fields.add("Scanning while initiating",
                       leStates.contains(.activeScanningAndInitiating) ? "active"
                       : leStates.contains(.passiveScanningAndInitiating) ? "passive only" : "no")
            fields.add("Scanning while Central",
                       leStates.contains(.activeScanningAndCentral) ? "active"
                       : leStates.contains(.passiveScanningAndCentral) ? "passive only" : "no")
            fields.add("Initiating while Central", leStates.contains(.initiatingAndCentral) ? "yes" : "no")
        }
    }
}
