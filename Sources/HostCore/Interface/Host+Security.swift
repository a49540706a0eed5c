import Wire

/// Defaults for hosts without security (test doubles, replays): no pairing, no bonds.
extension Host {
    public func answerPairing(_ link: LinkID, _ answer: PairingAnswer, at now: HostTime) {}
    public func secure(_ link: LinkID, _ need: SecurityNeed, at now: HostTime) {}
    public var bonds: [BondRecord] { [] }
    public func removeBond(_ peer: DeviceAddress) -> Bool { false }
}
