// libFuzzer harness: the pcapng reader (CaptureReader(bytes:) over Capture/PcapngFormat):
// sections, interfaces, Enhanced/Simple Packet Blocks, options, both byte orders.
// Input: a pcapng file; without the Section Header Block type, a little-endian SHB and one
// Interface Description Block (LINKTYPE 201) are put in front. Checks: see readCapture
// (Support/CaptureReading.swift).
import Capture

/// SHB (v1.0, section length unknown) then IDB (LINKTYPE 201, snaplen 0), little-endian.
private let pcapngHeader: [UInt8] = [
    0x0A, 0x0D, 0x0D, 0x0A, 28, 0, 0, 0, 0x4D, 0x3C, 0x2B, 0x1A, 1, 0, 0, 0,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 28, 0, 0, 0,
    1, 0, 0, 0, 20, 0, 0, 0, 201, 0, 0, 0, 0, 0, 0, 0, 20, 0, 0, 0,
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCapturePcapng(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    readCapture(withHeader(bytes, magic: [[0x0A, 0x0D, 0x0D, 0x0A]], header: pcapngHeader))
    return 0
}
