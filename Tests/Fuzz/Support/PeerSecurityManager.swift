// The host harness's peripheral side of pairing (compiled into it by scripts/fuzz).
import HostCore
import Wire

/// A peripheral's Security Manager as a well-behaved responder plays it (Core Spec v5.4 Vol 3,
/// Part H, §2.3 and §3.6), against a host whose crypto is `ZeroCrypto`: its confirm values and
/// DHKey check are 0, which is what the host computes, so a pairing that the host drives
/// correctly completes. It watches what the host sends on CID 0x0006 (`hostSent`) and answers
/// the host's last PDU (`answer`); the input picks its features and key contents.
///
/// It is what lets the fuzzer reach key distribution in a few steps, and put the peer's keys
/// where a real peer may: any time after the link is encrypted, also before the Command
/// Complete of the Read Encryption Key Size the host sends after Encryption Change.
struct PeerSecurityManager {
    private(set) var request: SMPPairingFeatures?
    private(set) var response: SMPPairingFeatures?
    /// The host's last PDU that waits for an answer from the peer.
    private var awaiting: SMPCode?
    /// Whether the peer has answered the host's Pairing Public Key already (its confirm may
    /// follow on its own in Just Works and Numeric Comparison).
    private var sentPublicKey = false

    /// The pairing is Secure Connections (both sides set SC).
    var secureConnections: Bool {
        guard let request, let response else { return false }
        return request.authenticationRequirements.contains(.secureConnections)
            && response.authenticationRequirements.contains(.secureConnections)
    }

    /// The keys the peer must distribute, as the host negotiated them (§3.6.1; EncKey not in
    /// Secure Connections).
    var responderKeys: SMPKeyDistribution {
        guard let request, let response else { return [] }
        var keys = request.responderKeyDistribution.intersection(response.responderKeyDistribution)
        keys.remove(.linkKey)
        if secureConnections { keys.remove(.encryptionKey) }
        return keys
    }

    /// The key size both sides agreed on (what an honest controller reports).
    var keySize: UInt8 {
        guard let request, let response else { return 16 }
        return min(request.maximumEncryptionKeySize, response.maximumEncryptionKeySize)
    }

    mutating func hostSent(_ pdu: SMPPDU) {
        switch pdu {
        case let .pairingRequest(features):
            request = features
            response = nil
            sentPublicKey = false
            awaiting = .pairingRequest
        case .pairingConfirm, .pairingRandom, .pairingDHKeyCheck:
            awaiting = pdu.code
        case .pairingPublicKey:
            awaiting = .pairingPublicKey
            sentPublicKey = false
        case .pairingFailed:
            awaiting = nil
        default:
            break
        }
    }

    /// The answer to the host's last PDU (nothing when it waits for none).
    mutating func answer(_ input: inout FuzzInput) -> [SMPPDU] {
        guard let last = awaiting else { return [] }
        awaiting = nil
        switch last {
        case .pairingRequest:
            let io = input.u8(), flags = input.u8(), size = input.u8(), keys = input.u8()
            let offered = (initiator: request?.initiatorKeyDistribution.rawValue ?? 0, responder: request?.responderKeyDistribution.rawValue ?? 0)
            // Most answers take every key offered; the rest a subset.
            let taken = keys < 0xC0 ? (initiator: UInt8(0xFF), responder: UInt8(0xFF)) : (initiator: keys & 0x07, responder: keys >> 3 & 0x07)
            let features = SMPPairingFeatures(
                ioCapability: SMPIOCapability(io % 5), authenticationRequirements: SMPAuthenticationRequirements(rawValue: flags & 0x0D),
                maximumEncryptionKeySize: size < 0xF0 ? 16 : 7 + size % 10,
                initiatorKeyDistribution: SMPKeyDistribution(rawValue: offered.initiator & taken.initiator),
                responderKeyDistribution: SMPKeyDistribution(rawValue: offered.responder & taken.responder))
            response = features
            return [.pairingResponse(features)]
        case .pairingConfirm:
            return [.pairingConfirm(confirmValue: 0)]
        case .pairingRandom:
            return [.pairingRandom(randomValue: UInt128(input.u16()) << 64 | 0x5A5A)]
        case .pairingDHKeyCheck:
            return [.pairingDHKeyCheck(0)]
        case .pairingPublicKey:
            guard !sentPublicKey else { return [] }
            sentPublicKey = true
            // Never all 0xFF (ZeroCrypto's point off the curve), never one byte repeated (what
            // ZeroCrypto makes rtstack's own key, which the host refuses back).
            let seed = input.u8()
            let key = SMPPublicKey(x: (0..<32).map { UInt8($0) ^ seed }, y: [UInt8](repeating: 0x22, count: 32))
            var pdus: [SMPPDU] = key.map { [.pairingPublicKey($0)] } ?? []
            // Just Works and Numeric Comparison: the responder's confirm follows its key (§2.3.5.6.2).
            if let request, let response {
                let mitm = request.authenticationRequirements.contains(.mitm) || response.authenticationRequirements.contains(.mitm)
                switch AssociationModel.select(initiator: request.ioCapability, responder: response.ioCapability,
                                               secureConnections: true, mitmRequested: mitm) {
                case .justWorks, .numericComparison: pdus.append(.pairingConfirm(confirmValue: 0))
                case .passkeyEntry: break
                }
            }
            return pdus
        default:
            return []
        }
    }

    /// The peer's keys with contents from the input: the negotiated ones in the order of
    /// §3.6.1 (`inOrder`), else all five in an order the input picks (a peer that breaks the
    /// rules, which the host must refuse without trapping).
    func keys(inOrder: Bool, _ input: inout FuzzInput) -> [SMPPDU] {
        let value = UInt128(input.u16()) << 32 | 0x1234_5678
        let identity = SMPIdentityAddress(addressType: input.u8() & 1,
                                          address: BDAddress(bigEndian: [0xD0, 0, 0, 0, 0, 0x42]) ?? .zero)
        let all: [(SMPKeyDistribution, [SMPPDU])] = [
            (.encryptionKey, [.encryptionInformation(longTermKey: value), .centralIdentification(ediv: input.u16(), rand: 0x0102_0304)]),
            (.identityKey, [.identityInformation(identityResolvingKey: value ^ 1), .identityAddressInformation(identity)]),
            (.signingKey, [.signingInformation(signatureKey: value ^ 2)]),
        ]
        if inOrder {
            let keys = responderKeys
            return all.filter { keys.contains($0.0) }.flatMap(\.1)
        }
        var pdus = all.flatMap(\.1)
        // An order of the five from the input: a Fisher–Yates shuffle driven by its bytes.
        for i in stride(from: pdus.count - 1, to: 0, by: -1) {
            pdus.swapAt(i, Int(input.u8()) % (i + 1))
        }
        return pdus
    }
}
