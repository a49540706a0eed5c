/// One tuple of a Length Value Tuple List: the value's full length and the bytes present.
public struct ATTLengthValue: Sendable, Hashable {
    /// Length field: the attribute value's full length.
    public var length: UInt16
    public var value: ArraySlice<UInt8>

    public init(length: UInt16, value: ArraySlice<UInt8>) {
        self.length = length
        self.value = value
    }

    /// The last tuple may be cut by the ATT_MTU (§3.4.4.12); then fewer bytes than `length`.
    public var isTruncated: Bool { value.count < Int(length) }
}

/// ATT_READ_MULTIPLE_VARIABLE_RSP parameters (Core Spec v5.4 Vol 3, Part F, §3.4.4.12).
///
/// Kept as the raw Length Value Tuple List because the server cuts the list at ATT_MTU − 1
/// bytes, possibly inside the last value or even its Length field, so the list is not
/// self-delimiting at its end; `values` reads it leniently.
public struct ATTReadMultipleVariableResponse: Sendable, Hashable {
    public var lengthValueTupleList: ArraySlice<UInt8>

    public init(lengthValueTupleList: ArraySlice<UInt8>) {
        self.lengthValueTupleList = lengthValueTupleList
    }

    /// Builds the list from whole values (lengths clamped to 65535).
    public init(values: [ArraySlice<UInt8>]) {
        var w = ByteWriter(capacity: values.reduce(0) { $0 + 2 + $1.count })
        for v in values {
            w.u16(UInt16(clamping: v.count))
            w.append(v)
        }
        lengthValueTupleList = w.bytes[...]
    }

    /// The tuples, in order; the last one may be truncated, and a final lone byte (a cut
    /// Length field) is ignored.
    public var values: [ATTLengthValue] {
        var out: [ATTLengthValue] = []
        var r = ByteReader(lengthValueTupleList)
        while r.count >= 2, let length = try? r.u16() {
            let n = min(Int(length), r.count)
            guard let value = try? r.bytes(n) else { break }
            out.append(ATTLengthValue(length: length, value: value))
        }
        return out
    }
}
