import Glibc
import Wire

/// Writes monitor frames as they arrive, every opcode kept (adapters, notes, control
/// sockets): btsnoop datalink 2001, what btmon writes and `rtstack decode` reads, or pcap
/// LINKTYPE_BLUETOOTH_LINUX_MONITOR (254), what Wireshark reads from a pipe
/// (`rtstack monitor --write - | wireshark -k -i -`). One write(2) per frame, no user-space
/// buffer: the file is readable up to the last frame after a crash, and a pipe reader sees
/// each frame at once.
public final class MonitorCaptureWriter {
    public enum Format: Sendable, Hashable {
        case btsnoop
        case pcap
    }

    public let format: Format
    private let sink: WriteOnlyFile
    private var scratch: [UInt8] = []

    public var path: String { sink.path }

    /// `-` writes pcap to standard output; otherwise the extension picks the format
    /// (`.btsnoop`/`.log` btsnoop 2001, `.pcap` pcap 254).
    public init(path: String) throws(CaptureError) {
        if path == "-" {
            format = .pcap
            sink = WriteOnlyFile(descriptor: 1, path: "standard output")
        } else {
            switch CaptureWriterFactory.kind(forPath: path) {
            case .btsnoop: format = .btsnoop
            case .pcap: format = .pcap
            case nil: throw .unsupportedFileExtension(path: path)
            }
            sink = try WriteOnlyFile(path: path)
        }
        switch format {
        case .btsnoop: try sink.writeAll(BtsnoopFormat.fileHeader(datalink: BtsnoopFormat.datalinkMonitor))
        case .pcap: try sink.writeAll(PcapFormat.fileHeader(linkType: PcapFormat.linkTypeLinuxMonitor))
        }
        scratch.reserveCapacity(2048)
    }

    public func write(_ frame: MonitorFrame) throws(CaptureError) {
        scratch.removeAll(keepingCapacity: true)
        switch format {
        case .btsnoop: try BtsnoopFormat.appendMonitorRecord(frame, to: &scratch)
        case .pcap: try PcapFormat.appendMonitorRecord(frame, to: &scratch)
        }
        try sink.writeAll(scratch)
    }

    public func flush() throws(CaptureError) { try sink.sync() }
    public func close() throws(CaptureError) { try sink.close() }
}

extension BtsnoopFormat {
    /// Appends `frame` as a datalink 2001 record: flags = adapter index << 16 | opcode, the
    /// payload without an H4 indicator.
    public static func appendMonitorRecord(_ frame: MonitorFrame, to out: inout [UInt8]) throws(CaptureError) {
        let length = frame.payload.count
        guard length <= maximumIncludedLength else {
            throw .unrepresentable(reason: "frame of \(length) bytes exceeds the 1 MiB record limit")
        }
        appendU32BE(UInt32(truncatingIfNeeded: length), to: &out)   // original length
        appendU32BE(UInt32(truncatingIfNeeded: length), to: &out)   // included length
        appendU32BE(UInt32(frame.adapterIndex) << 16 | UInt32(frame.opcode.rawValue), to: &out)
        appendU32BE(0, to: &out)                                    // cumulative drops
        let stamp = frame.timestampMicros &+ epochOffsetMicros
        appendU32BE(UInt32(truncatingIfNeeded: UInt64(bitPattern: stamp) >> 32), to: &out)
        appendU32BE(UInt32(truncatingIfNeeded: UInt64(bitPattern: stamp)), to: &out)
        out.append(contentsOf: frame.payload)
    }
}

extension PcapFormat {
    /// LINKTYPE_BLUETOOTH_LINUX_MONITOR: a 4-octet pseudo-header, adapter index and opcode,
    /// each 2 octets big-endian (libpcap's pcap-bt-monitor-linux), then the frame's payload.
    public static let linkTypeLinuxMonitor: UInt32 = 254
    public static let monitorHeaderLength = 4

    /// Appends `frame` as a LINKTYPE 254 record, little-endian header, µs timestamp.
    public static func appendMonitorRecord(_ frame: MonitorFrame, to out: inout [UInt8]) throws(CaptureError) {
        let length = frame.payload.count + monitorHeaderLength
        guard length <= BtsnoopFormat.maximumIncludedLength else {
            throw .unrepresentable(reason: "frame of \(length) bytes exceeds the 1 MiB record limit")
        }
        try appendRecordHeader(timestampMicros: frame.timestampMicros, length: length, to: &out)
        out.append(UInt8(truncatingIfNeeded: frame.adapterIndex >> 8))
        out.append(UInt8(truncatingIfNeeded: frame.adapterIndex))
        out.append(UInt8(truncatingIfNeeded: frame.opcode.rawValue >> 8))
        out.append(UInt8(truncatingIfNeeded: frame.opcode.rawValue))
        out.append(contentsOf: frame.payload)
    }
}
