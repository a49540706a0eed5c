/// HCI_Read_Remote_Version_Information_Complete (Vol 4, Part E, §7.7.12): the peer's link
/// layer version and its maker, useful to work around known controller defects.
public struct ReadRemoteVersionInformationCompleteEvent: WireCodable, FieldDescribing, Hashable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    /// Link Layer / LMP version (Assigned Numbers: 0x09 is Core 5.0, 0x0D is 5.4).
    public var version: UInt8
    /// Bluetooth SIG company identifier of the peer's controller maker.
    public var companyIdentifier: UInt16
    /// Maker-specific revision.
    public var subversion: UInt16

    public init(status: HCIStatus = .success, connectionHandle: UInt16, version: UInt8, companyIdentifier: UInt16,
                subversion: UInt16) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.version = version
        self.companyIdentifier = companyIdentifier
        self.subversion = subversion
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        status = try r.eventStatus()
        connectionHandle = try r.eventConnectionHandle()
        version = try r.u8("Version")
        companyIdentifier = try r.u16("Company_Identifier")
        subversion = try r.u16("Subversion")
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        w.u8(version)
        w.u16(companyIdentifier)
        w.u16(subversion)
    }

    /// The Core Specification version the number stands for, e.g. "5.4".
    public var versionName: String? {
        let names = Self.versionNames
        return Int(version) < names.count ? names[Int(version)] : nil
    }

    private static let versionNames = ["1.0b", "1.1", "1.2", "2.0+EDR", "2.1+EDR", "3.0+HS", "4.0", "4.1", "4.2",
                                       "5.0", "5.1", "5.2", "5.3", "5.4", "6.0"]

    public var summary: String {
        "handle " + EventFormat.handle(connectionHandle) + " version " + (versionName ?? EventFormat.hex8(version))
            + " company " + EventFormat.hex16(companyIdentifier)
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Status", statusText(status))
        f.add("Connection handle", EventFormat.handle(connectionHandle))
        f.add("Version", EventFormat.named("Bluetooth " + (versionName ?? "reserved"), version))
        f.add("Company identifier", EventFormat.hex16(companyIdentifier))
        f.add("Subversion", EventFormat.hex16(subversion))
    }
}
