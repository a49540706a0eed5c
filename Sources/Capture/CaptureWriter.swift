/// A sink that appends records to a capture file as they happen.
///
/// Writers keep no user-space buffer: each record goes out in one write(2), so after a crash
/// the file is readable up to the last packet written.
public protocol CaptureWriter: AnyObject {
    var path: String { get }
    func write(_ record: CaptureRecord) throws(CaptureError)
    /// Asks the kernel to put what was written on stable storage (fdatasync).
    func flush() throws(CaptureError)
    /// Closes the file; later writes throw `CaptureError.writerClosed`.
    func close() throws(CaptureError)
}

/// Picks a writer from the file name, so `--capture x.btsnoop` / `x.pcap` just works.
public enum CaptureWriterFactory {
    public enum Kind: Sendable, Hashable {
        case btsnoop
        case pcap
    }

    /// The format for a file name: `.btsnoop` and `.log` (Android's `btsnoop_hci.log`) →
    /// btsnoop, `.pcap` → pcap; nil for anything else. Case-insensitive.
    public static func kind(forPath path: String) -> Kind? {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "btsnoop", "log": return .btsnoop
        case "pcap": return .pcap
        default: return nil
        }
    }

    /// Creates (or truncates) `path` and writes the file header.
    public static func create(path: String) throws(CaptureError) -> any CaptureWriter {
        switch kind(forPath: path) {
        case .btsnoop: return try BtsnoopWriter(path: path)
        case .pcap: return try PcapWriter(path: path)
        case nil: throw .unsupportedFileExtension(path: path)
        }
    }
}

/// btsnoop v1, datalink 1002 (H4), the format Android and btmon write and Wireshark reads.
public final class BtsnoopWriter: CaptureWriter {
    private let sink: WriteOnlyFile
    private var scratch: [UInt8] = []

    public var path: String { sink.path }

    public init(path: String) throws(CaptureError) {
        sink = try WriteOnlyFile(path: path)
        try sink.writeAll(BtsnoopFormat.fileHeader(datalink: BtsnoopFormat.datalinkUART))
        scratch.reserveCapacity(1024)
    }

    public func write(_ record: CaptureRecord) throws(CaptureError) {
        scratch.removeAll(keepingCapacity: true)
        try BtsnoopFormat.appendRecord(record, to: &scratch)
        try sink.writeAll(scratch)
    }

    public func flush() throws(CaptureError) { try sink.sync() }
    public func close() throws(CaptureError) { try sink.close() }
}

/// pcap, LINKTYPE 201 (H4 with direction pseudo-header), µs timestamps, little-endian.
public final class PcapWriter: CaptureWriter {
    private let sink: WriteOnlyFile
    private var scratch: [UInt8] = []

    public var path: String { sink.path }

    public init(path: String) throws(CaptureError) {
        sink = try WriteOnlyFile(path: path)
        try sink.writeAll(PcapFormat.fileHeader(linkType: PcapFormat.linkTypeH4WithPHDR))
        scratch.reserveCapacity(1024)
    }

    public func write(_ record: CaptureRecord) throws(CaptureError) {
        scratch.removeAll(keepingCapacity: true)
        try PcapFormat.appendRecord(record, to: &scratch)
        try sink.writeAll(scratch)
    }

    public func flush() throws(CaptureError) { try sink.sync() }
    public func close() throws(CaptureError) { try sink.close() }
}
