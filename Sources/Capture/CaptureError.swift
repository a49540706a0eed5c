import Wire

/// Why a capture file could not be read or written. Every case says where (byte offset or
/// path) and what was expected, so a user can look at the file with a hex viewer.
public enum CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// open(2) failed; `reason` is strerror's text.
    case cannotOpen(path: String, errno: Int32, reason: String)
    /// read/write/fsync failed part-way.
    case ioFailed(operation: String, offset: Int, errno: Int32, reason: String)
    case emptyFile
    /// The first bytes match none of the magics.
    case notACaptureFile(firstBytes: [UInt8])
    case unsupportedVersion(offset: Int, format: String, version: UInt32, supported: String)
    /// btsnoop datalink other than 1001, 1002, 2001.
    case unsupportedDatalink(offset: Int, datalink: UInt32)
    /// pcap network field or pcapng IDB link type other than 187, 201.
    case unsupportedLinkType(offset: Int, linkType: UInt32)
    /// The file ends inside `what`, which announced `length` bytes (`lengthName`).
    case truncated(offset: Int, what: String, lengthName: String, length: Int, available: Int)
    /// A length field no sane writer produces (over 1 MiB, or included > original).
    case implausibleLength(offset: Int, field: String, value: Int, reason: String)
    /// H4 packet indicator outside 0x01…0x05.
    case unknownPacketType(offset: Int, type: UInt8)
    /// The framing contradicts the format (block lengths, byte-order magic, …): the reader
    /// cannot find the next record.
    case malformed(offset: Int, reason: String)
    /// One record or block is wrong inside intact framing; it has been skipped.
    case badRecord(offset: Int, reason: String)
    /// A pcapng packet arrived on an interface whose IDB declared a link type this reader
    /// does not decode; the packet has been skipped.
    case unsupportedInterfaceLinkType(offset: Int, interface: UInt32, linkType: UInt32)
    case unsupportedFileExtension(path: String)
    /// A record the target format cannot express (a pcap timestamp before 1970, …).
    case unrepresentable(reason: String)
    case writerClosed(path: String)

    /// True when the reader lost its place in the file and cannot continue: every later
    /// `next()` throws the same error. False for a bad record inside intact framing
    /// (`badRecord`, `unknownPacketType`, `unsupportedInterfaceLinkType`): that record is
    /// consumed and the next `next()` carries on after it.
    public var endsStream: Bool {
        switch self {
        case .badRecord, .unknownPacketType, .unsupportedInterfaceLinkType,
             .unrepresentable, .unsupportedFileExtension, .writerClosed:
            return false
        default:
            return true
        }
    }

    public var description: String {
        switch self {
        case let .cannotOpen(path, errno, reason):
            return "cannot open \(path): \(reason) (errno \(errno))"
        case let .ioFailed(operation, offset, errno, reason):
            return "\(operation) failed at offset \(offset): \(reason) (errno \(errno))"
        case .emptyFile:
            return "empty file (0 bytes): not a btsnoop, pcap or pcapng file"
        case let .notACaptureFile(firstBytes):
            return "not a btsnoop, pcap or pcapng file: first bytes \(Hex.spaced(firstBytes))"
                + (firstBytes.count >= 16 ? " …" : "")
                + " (expected \"btsnoop\\0\", a1 b2 c3 d4 / d4 c3 b2 a1 / a1 b2 3c 4d / 4d 3c b2 a1, or 0a 0d 0d 0a)"
        case let .unsupportedVersion(offset, format, version, supported):
            return "unsupported \(format) version \(version) at offset \(offset); supported: \(supported)"
        case let .unsupportedDatalink(offset, datalink):
            return "unsupported btsnoop datalink \(datalink) (\(BtsnoopFormat.datalinkName(datalink))) at offset \(offset); "
                + "supported: 1001 (HCI without H4 byte), 1002 (HCI UART/H4), 2001 (Linux monitor)"
        case let .unsupportedLinkType(offset, linkType):
            return "unsupported link type \(linkType) (\(PcapFormat.linkTypeName(linkType))) at offset \(offset); "
                + "supported: 187 (BLUETOOTH_HCI_H4), 201 (BLUETOOTH_HCI_H4_WITH_PHDR)"
        case let .truncated(offset, what, lengthName, length, available):
            return "truncated \(what) at offset \(offset) (\(lengthName) \(length), only \(available) bytes left)"
        case let .implausibleLength(offset, field, value, reason):
            return "implausible \(field) \(value) at offset \(offset): \(reason)"
        case let .unknownPacketType(offset, type):
            return "unknown H4 packet type 0x\(Hex.string([type])) at offset \(offset); "
                + "known: 0x01 command, 0x02 ACL, 0x03 SCO, 0x04 event, 0x05 ISO"
        case let .malformed(offset, reason):
            return "malformed capture at offset \(offset): \(reason)"
        case let .badRecord(offset, reason):
            return "bad record at offset \(offset), skipped: \(reason)"
        case let .unsupportedInterfaceLinkType(offset, interface, linkType):
            return "packet at offset \(offset) skipped: its interface \(interface) has link type \(linkType) "
                + "(\(PcapFormat.linkTypeName(linkType))); supported: 187 (BLUETOOTH_HCI_H4), 201 (BLUETOOTH_HCI_H4_WITH_PHDR)"
        case let .unsupportedFileExtension(path):
            return "cannot choose a capture format for \(path): use .btsnoop or .log (btsnoop) or .pcap (pcap)"
        case let .unrepresentable(reason):
            return "cannot write record: \(reason)"
        case let .writerClosed(path):
            return "capture writer for \(path) is already closed"
        }
    }
}
