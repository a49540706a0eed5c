import HostCore
import Wire

/// rtstack's user during pairing, for the async API (`Central.open(…, agent:)`) and the CLI:
/// what a desktop's bluetoothd agent does, without bluetoothd. Called off the loop thread; the
/// pairing waits for the answer (at most the SMP timeout, 30 s).
public protocol PairingAgent: Sendable {
    /// Passkey Entry with rtstack typing: the six digits the peer shows (or that both users
    /// agreed on); nil refuses, and the pairing fails with Passkey Entry Failed.
    func passkey(for peer: DeviceAddress) async -> UInt32?
    /// Passkey Entry with rtstack showing: the peer's user types `passkey`.
    func display(passkey: UInt32, for peer: DeviceAddress) async
    /// Numeric Comparison: whether the peer shows `number` too.
    func confirm(number: UInt32, for peer: DeviceAddress) async -> Bool
}

extension PairingAgent {
    /// The answer to `prompt`, for `Host.answerPairing`; nil when the prompt needs none.
    public func answer(_ prompt: PairingPrompt, for peer: DeviceAddress) async -> PairingAnswer? {
        switch prompt {
        case .enterPasskey:
            guard let n = await passkey(for: peer), n <= 999_999 else { return .rejectPasskey }
            return .passkey(n)
        case let .displayPasskey(n):
            await display(passkey: n, for: peer)
            return nil
        case let .confirmNumber(n):
            return .numbersMatch(await confirm(number: n, for: peer))
        }
    }
}

/// A headless agent with its answers fixed in advance (`--passkey N`, `--confirm-numbers`):
/// no passkey refuses Passkey Entry; numbers are confirmed only when told to.
public struct FixedPairingAgent: PairingAgent {
    public var passkey: UInt32?
    public var confirmsNumbers: Bool
    /// Where a passkey to show goes (the CLI prints it).
    public var show: @Sendable (UInt32, DeviceAddress) -> Void

    public init(passkey: UInt32? = nil, confirmsNumbers: Bool = false,
                show: @escaping @Sendable (UInt32, DeviceAddress) -> Void = { _, _ in }) {
        self.passkey = passkey
        self.confirmsNumbers = confirmsNumbers
        self.show = show
    }

    public func passkey(for peer: DeviceAddress) async -> UInt32? { passkey }
    public func display(passkey: UInt32, for peer: DeviceAddress) async { show(passkey, peer) }
    public func confirm(number: UInt32, for peer: DeviceAddress) async -> Bool { confirmsNumbers }
}
