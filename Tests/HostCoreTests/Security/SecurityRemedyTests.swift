import Testing
import HostCore
import Wire

/// Issue 17 §2: a security failure says what the user can do, not only its code.
@Suite struct SecurityRemedyTests {
    @Test("a peer's Unspecified Reason names the common causes: a single bond already kept, not in pairing mode")
    func unspecifiedReasonNamesTheCommonCauses() throws {
        let failure = SecurityFailure.pairing(.peerFailed(.unspecifiedReason))
        let remedy = try #require(failure.remedy)
        #expect(remedy.contains("keeps a single bond and already has one") && remedy.contains("not in pairing mode"))
        #expect(failure.explanation.hasPrefix("pairing failed: the peer failed pairing: Unspecified Reason (0x08)"))
        #expect(failure.explanation.hasSuffix(remedy))
    }

    @Test("every reason a peer's Pairing Failed gives that the user can act on comes with a remedy", arguments: [
        SMPPairingFailedReason.passkeyEntryFailed, .authenticationRequirements, .confirmValueFailed, .pairingNotSupported,
        .encryptionKeySize, .unspecifiedReason, .repeatedAttempts, .numericComparisonFailed, .keyRejected,
    ])
    func peerReasonsHaveRemedies(_ reason: SMPPairingFailedReason) {
        #expect(SecurityFailure.pairing(.peerFailed(reason)).remedy != nil, "\(reason)")
    }

    @Test("failures rtstack itself names with the fix already (bond removed, key size) or that need none stay as they are")
    func remediesDoNotRepeatTheDescription() {
        #expect(SecurityFailure.keyMissing.remedy == nil, "its description says to pair again")
        #expect(SecurityFailure.pairing(.invalidPublicKey).remedy == nil, "a hostile peer: nothing to do")
        #expect(SecurityFailure.encryption(.connectionTimeout).remedy?.contains("rtstack bonds remove") == true)
    }
}
