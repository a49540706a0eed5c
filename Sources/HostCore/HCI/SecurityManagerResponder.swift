import Wire

/// The host does not pair. Pairing and Security Requests on the Security Manager channel (CID
/// 0x0006, Core Spec v5.4 Vol 3, Part H, §3.5) are answered with Pairing Failed, reason
/// "Pairing Not Supported" (0x05), so a peer gives up at once instead of waiting out its
/// 30 s SMP timer.
enum SecurityManagerResponder {
    static let pairingRequest: UInt8 = 0x01
    static let pairingFailed: UInt8 = 0x05
    static let securityRequest: UInt8 = 0x0B
    /// Vol 3, Part H, §3.5.5, Table 3.7.
    static let pairingNotSupported: UInt8 = 0x05

    /// The SMP PDU to send back (Code, Reason), if any.
    static func answer(_ payload: ArraySlice<UInt8>) -> (response: [UInt8]?, warning: HostWarning?) {
        guard let code = payload.first else {
            return (nil, HostWarning("SMP: empty PDU dropped"))
        }
        switch code {
        case pairingRequest, securityRequest:
            return ([pairingFailed, pairingNotSupported], nil)
        default:
            return (nil, nil)
        }
    }
}
