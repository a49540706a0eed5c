/// HCI_LE_PHY_Update_Complete (Vol 4, Part E, §7.7.65.12): the PHYs now in use on a link.
public struct LEPHYUpdateCompleteEvent: WireCodable, FieldDescribing, Hashable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var txPHY: LEPHY
    public var rxPHY: LEPHY

    public init(status: HCIStatus = .success, connectionHandle: UInt16, txPHY: LEPHY, rxPHY: LEPHY) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.txPHY = txPHY
        self.rxPHY = rxPHY
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        status = try r.eventStatus()
        connectionHandle = try r.eventConnectionHandle()
        txPHY = LEPHY(rawValue: try r.u8("TX_PHY"))
        rxPHY = LEPHY(rawValue: try r.u8("RX_PHY"))
    }

    public func encode(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        w.u8(txPHY.rawValue)
        w.u8(rxPHY.rawValue)
    }

    public var summary: String {
        "handle " + EventFormat.handle(connectionHandle) + " tx " + txPHY.name + " rx " + rxPHY.name
            + (status.isSuccess ? "" : " status " + statusText(status))
    }

    public func describeFields(into f: inout FieldList) {
        f.add("Status", statusText(status))
        f.add("Connection handle", EventFormat.handle(connectionHandle))
        f.add("TX PHY", txPHY.description)
        f.add("RX PHY", rxPHY.description)
    }
}
