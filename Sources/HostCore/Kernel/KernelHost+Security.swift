import Wire

/// Security on the kernel backend: the kernel pairs and encrypts (its own SMP), rtstack asks
/// for a level with BT_SECURITY on the link's socket and is the kernel's pairing agent through
/// the management channel (Docs/security.md).
extension KernelHost {
    func raiseSecurity(_ id: LinkID, after error: ATTErrorCode, at now: HostTime) {
        linkTable.securityDone(id, raised: false, at: now)
    }

    public func answerPairing(_ link: LinkID, _ answer: PairingAnswer, at now: HostTime) {}

    public func secure(_ link: LinkID, _ need: SecurityNeed, at now: HostTime) {
        deliver(.security(link, .failed(.unavailable("not yet on the kernel backend"))))
    }

    public var bonds: [BondRecord] { [] }
}
