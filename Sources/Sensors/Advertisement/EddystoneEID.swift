import Wire

/// Eddystone-EID (eddystone-eid/README.md): Tx power at 0 m (int8) and an 8-octet ephemeral id
/// that rotates; only a resolver holding the beacon's key can map it to the beacon.
public struct EddystoneEID: Sendable, Hashable, WireCodable {
    public var txPower: Int8
    public var ephemeralID: [UInt8]

    public init(txPower: Int8, ephemeralID: [UInt8]) {
        self.txPower = txPower
        self.ephemeralID = ephemeralID
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        txPower = try r.i8("Eddystone-EID Tx power")
        ephemeralID = Array(try r.bytes(8, "Eddystone-EID ephemeral id"))
    }

    public func encode(into w: inout ByteWriter) {
        w.i8(txPower)
        w.append(ephemeralID.prefix(8))
    }
}
