import Testing
import HostCore
import Wire

/// Issue 17 §2: a security failure says what the user can do, not only its code.
@Suite struct SecurityRemedyTests {
    @Test("a peer's Unspecified Reason names the common causes: a single bond already kept, not in pairing mode")
    func unspecifiedReasonNamesTheCommonCauses() throws {
        let failure = SecurityFailure.pairing(.peerFailed(.unspecifiedReason))
        let remedy = failure.remedy
        #expect(remedy.contains("keeps a single bond and already has one") && remedy.contains("not in pairing mode"))
        #expect(failure.explanation.hasPrefix("pairing failed: the peer failed pairing: Unspecified Reason (0x08)"))
        #expect(failure.explanation.hasSuffix(remedy))
    }

    @Test("every reason a peer's Pairing Failed gives that the user can act on comes with a remedy", arguments: [
        SMPPairingFailedReason.passkeyEntryFailed, .authenticationRequirements, .confirmValueFailed, .pairingNotSupported,
        .encryptionKeySize, .unspecifiedReason, .repeatedAttempts, .numericComparisonFailed, .keyRejected,
    ])
    func peerReasonsHaveRemedies(_ reason: SMPPairingFailedReason) {
        let remedy = SecurityFailure.pairing(.peerFailed(reason)).remedy
        #expect(!remedy.hasPrefix("pair again; the peer's own log"), "\(reason) gets only the fallback: \(remedy)")
    }

    @Test("a hostile peer's key is refused and the remedy says not to pair with it; a lost bond says to pair again")
    func remediesOfFailuresRtstackNames() {
        #expect(SecurityFailure.keyMissing.remedy.contains("rtstack pair ADDRESS"))
        #expect(SecurityFailure.pairing(.invalidPublicKey).remedy.hasPrefix("do not pair with this device"))
        #expect(SecurityFailure.encryption(.connectionTimeout).remedy.contains("rtstack bonds remove"))
    }
}
