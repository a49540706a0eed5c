import Wire

/// Classic libpcap files (draft-ietf-opsawg-pcap): a 24-byte global header, then records with
/// a 16-byte header, integers in the writer's byte order (told by the magic).
public enum PcapFormat {
    public static let magicMicroseconds: UInt32 = 0xa1b2_c3d4
    public static let magicNanoseconds: UInt32 = 0xa1b2_3c4d
    public static let fileHeaderLength = 24
    public static let recordHeaderLength = 16

    /// LINKTYPE_BLUETOOTH_HCI_H4: the H4 packet, no direction.
    public static let linkTypeH4: UInt32 = 187
    /// LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR: a 4-byte big-endian direction word, then H4.
    public static let linkTypeH4WithPHDR: UInt32 = 201
    /// Types a pcap file may have (254, Linux monitor, in pcap files only; pcapng interfaces
    /// take 187 and 201).
    public static let supportedLinkTypes: [UInt32] = [linkTypeH4, linkTypeH4WithPHDR, 254]
    public static let supportedInterfaceLinkTypes: [UInt32] = [linkTypeH4, linkTypeH4WithPHDR]
    /// Pseudo-header bit 0 under LINKTYPE 201: set = received (controller → host).
    public static let phdrReceived: UInt32 = 1
    /// Snapshot length written by `PcapWriter` (libpcap's maximum).
    public static let writerSnapLength: UInt32 = 262_144

    public static func linkTypeName(_ linkType: UInt32) -> String {
        switch linkType {
        case 1: return "ETHERNET"
        case 99: return "BLUETOOTH_HCI_H4 (obsolete 99)"
        case 187: return "BLUETOOTH_HCI_H4"
        case 201: return "BLUETOOTH_HCI_H4_WITH_PHDR"
        case 251: return "BLUETOOTH_LE_LL"
        case 254: return "BLUETOOTH_LINUX_MONITOR"
        case 255: return "BLUETOOTH_BREDR_BB"
        case 256: return "BLUETOOTH_LE_LL_WITH_PHDR"
        default: return "unknown"
        }
    }

    /// The 24-byte global header, little-endian, microsecond timestamps.
    public static func fileHeader(linkType: UInt32 = linkTypeH4WithPHDR) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(fileHeaderLength)
        appendU32LE(magicMicroseconds, to: &out)
        out.append(contentsOf: [2, 0, 4, 0])        // version 2.4
        appendU32LE(0, to: &out)                    // thiszone (reserved)
        appendU32LE(0, to: &out)                    // sigfigs (reserved)
        appendU32LE(writerSnapLength, to: &out)
        appendU32LE(linkType, to: &out)
        return out
    }

    /// Appends `record` as a LINKTYPE 201 record, little-endian header, µs timestamp.
    public static func appendRecord(_ record: CaptureRecord, to out: inout [UInt8]) throws(CaptureError) {
        let length = record.packet.bytes.count + 5
        guard length <= BtsnoopFormat.maximumIncludedLength else {
            throw .unrepresentable(reason: "packet of \(length) bytes exceeds the 1 MiB record limit")
        }
        try appendRecordHeader(timestampMicros: record.timestampMicros, length: length, to: &out)
        appendU32BE(record.direction == .controllerToHost ? phdrReceived : 0, to: &out)
        out.append(record.packet.type.rawValue)
        out.append(contentsOf: record.packet.bytes)
    }

    /// The 16-byte record header, little-endian: seconds, µs, included and original length.
    static func appendRecordHeader(timestampMicros: Int64, length: Int, to out: inout [UInt8]) throws(CaptureError) {
        let (seconds, micros) = timestampMicros.quotientAndRemainder(dividingBy: 1_000_000)
        let wholeSeconds = micros < 0 ? seconds - 1 : seconds
        let fraction = micros < 0 ? micros + 1_000_000 : micros
        guard let sec = UInt32(exactly: wholeSeconds) else {
            throw .unrepresentable(reason: "timestamp \(timestampMicros) µs lies outside pcap's 1970…2106 range")
        }
        appendU32LE(sec, to: &out)
        appendU32LE(UInt32(truncatingIfNeeded: fraction), to: &out)
        appendU32LE(UInt32(truncatingIfNeeded: length), to: &out)   // included length
        appendU32LE(UInt32(truncatingIfNeeded: length), to: &out)   // original length
    }
}
