import Testing
@testable import Wire

@Suite struct ATTCodesTests {
    // Core Spec v5.4 Vol 3, Part F, §3.4.8 Attribute Opcode summary.
    @Test func opcodeNamesAndValues() {
        #expect(ATTOpcode.errorResponse.name == "Error Response")
        #expect(ATTOpcode.exchangeMTURequest.name == "Exchange MTU Request")
        #expect(ATTOpcode.handleValueNotification.rawValue == 0x1B)
        #expect(ATTOpcode.handleValueNotification.name == "Handle Value Notification")
        #expect(ATTOpcode.multipleHandleValueNotification.rawValue == 0x23)
        #expect(ATTOpcode.multipleHandleValueNotification.name == "Multiple Handle Value Notification")
        #expect(ATTOpcode.readMultipleVariableRequest.rawValue == 0x20)
        #expect(ATTOpcode.readMultipleVariableResponse.name == "Read Multiple Variable Response")
        #expect(ATTOpcode.signedWriteCommand.rawValue == 0xD2)
        #expect(ATTOpcode.signedWriteCommand.name == "Signed Write Command")
        #expect(ATTOpcode.handleValueIndication.specIdentifier == "ATT_HANDLE_VALUE_IND")
        #expect(ATTOpcode(0x1F).name == "Unknown" && ATTOpcode(0x1F).specIdentifier == nil)
        #expect(ATTOpcode.readRequest.description == "Read Request (0x0a)")
    }

    // §3.3.1: Command Flag is bit 6, Authentication Signature Flag bit 7.
    @Test func opcodeFlagBits() {
        #expect(ATTOpcode.writeCommand.isCommand && !ATTOpcode.writeCommand.hasAuthenticationSignature)
        #expect(ATTOpcode.signedWriteCommand.isCommand && ATTOpcode.signedWriteCommand.hasAuthenticationSignature)
        #expect(ATTOpcode.writeCommand.method == ATTOpcode.writeRequest.method)
        #expect(!ATTOpcode.writeRequest.isCommand)
    }

    @Test func opcodeKindsAndResponses() {
        #expect(ATTOpcode.readByGroupTypeRequest.kind == .request)
        #expect(ATTOpcode.readByGroupTypeRequest.responseOpcode == .readByGroupTypeResponse)
        #expect(ATTOpcode.exchangeMTURequest.responseOpcode == .exchangeMTUResponse)
        #expect(ATTOpcode.readMultipleVariableRequest.responseOpcode == .readMultipleVariableResponse)
        #expect(ATTOpcode.errorResponse.kind == .response && ATTOpcode.errorResponse.responseOpcode == nil)
        #expect(ATTOpcode.handleValueNotification.kind == .notification)
        #expect(ATTOpcode.multipleHandleValueNotification.kind == .notification)
        #expect(ATTOpcode.handleValueIndication.kind == .indication)
        #expect(ATTOpcode.handleValueConfirmation.kind == .confirmation)
        #expect(ATTOpcode.writeCommand.kind == .command && ATTOpcode.signedWriteCommand.kind == .command)
        #expect(ATTOpcode(0x14).kind == .unknown)
    }

    struct ErrorName: Sendable, CustomTestStringConvertible {
        let code: UInt8
        let name: String
        var testDescription: String { name }
    }

    // §3.4.1.1 Error Codes, and the common profile error codes 0xFC–0xFF (Core Specification
    // Supplement, Part B, §1.2).
    @Test(arguments: [
        ErrorName(code: 0x01, name: "Invalid Handle"),
        ErrorName(code: 0x02, name: "Read Not Permitted"),
        ErrorName(code: 0x03, name: "Write Not Permitted"),
        ErrorName(code: 0x04, name: "Invalid PDU"),
        ErrorName(code: 0x05, name: "Insufficient Authentication"),
        ErrorName(code: 0x06, name: "Request Not Supported"),
        ErrorName(code: 0x07, name: "Invalid Offset"),
        ErrorName(code: 0x08, name: "Insufficient Authorization"),
        ErrorName(code: 0x09, name: "Prepare Queue Full"),
        ErrorName(code: 0x0A, name: "Attribute Not Found"),
        ErrorName(code: 0x0B, name: "Attribute Not Long"),
        ErrorName(code: 0x0C, name: "Encryption Key Size Too Short"),
        ErrorName(code: 0x0D, name: "Invalid Attribute Value Length"),
        ErrorName(code: 0x0E, name: "Unlikely Error"),
        ErrorName(code: 0x0F, name: "Insufficient Encryption"),
        ErrorName(code: 0x10, name: "Unsupported Group Type"),
        ErrorName(code: 0x11, name: "Insufficient Resources"),
        ErrorName(code: 0x12, name: "Database Out Of Sync"),
        ErrorName(code: 0x13, name: "Value Not Allowed"),
        ErrorName(code: 0x80, name: "Application Error 0x80"),
        ErrorName(code: 0x9F, name: "Application Error 0x9f"),
        ErrorName(code: 0xFC, name: "Write Request Rejected"),
        ErrorName(code: 0xFD, name: "Client Characteristic Configuration Descriptor Improperly Configured"),
        ErrorName(code: 0xFE, name: "Procedure Already in Progress"),
        ErrorName(code: 0xFF, name: "Out of Range"),
        ErrorName(code: 0x14, name: "Reserved 0x14"),
        ErrorName(code: 0xA0, name: "Reserved 0xa0"),
    ])
    func errorCodeNames(_ v: ErrorName) {
        #expect(ATTErrorCode(v.code).name == v.name)
    }

    @Test func errorCodeRangesAndConstants() {
        #expect(ATTErrorCode.attributeNotFound.rawValue == 0x0A)
        #expect(ATTErrorCode.cccdImproperlyConfigured.rawValue == 0xFD)
        #expect(ATTErrorCode.databaseOutOfSync.rawValue == 0x12)
        #expect(ATTErrorCode(0x85).isApplicationError && !ATTErrorCode(0xA0).isApplicationError)
        #expect(ATTErrorCode.outOfRange.isCommonProfileError && !ATTErrorCode(0x9F).isCommonProfileError)
        #expect(ATTErrorCode.insufficientAuthentication.isSecurityError && !ATTErrorCode.invalidHandle.isSecurityError)
        #expect(ATTErrorCode.invalidHandle.description == "Invalid Handle (0x01)")
    }
}
