/// L2CAP_COMMAND_REJECT_RSP data (Core Spec v5.4 Vol 3, Part A, §4.1): Reason, then 0–4 bytes
/// whose meaning depends on the reason. The data is kept raw so an unexpected reason or size
/// still round-trips; the typed views below read it when it has the expected size.
public struct L2CAPCommandReject: Sendable, Hashable {
    public var reason: L2CAPCommandRejectReason
    public var data: ArraySlice<UInt8>

    public init(reason: L2CAPCommandRejectReason, data: ArraySlice<UInt8> = []) {
        self.reason = reason
        self.data = data
    }

    /// Rejects for an exceeded signaling MTU, telling the peer the MTU (Actual MTU field).
    public static func signalingMTUExceeded(actualMTU: UInt16) -> L2CAPCommandReject {
        var w = ByteWriter(capacity: 2)
        w.u16(actualMTU)
        return L2CAPCommandReject(reason: .signalingMTUExceeded, data: w.bytes[...])
    }

    /// Rejects a request that named a CID with no channel (Local CID, Remote CID fields).
    public static func invalidCIDInRequest(localCID: UInt16, remoteCID: UInt16) -> L2CAPCommandReject {
        var w = ByteWriter(capacity: 4)
        w.u16(localCID)
        w.u16(remoteCID)
        return L2CAPCommandReject(reason: .invalidCIDInRequest, data: w.bytes[...])
    }

    /// Actual MTU, for a Signaling MTU exceeded reject with 2 data bytes.
    public var actualMTU: UInt16? {
        guard reason == .signalingMTUExceeded, data.count == 2 else { return nil }
        var r = ByteReader(data)
        return try? r.u16()
    }

    /// Local and remote CID, for an Invalid CID in request reject with 4 data bytes.
    public var invalidCIDs: (local: UInt16, remote: UInt16)? {
        guard reason == .invalidCIDInRequest, data.count == 4 else { return nil }
        var r = ByteReader(data)
        guard let local = try? r.u16(), let remote = try? r.u16() else { return nil }
        return (local, remote)
    }

    init(data bytes: ArraySlice<UInt8>) throws(WireError) {
        var r = ByteReader(bytes)
        reason = L2CAPCommandRejectReason(try r.u16("Command Reject reason"))
        data = r.rest()
    }

    func encode(into writer: inout ByteWriter) {
        writer.u16(reason.rawValue)
        writer.append(data)
    }
}

extension L2CAPCommandReject {
    /// Reason and the data it implies; the same on both signaling channels.
    func describeFields(into fields: inout FieldList) {
        fields.add("Reason", reason.description)
        if let mtu = actualMTU {
            fields.add("Actual MTU", String(mtu))
        } else if let cids = invalidCIDs {
            fields.add("Local CID", L2CAPText.hex16(cids.local))
            fields.add("Remote CID", L2CAPText.hex16(cids.remote))
        } else if !data.isEmpty {
            fields.add("Data", L2CAPText.bytes(data))
        }
    }
}
