import Testing
import HostCore
import Wire

/// Issue 17 §2: every error the host reports names what was wrong (`description`) and what the
/// user can do (`remedy`). The walks below cover every case; `kind` switches over them without a
/// default, so a new case fails to compile here until it is given a sample (and the remedy
/// switches fail to compile until it is given a remedy).
@Suite struct ErrorRemedyTests {
    /// One sample of every `HostError` case.
    static let hostErrors: [HostError] = [
        .commandFailed(.leCreateConnection, .commandDisallowed),
        .commandFailed(.reset, HCIStatus(rawValue: 0x2B)),
        .commandTimeout(.reset),
        .connectTimeout(DeviceAddress(BDAddress(string: "C6:05:04:03:02:01")!, type: .randomDevice)),
        .connectionFailed(.connectionFailedToBeEstablished),
        .disconnected(.connectionTimeout),
        .disconnected(.remoteUserTerminatedConnection),
        .disconnected(HCIStatus(rawValue: 0x2B)),
        .att(error: 0x02, request: 0x0A, handle: 0x0013),
        .attTimeout(request: 0x0A),
        .protocolViolation("Read Response longer than ATT_MTU"),
        .notFound("no descriptor 0x2902"),
        .controller("Hardware Error event, code 0x05"),
        .invalidState("a value of 30 bytes does not fit one write"),
        .unsupportedByPeer("Read Multiple Variable Length"),
        .adapter("hci0", .busy(.setPowered)),
        .security(.keyMissing),
    ]

    static func kind(_ e: HostError) -> String {
        switch e {
        case .commandFailed: "commandFailed"
        case .commandTimeout: "commandTimeout"
        case .connectTimeout: "connectTimeout"
        case .connectionFailed: "connectionFailed"
        case .disconnected: "disconnected"
        case .att: "att"
        case .attTimeout: "attTimeout"
        case .protocolViolation: "protocolViolation"
        case .notFound: "notFound"
        case .controller: "controller"
        case .invalidState: "invalidState"
        case .unsupportedByPeer: "unsupportedByPeer"
        case .adapter: "adapter"
        case .security: "security"
        }
    }

    @Test("the samples cover every HostError case")
    func samplesCoverEveryCase() {
        #expect(Set(Self.hostErrors.map(Self.kind)).count == 14)
    }

    @Test("every host error names its cause and a remedy that is more than the cause", arguments: hostErrors)
    func everyHostErrorHasARemedy(_ e: HostError) {
        #expect(!e.description.isEmpty)
        #expect(e.remedy.count > 20, "\(e): \(e.remedy)")
        #expect(!e.description.containsText(e.remedy), "\(e): the remedy repeats the cause")
        #expect(e.explanation == e.description + "; " + e.remedy)
    }

    @Test("a connection that failed to be established (0x3E) and a supervision timeout (0x08) say what to check")
    func linkFailuresSayWhatToCheck() {
        let never = HostError.connectionFailed(.connectionFailedToBeEstablished).remedy
        #expect(never.contains("did not answer the connection request") && never.contains("rtstack scan"), "\(never)")
        #expect(HostError.disconnected(.connectionTimeout).remedy.contains("move closer"))
        #expect(HostError.disconnected(.remoteUserTerminatedConnection).remedy.contains("rtstack pair ADDRESS"))
    }

    /// The requests a client sends whose errors a user sees.
    static let requests: [ATTOpcode] = [
        .readRequest, .readBlobRequest, .readMultipleRequest, .readMultipleVariableRequest, .readByTypeRequest,
        .readByGroupTypeRequest, .findInformationRequest, .findByTypeValueRequest, .writeRequest, .prepareWriteRequest,
        .executeWriteRequest, .exchangeMTURequest,
    ]

    @Test("every ATT error code, reserved and application ones included, has a remedy for every request")
    func everyATTCodeHasARemedy() {
        for code in UInt8.min...UInt8.max {
            for request in Self.requests {
                let e = HostError.att(error: code, request: request.rawValue, handle: 0x0021)
                #expect(e.description.contains(ATTErrorCode(code).name), "\(e)")
                #expect(e.remedy.count > 20, "\(Hex.number(code, width: 2)) after \(request): \(e.remedy)")
            }
        }
    }

    /// Codes the Core Specification and its Supplement define get remedies of their own; only
    /// the reserved ones share the fallback.
    @Test("the defined ATT codes each get a remedy of their own, not the reserved codes' one")
    func definedCodesHaveTheirOwnRemedy() {
        let fallback = ATTErrorCode(0x50).remedy(for: .readRequest)
        let defined: [UInt8] = Array(0x01...0x13) + Array(0x80...0x9F) + [0xFC, 0xFD, 0xFE, 0xFF]
        for code in defined {
            #expect(ATTErrorCode(code).remedy(for: .readRequest) != fallback, "\(ATTErrorCode(code))")
        }
        let own = Set((0x01...0x13).map { ATTErrorCode(UInt8($0)).remedy(for: .writeRequest) })
        #expect(own.count == 19, "two defined codes share a remedy")
    }

