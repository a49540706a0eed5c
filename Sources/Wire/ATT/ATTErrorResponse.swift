/// ATT_ERROR_RSP parameters (Core Spec v5.4 Vol 3, Part F, §3.4.1.1): which request failed,
/// on which handle, and why.
public struct ATTErrorResponse: Sendable, Hashable {
    public var requestOpcodeInError: ATTOpcode
    public var attributeHandleInError: UInt16
    public var errorCode: ATTErrorCode

    public init(requestOpcodeInError: ATTOpcode, attributeHandleInError: UInt16, errorCode: ATTErrorCode) {
        self.requestOpcodeInError = requestOpcodeInError
        self.attributeHandleInError = attributeHandleInError
        self.errorCode = errorCode
    }
}
