// libFuzzer harness: the pcap reader (CaptureReader(bytes:) over Capture/PcapFormat), both
// byte orders, µs and ns timestamps, LINKTYPE 187 and 201.
// Input: a pcap file; without a pcap magic in either byte order, a little-endian µs header
// with LINKTYPE 201 is put in front. Checks: see readCapture (Support/CaptureReading.swift).
import Capture

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCapturePcap(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    let magic: [[UInt8]] = [[0xd4, 0xc3, 0xb2, 0xa1], [0xa1, 0xb2, 0xc3, 0xd4],
                            [0x4d, 0x3c, 0xb2, 0xa1], [0xa1, 0xb2, 0x3c, 0x4d]]
    readCapture(withHeader(bytes, magic: magic, header: PcapFormat.fileHeader()))
    return 0
}
