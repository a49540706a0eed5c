/// HCI_LE_Read_Remote_Features_Complete (Vol 4, Part E, §7.7.65.4): the peer's link layer
/// feature bits (Vol 6, Part B, §4.6), e.g. whether it supports Data Length Extension or 2M.
public struct LEReadRemoteFeaturesCompleteEvent: WireCodable, FieldDescribing, Hashable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    /// LE_Features as a little-endian 64-bit mask: bit n is feature bit n.
    public var leFeatures: UInt64

    public init(status: HCIStatus = .success, connectionHandle: UInt16, leFeatures: UInt64) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.leFeatures = leFeatures
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        status = try r.eventStatus()
        connectionHandle = try r.eventConnectionHandle()
        leFeatures = try r.u64("LE_Features")
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        w.u64(leFeatures)
    }

    public func hasFeature(bit: Int) -> Bool {
        bit >= 0 && bit < 64 && leFeatures & (1 << UInt64(bit)) != 0
    }

    public var summary: String {
        "handle " + EventFormat.handle(connectionHandle) + " features " + Hex.number(leFeatures, width: 16)
            + (status.isSuccess ? "" : " status " + statusText(status))
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Status", statusText(status))
        f.add("Connection handle", EventFormat.handle(connectionHandle))
        f.add("LE features", Hex.number(leFeatures, width: 16))
    }
}
