/// Entry point for reading a capture whose format is not known in advance.
public enum CaptureFile {
    /// Opens `path` and reads its file header, choosing btsnoop, pcap or pcapng by magic.
    /// The records are then read one at a time through a 64 KiB buffer.
    public static func open(path: String) throws(CaptureError) -> CaptureReader {
        try open(path: path, chunkSize: ChunkedByteSource.defaultChunkSize)
    }

    /// Same, with a chosen buffer size; tests use tiny buffers to push every header and
    /// payload across a buffer boundary.
    static func open(path: String, chunkSize: Int) throws(CaptureError) -> CaptureReader {
        let file = try ReadOnlyFile(path: path)
        return try CaptureReader(source: ChunkedByteSource(file: file, chunkSize: chunkSize))
    }
}
