// libFuzzer harness: the btsnoop reader (CaptureReader(bytes:) over Capture/BtsnoopFormat).
// Input: a btsnoop file; without the "btsnoop\0" magic, a v1 datalink 1002 (H4) header is put
// in front. Checks: see readCapture (Support/CaptureReading.swift).
import Capture

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCaptureBtsnoop(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    readCapture(withHeader(bytes, magic: [BtsnoopFormat.magic], header: BtsnoopFormat.fileHeader()))
    return 0
}
