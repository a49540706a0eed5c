/// Which container a `CaptureReader` found, with the header values that shape its records.
public enum CaptureFormat: Sendable, Hashable, CustomStringConvertible {
    /// btsnoop version 1; `datalink` is 1001, 1002 or 2001 (see `BtsnoopFormat`).
    case btsnoop(datalink: UInt32)
    /// Classic libpcap; `linktype` is 187, 201 or 254 (see `PcapFormat`).
    case pcap(linktype: UInt32, nanoseconds: Bool, bigEndian: Bool)
    /// pcapng: byte order and link types are per section and per interface, so they live in
    /// the blocks, not here.
    case pcapng

    /// Whether records carry the Linux monitor's adapter index and non-HCI opcodes
    /// (btsnoop 2001, pcap 254).
    public var isLinuxMonitor: Bool {
        switch self {
        case .btsnoop(let datalink): return datalink == BtsnoopFormat.datalinkMonitor
        case .pcap(let linktype, _, _): return linktype == PcapFormat.linkTypeLinuxMonitor
        case .pcapng: return false
        }
    }

    public var description: String {
        switch self {
        case let .btsnoop(datalink):
            return "btsnoop v1, datalink \(datalink) (\(BtsnoopFormat.datalinkName(datalink)))"
        case let .pcap(linktype, nanoseconds, bigEndian):
            return "pcap \(bigEndian ? "big" : "little")-endian, \(nanoseconds ? "ns" : "µs") timestamps, "
                + "LINKTYPE \(linktype) (\(PcapFormat.linkTypeName(linktype)))"
        case .pcapng:
            return "pcapng"
        }
    }
}