    @Test("the remedies name what to do: gatt for a missing attribute, subscribe for a CCCD error, the length for 0x0D")
    func remediesNameTheCommand() {
        #expect(ATTErrorCode.readNotPermitted.remedy(for: .readRequest).contains("rtstack subscribe"))
        #expect(ATTErrorCode.writeNotPermitted.remedy(for: .writeRequest).contains("--no-response"))
        #expect(ATTErrorCode.attributeNotFound.remedy(for: .readByTypeRequest).contains("rtstack gatt ADDRESS"))
        #expect(ATTErrorCode.invalidAttributeValueLength.remedy(for: .writeRequest).contains("as many octets"))
        #expect(ATTErrorCode.cccdImproperlyConfigured.remedy(for: .writeRequest).contains("rtstack subscribe"))
        #expect(ATTErrorCode.outOfRange.remedy(for: .writeRequest).contains("within its range"))
        #expect(ATTErrorCode(0x85).remedy(for: .writeRequest).contains("service's own specification"))
        #expect(ATTErrorCode.invalidOffset.remedy(for: .prepareWriteRequest) != ATTErrorCode.invalidOffset.remedy(for: .readBlobRequest))
        #expect(ATTErrorCode.prepareQueueFull.remedy(for: .prepareWriteRequest).contains("fewer or shorter"))
        #expect(ATTErrorCode.encryptionKeySizeTooShort.remedy(for: .readRequest).contains("rtstack pair ADDRESS"))
    }

    /// One sample of every `PairingError` case.
    static let pairingErrors: [PairingError] = [
        .peerFailed(.unspecifiedReason), .peerFailed(SMPPairingFailedReason(0x0E)), .invalidPublicKey, .reflectedPublicKey,
        .debugPublicKey, .confirmValueMismatch, .dhKeyCheckMismatch, .numericComparisonRejected, .passkeyEntryFailed,
        .authenticationRequirements("MITM needs a passkey"), .encryptionKeySize(7), .oobNotAvailable,
        .invalidParameters("Pairing Response of 5 octets"), .unexpectedPDU(.pairingConfirm),
        .unexpectedKey(.identityInformation, expected: .encryptionInformation, agreed: [.encryptionKey, .identityKey]),
        .commandNotSupported(.pairingRequest), .timeout, .encryptionFailed(.pinOrKeyMissing), .repeatedAttempts(retryAt: 0),
        .disconnected,
    ]

    static func kind(_ e: PairingError) -> String {
        switch e {
        case .peerFailed: "peerFailed"
        case .invalidPublicKey: "invalidPublicKey"
        case .reflectedPublicKey: "reflectedPublicKey"
        case .debugPublicKey: "debugPublicKey"
        case .confirmValueMismatch: "confirmValueMismatch"
        case .dhKeyCheckMismatch: "dhKeyCheckMismatch"
        case .numericComparisonRejected: "numericComparisonRejected"
        case .passkeyEntryFailed: "passkeyEntryFailed"
        case .authenticationRequirements: "authenticationRequirements"
        case .encryptionKeySize: "encryptionKeySize"
        case .oobNotAvailable: "oobNotAvailable"
        case .invalidParameters: "invalidParameters"
        case .unexpectedPDU: "unexpectedPDU"
        case .unexpectedKey: "unexpectedKey"
        case .commandNotSupported: "commandNotSupported"
        case .timeout: "timeout"
        case .encryptionFailed: "encryptionFailed"
        case .repeatedAttempts: "repeatedAttempts"
        case .disconnected: "disconnected"
        }
    }

    static let securityFailures: [SecurityFailure] = pairingErrors.map { .pairing($0) } + [
        .encryption(.pinOrKeyMissing), .keyMissing, .keySize(7, needed: 16), .unavailable("the SMP timer expired"),
        .kernel(.rejected),
    ]

    static func kind(_ f: SecurityFailure) -> String {
        switch f {
        case .pairing(let e): "pairing." + kind(e)
        case .encryption: "encryption"
        case .keyMissing: "keyMissing"
        case .keySize: "keySize"
        case .unavailable: "unavailable"
        case .kernel: "kernel"
        }
    }

    @Test("the samples cover every SecurityFailure and PairingError case")
    func securitySamplesCoverEveryCase() {
        #expect(Set(Self.securityFailures.map(Self.kind)).count == 19 + 5)
    }

    @Test("every security failure names its cause and a remedy", arguments: securityFailures)
    func everySecurityFailureHasARemedy(_ f: SecurityFailure) {
        let e = HostError.security(f)
        #expect(e.remedy == f.remedy)
        #expect(f.remedy.count > 20, "\(f): \(f.remedy)")
        #expect(!f.description.containsText(f.remedy), "\(f): the remedy repeats the cause")
    }

    static let adapterFailures: [AdapterFailure] = [
        .permissionDenied(.setPowered), .rfkillBlocked, .noSuchAdapter, .busy(.setPowered), .lowEnergyUnsupported,
        .commandFailed(.setLowEnergy, .failed), .noAnswer(.setPowered), .settingDidNotTake(.setLowEnergy), .poweredOff,
        .removed, .malformed("Read Controller Information of 3 octets"),
    ]

    static func kind(_ f: AdapterFailure) -> String {
        switch f {
        case .permissionDenied: "permissionDenied"
        case .rfkillBlocked: "rfkillBlocked"
        case .noSuchAdapter: "noSuchAdapter"
        case .busy: "busy"
        case .lowEnergyUnsupported: "lowEnergyUnsupported"
        case .commandFailed: "commandFailed"
        case .noAnswer: "noAnswer"
        case .settingDidNotTake: "settingDidNotTake"
        case .poweredOff: "poweredOff"
        case .removed: "removed"
        case .malformed: "malformed"
        }
    }

    @Test("every way the kernel's adapter fails has a remedy")
    func everyAdapterFailureHasARemedy() {
        #expect(Set(Self.adapterFailures.map(Self.kind)).count == 11)
        for f in Self.adapterFailures {
            #expect(f.remedy.count > 20, "\(f): \(f.remedy)")
            #expect(!f.description.containsText(f.remedy), "\(f)")
        }
    }
}
