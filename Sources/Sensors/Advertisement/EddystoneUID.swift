import Wire

/// Eddystone-UID (eddystone-uid/README.md): Tx power at 0 m (int8), a 10-octet namespace and a
/// 6-octet instance, then two reserved octets that many beacons leave out (accepted either way).
public struct EddystoneUID: Sendable, Hashable, WireCodable {
    /// Calibrated Tx power at 0 m, dBm.
    public var txPower: Int8
    public var namespace: [UInt8]
    public var instance: [UInt8]

    public init(txPower: Int8, namespace: [UInt8], instance: [UInt8]) {
        self.txPower = txPower
        self.namespace = namespace
        self.instance = instance
    }

    public init(decoding r: inout ByteReader) throws(WireError) {
        txPower = try r.i8("Eddystone-UID Tx power")
        namespace = Array(try r.bytes(10, "Eddystone-UID namespace"))
        instance = Array(try r.bytes(6, "Eddystone-UID instance"))
        _ = r.rest()   // reserved, optional
    }

    public func encode(into w: inout ByteWriter) {
        w.i8(txPower)
        w.append(namespace.prefix(10))
        w.append(instance.prefix(6))
        w.u16(0)
    }

    /// "namespace-instance" in hex, the beacon's id.
    public var beaconID: String { Hex.string(namespace) + "-" + Hex.string(instance) }
}
