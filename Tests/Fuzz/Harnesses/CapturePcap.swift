// libFuzzer harness: the pcap reader (CaptureReader(bytes:) over Capture/PcapFormat), both
// byte orders, µs and ns timestamps, LINKTYPE 187, 201 and 254 (Linux monitor).
// Input: a pcap file; without a pcap magic in either byte order, a little-endian µs header
// is put in front, with LINKTYPE 201 when the first byte is even, 254 when it is odd.
// Checks: see readCapture (Support/CaptureReading.swift).
import Capture

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCapturePcap(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    let magic: [[UInt8]] = [[0xd4, 0xc3, 0xb2, 0xa1], [0xa1, 0xb2, 0xc3, 0xd4],
                            [0x4d, 0x3c, 0xb2, 0xa1], [0xa1, 0xb2, 0x3c, 0x4d]]
    let linkType = (bytes.first ?? 0) & 1 == 0 ? PcapFormat.linkTypeH4WithPHDR : PcapFormat.linkTypeLinuxMonitor
    readCapture(withHeader(bytes, magic: magic, header: PcapFormat.fileHeader(linkType: linkType)))
    return 0
}
