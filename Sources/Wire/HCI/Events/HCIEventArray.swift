/// The repeated part of an event that carries Num_Reports or Num_Handles elements, each
/// element's fields together, one element after the other (the layout of Core 5.x).
///
/// It is a view on the event's bytes: the elements were checked when the event was decoded,
/// and are decoded again while iterating, so receiving an event allocates nothing per
/// element — Number Of Completed Packets and advertising reports arrive by the hundred.
public struct HCIEventArray<Element: WireCodable>: Sequence, Hashable, Sendable {
    /// Number of elements (the Num_Reports / Num_Handles parameter).
    public let count: Int
    /// Exactly the elements' bytes, nothing after them.
    public let bytes: ArraySlice<UInt8>

    /// Encodes `elements`; an HCI event counts them in one byte, so at most 255 are kept.
    public init(_ elements: [Element]) {
        var w = ByteWriter(capacity: elements.count * 16)
        let kept = elements.prefix(255)
        for e in kept { e.encode(into: &w) }
        count = kept.count
        bytes = w.bytes[...]
    }

    /// Checks `count` elements at the reader and takes their bytes.
    init(count: Int, decoding reader: inout ByteReader) throws(WireError) {
        var probe = reader
        for _ in 0..<count { _ = try Element(decoding: &probe) }
        bytes = try reader.bytes(probe.offset - reader.offset)
        self.count = count
    }

    /// Takes `count` elements of `size` bytes each without decoding them: for element types
    /// whose every byte pattern is valid, so that checking the length is checking them all.
    init(count: Int, fixedSize size: Int, from reader: inout ByteReader) throws(WireError) {
        bytes = try reader.bytes(count * size, "elements")
        self.count = count
    }

    public var isEmpty: Bool { count == 0 }
    public var underestimatedCount: Int { count }

    public var first: Element? {
        var it = makeIterator()
        return it.next()
    }

    public struct Iterator: IteratorProtocol {
        @usableFromInline var reader: ByteReader
        @usableFromInline var left: Int

        @inlinable init(reader: ByteReader, left: Int) {
            self.reader = reader
            self.left = left
        }

        @inlinable public mutating func next() -> Element? {
            guard left > 0 else { return nil }
            left -= 1
            // Cannot fail: the same bytes were decoded when the event was.
            return try? Element(decoding: &reader)
        }
    }

    @inlinable public func makeIterator() -> Iterator {
        Iterator(reader: ByteReader(bytes), left: count)
    }

    /// Writes the elements' bytes (the count is written by the event, before them).
    func encode(into writer: inout ByteWriter) {
        writer.append(bytes)
    }
}
