/// A list of service UUIDs: offered (complete or incomplete) or solicited
/// (Core Specification Supplement Part A §1.1 and §1.10).
public struct ServiceUUIDList: Hashable, Sendable {
    /// One of the list types 0x02–0x07, 0x14, 0x15, 0x1F; it fixes the width of every entry.
    public var type: ADType
    public var uuids: [BluetoothUUID]

    public init(type: ADType, uuids: [BluetoothUUID]) {
        self.type = type
        self.uuids = uuids
    }

    /// A list of offered services of one width.
    public init(_ uuids: [BluetoothUUID], width: BluetoothUUID.Width, complete: Bool = true) {
        self.init(type: .serviceUUIDList(width, complete: complete), uuids: uuids)
    }

    /// A list of solicited services of one width.
    public init(soliciting uuids: [BluetoothUUID], width: BluetoothUUID.Width) {
        self.init(type: .solicitationList(width), uuids: uuids)
    }

    public var width: BluetoothUUID.Width { type.uuidWidth ?? .bits128 }

    /// Complete lists say the peer offers no other service of this width; solicitation lists
    /// are never called complete.
    public var isComplete: Bool { type.rawValue == 0x03 || type.rawValue == 0x05 || type.rawValue == 0x07 }

    public var isSolicitation: Bool { type.isSolicitationList }

    static func decode(type: ADType, data: ArraySlice<UInt8>) throws(WireError) -> ServiceUUIDList {
        let width = type.uuidWidth ?? .bits128
        if data.count % width.byteCount != 0 {
            throw WireError.malformed("\(type.name): \(data.count) byte(s) is not a multiple of \(width.byteCount)")
        }
        var r = ByteReader(data)
        var out: [BluetoothUUID] = []
        out.reserveCapacity(data.count / width.byteCount)
        while !r.isAtEnd { out.append(try BluetoothUUID(reading: &r, width: width)) }
        return ServiceUUIDList(type: type, uuids: out)
    }

    func encodeData(into w: inout ByteWriter) {
        for u in uuids { u.write(to: &w, width: width) }
    }
}
