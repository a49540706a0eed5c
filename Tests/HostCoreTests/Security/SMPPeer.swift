@testable import HostCore
import SecurityCrypto
import Wire

/// A peripheral's Security Manager behind a `HostGATTWorld` peer: a fresh `ScriptedResponder`
/// for every Pairing Request, its keys distributed once the controller encrypts the link of a
/// pairing, and the ATT refusals of its server lifted once the link is secure enough (as a
/// real server checks its attributes' permissions against the link).
final class SMPPeer {
    var features: SMPPairingFeatures
    var misbehaviour: ScriptedResponder.Misbehaviour = .none
    /// The passkey its display shows, or its user types (Passkey Entry).
    var passkey: UInt32 = 123_456
    /// Where its user reads the passkey to type when rtstack displays it (asked at each
    /// Pairing Confirm).
    var passkeyShown: (() -> UInt32?)?
    private(set) var responder: ScriptedResponder?
    /// Pairing Requests it answered.
    private(set) var pairings = 0
    /// Security Requests it sent.
    private(set) var securityRequests = 0
    /// Keys it was encrypted with, in order.
    private(set) var encryptions: [UInt128] = []
    private var distributed = true
    /// ATT errors its server answers until the link is encrypted (lifted at the first
    /// encryption) and until it is authenticated (lifted when a pairing was authenticated).
    var untilEncrypted: [UInt16: ATTErrorCode] = [:]
    var untilAuthenticated: [UInt16: ATTErrorCode] = [:]
    weak var server: FakeATTServer?
    let address: DeviceAddress
    let initiator: DeviceAddress

    init(features: SMPPairingFeatures, address: DeviceAddress, initiator: DeviceAddress = DeviceAddress(testOwnAddress, type: .randomDevice)) {
        self.features = features
        self.address = address
        self.initiator = initiator
    }

    /// Hooks it on a world peer: CID 0x0006 and the controller's encryption.
    func attach(to p: HostGATTWorld.Peer) {
        server = p.server
        refuse()
        p.onFrame = { channel, payload in
            guard channel == 0x0006 else { return [] }
            return self.receive(payload).map(\.encoded)
        }
        p.onEncrypted = { e in self.encrypted(e).map(\.encoded) }
    }

    /// A new connection: the server checks permissions afresh.
    func newConnection() {
        refuse()
    }

    private func refuse() {
        server?.handleErrors = untilEncrypted.merging(untilAuthenticated) { a, _ in a }
    }

    /// The Security Request a peripheral sends (§3.5.7).
    func securityRequest(_ authReq: SMPAuthenticationRequirements) -> [UInt8] {
        securityRequests += 1
        return SMPPDU.securityRequest(authReq).encoded
    }

    private func receive(_ payload: [UInt8]) -> [SMPPDU] {
        guard let pdu = try? SMPPDU.decode(payload[...]) else { return [] }
        if case .pairingRequest = pdu {
            pairings += 1
            var r = ScriptedResponder(features: features, address: address, initiatorAddress: initiator)
            r.misbehaviour = misbehaviour
            r.passkey = passkey
            responder = r
            distributed = false
        }
        guard var r = responder else { return [] }
        if case .pairingConfirm = pdu, let shown = passkeyShown?() { r.passkey = shown }
        let out = r.receive(pdu)
        responder = r
        return out
    }

    private func encrypted(_ e: LEEnableEncryption) -> [SMPPDU] {
        encryptions.append(e.longTermKey)
        guard let server else { return [] }
        for handle in untilEncrypted.keys { server.handleErrors[handle] = nil }
        guard !distributed, let r = responder, let request = r.request else { return [] }
        distributed = true
        let mitm = request.authenticationRequirements.contains(.mitm) || features.authenticationRequirements.contains(.mitm)
        let model = AssociationModel.select(initiator: request.ioCapability, responder: features.ioCapability,
                                            secureConnections: r.secureConnections, mitmRequested: mitm)
        if model.isAuthenticated { for handle in untilAuthenticated.keys { server.handleErrors[handle] = nil } }
        return r.keysToDistribute(features.responderKeyDistribution.intersection(request.responderKeyDistribution))
    }
}

extension HostGATTWorld {
    /// A world whose host pairs with Nettle's crypto and `configure`'s settings.
    convenience init(security configure: (inout SecuritySettings) -> Void) {
        self.init { configuration in
            configuration.security.crypto = NettleCryptography()
            configure(&configuration.security)
        }
    }
}

extension FakeController {
    var securityEvents: [(LinkID, SecurityEvent)] {
        events.compactMap { if case let .security(l, e) = $0 { return (l, e) } else { return nil } }
    }

    var prompts: [PairingPrompt] {
        securityEvents.compactMap { if case let .prompt(p) = $0.1 { return p } else { return nil } }
    }

    var securityFailures: [SecurityFailure] {
        securityEvents.compactMap { if case let .failed(f) = $0.1 { return f } else { return nil } }
    }

    var storedBonds: [BondRecord] {
        securityEvents.compactMap { if case let .bondStored(b) = $0.1 { return b } else { return nil } }
    }

    var encryptedLevels: [SecurityLevel] {
        securityEvents.compactMap { if case let .encrypted(level, _, _) = $0.1 { return level } else { return nil } }
    }
}
