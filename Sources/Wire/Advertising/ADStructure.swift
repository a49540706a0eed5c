/// One AD structure: a length octet, an AD type octet and `length - 1` data octets
/// (Core Spec v5.4 Vol 3, Part C, §11, Figure 11.1).
public struct ADStructure: Sendable, Hashable {
    public var type: ADType
    /// The data octets; a slice of the advertising data when parsed (no copy).
    public var data: ArraySlice<UInt8>
    /// Where the length octet sat in the advertising data it was parsed from (0 for a
    /// structure made in code). Not part of the value: equality looks at type and data only.
    public var offset: Int

    public init(type: ADType, data: ArraySlice<UInt8>, offset: Int = 0) {
        self.type = type
        self.data = data
        self.offset = offset
    }

    public init(type: ADType, data: [UInt8]) {
        self.init(type: type, data: data[...])
    }

    /// The structure that carries `value`.
    public init(_ value: ADValue) {
        self.init(type: value.type, data: value.encodedData[...])
    }

    public static func == (l: ADStructure, r: ADStructure) -> Bool { l.type == r.type && l.data == r.data }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(data)
    }

    /// The typed content; throws when the octets cannot hold the type's fields.
    public func decodeValue() throws(WireError) -> ADValue {
        try ADValue.decode(type: type, data: data)
    }

    /// The typed content, nil when malformed (see `problem`).
    public var value: ADValue? { try? decodeValue() }

    /// Why the data cannot be decoded as its type; nil when it can.
    public var problem: WireError? { ADValue.check(type: type, data: data) }

    /// Octets the structure takes on the wire, length octet included.
    public var encodedCount: Int { data.count + 2 }

    /// Writes length, type and data. Data longer than 254 octets cannot be expressed by the
    /// length octet; it is written with the length cut to 8 bits (malformed on purpose).
    public func encode(into w: inout ByteWriter) {
        w.u8(UInt8(truncatingIfNeeded: data.count + 1))
        w.u8(type.rawValue)
        w.append(data)
    }
}

/// What ended the significant part of advertising data early: a zero length octet, after
/// which the specification allows only padding (Core Spec v5.4 Vol 3, Part C, §11).
public struct ADPadding: Hashable, Sendable, CustomStringConvertible {
    /// Offset of the zero length octet.
    public var offset: Int
    /// Octets from that zero octet to the end, the zero octet included.
    public var length: Int
    /// Whether every padding octet is zero, as the specification asks senders to make it.
    public var isAllZero: Bool

    public init(offset: Int, length: Int, isAllZero: Bool) {
        self.offset = offset
        self.length = length
        self.isAllZero = isAllZero
    }

    public var description: String {
        "\(length) octet(s) at offset \(offset) after a zero-length AD structure"
            + (isAllZero ? "" : " (not all zero)")
    }
}

/// Something wrong with advertising data. Parsing never stops at a malformed structure's
/// content, only at a length that leaves the buffer; everything before stays decoded.
public enum ADIssue: Equatable, Sendable, CustomStringConvertible {
    /// A length octet claims more octets than remain. Parsing stops there.
    case lengthOverrun(offset: Int, type: ADType?, length: Int, available: Int)
    /// A structure's data cannot hold the fields of its type (odd UUID list, short Appearance…).
    case malformedStructure(offset: Int, type: ADType, error: WireError)

    public var offset: Int {
        switch self {
        case .lengthOverrun(let o, _, _, _), .malformedStructure(let o, _, _): return o
        }
    }

    public var description: String {
        switch self {
        case let .lengthOverrun(offset, type, length, available):
            let what = type.map { $0.name + ": " } ?? ""
            return "\(what)length \(length) at offset \(offset) overruns the data (\(available) octet(s) left)"
        case let .malformedStructure(offset, type, error):
            return "\(type.name) at offset \(offset): \(error)"
        }
    }
}

/// Walks the AD structures of a buffer without allocating; `AdvertisingData` is built on it,
/// and a scanner can use it directly to look for one type.
public struct ADStructureIterator: IteratorProtocol, Sendable {
    private let bytes: ArraySlice<UInt8>
    private var position: Int
    /// Set when the walk stopped at a zero length octet.
    public private(set) var padding: ADPadding?
    /// Set when the walk stopped at a length that overruns the buffer.
    public private(set) var overrun: ADIssue?

    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    public mutating func next() -> ADStructure? {
        guard let place = nextPlace() else { return nil }
        return ADStructure(type: place.type, data: bytes[place.data], offset: place.offset)
    }

    /// Where the next structure lies, without making an `ADStructure`: plain numbers, so a
    /// walk that only looks for a type (or builds the structure itself) counts no references.
    mutating func nextPlace() -> (type: ADType, data: Range<Int>, offset: Int)? {
        guard position < bytes.endIndex else { return nil }
        let start = position
        let length = Int(bytes[start])
        let offset = start - bytes.startIndex
        if length == 0 {
            let rest = bytes[start...]
            padding = ADPadding(offset: offset, length: rest.count, isAllZero: rest.allSatisfy { $0 == 0 })
            position = bytes.endIndex
            return nil
        }
        let available = bytes.endIndex - start - 1
        if length > available {
            let type = available >= 1 ? ADType(bytes[start + 1]) : nil
            overrun = .lengthOverrun(offset: offset, type: type, length: length, available: available)
            position = bytes.endIndex
            return nil
        }
        position = start + 1 + length
        return (ADType(bytes[start + 1]), (start + 2)..<position, offset)
    }
}

/// The AD structures of a buffer as a lazy sequence.
public struct ADStructures: Sequence, Sendable {
    public let bytes: ArraySlice<UInt8>
    public init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
    public func makeIterator() -> ADStructureIterator { ADStructureIterator(bytes) }
}
