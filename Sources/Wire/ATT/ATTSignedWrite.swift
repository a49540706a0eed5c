/// ATT_SIGNED_WRITE_CMD parameters (Core Spec v5.4 Vol 3, Part F, §3.4.5.4): handle, value,
/// and the 12-byte Authentication Signature (Vol 3, Part H, §2.4.5) over everything before it.
public struct ATTSignedWrite: Sendable, Hashable {
    public static let signatureSize = 12

    public var handle: UInt16
    public var value: ArraySlice<UInt8>
    /// Exactly 12 bytes when decoded; encoding writes what is here.
    public var authenticationSignature: ArraySlice<UInt8>

    public init(handle: UInt16, value: ArraySlice<UInt8>, authenticationSignature: ArraySlice<UInt8>) {
        self.handle = handle
        self.value = value
        self.authenticationSignature = authenticationSignature
    }
}
