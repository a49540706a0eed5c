extension BluetoothUUID {
    /// The width a UUID is carried in on the wire. Advertising data has all three forms; ATT has
    /// only 16 and 128 bits (Core Spec Vol 3, Part B, §2.5.1).
    public enum Width: Int, Sendable, Hashable, CaseIterable {
        case bits16 = 2
        case bits32 = 4
        case bits128 = 16

        /// Bytes one UUID of this width takes.
        @inlinable public var byteCount: Int { rawValue }

        public var name: String {
            switch self {
            case .bits16: return "16-bit"
            case .bits32: return "32-bit"
            case .bits128: return "128-bit"
            }
        }
    }

    /// The narrowest width that carries this UUID without loss.
    public var shortestWidth: Width {
        if uuid16 != nil { return .bits16 }
        if uuid32 != nil { return .bits32 }
        return .bits128
    }

    /// Whether the UUID can be written in `width` without loss.
    public func fits(_ width: Width) -> Bool {
        switch width {
        case .bits16: return uuid16 != nil
        case .bits32: return uuid32 != nil
        case .bits128: return true
        }
    }

    /// Appends the UUID in `width` little-endian bytes. A UUID that does not fit a narrow width
    /// is written as the low bits of its alias position (what a careless peer would send), so an
    /// encoder for malformed test input stays possible; check `fits(_:)` first for real output.
    public func write(to writer: inout ByteWriter, width: Width) {
        let alias = UInt32(truncatingIfNeeded: high >> 32)
        switch width {
        case .bits16: writer.u16(UInt16(truncatingIfNeeded: alias))
        case .bits32: writer.u32(alias)
        case .bits128:
            writer.u64(low)
            writer.u64(high)
        }
    }

    /// Reads one UUID of `width` from little-endian wire bytes.
    public init(reading reader: inout ByteReader, width: Width) throws(WireError) {
        switch width {
        case .bits16: self.init(try reader.u16("UUID16"))
        case .bits32: self.init(uuid32: try reader.u32("UUID32"))
        case .bits128:
            let lo = try reader.u64("UUID128")
            let hi = try reader.u64("UUID128")
            self.init(high: hi, low: lo)
        }
    }
}
