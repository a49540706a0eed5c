import Testing
import Wire
@testable import HostCore

/// Security on the kernel backend: BT_SECURITY raised after an ATT refusal, rtstack as the
/// kernel's pairing agent on the management channel, Pair Device for `Host.secure`.
@Suite struct KernelSecurityTests {
    static let peer = DeviceAddress(BDAddress(string: "00:AA:01:01:00:01") ?? .zero, type: .publicDevice)
    static let bodySensorLocation: UInt16 = 0x0011

    /// A ready kernel host whose adapter pairs as `configure` says, with one connected link.
    func connected(_ configure: (inout KernelHostConfiguration) -> Void = { _ in },
                   security: KernelSecurityLevel? = nil) -> (KernelHost, FakeKernel, LinkID) {
        var configuration = KernelHostConfiguration(index: 0)
        configure(&configuration)
        let k = FakeKernel()
        let h = KernelHost(configuration: configuration)
        k.host = h
        k.bringUp()
        var plan = LinkPlan()
        plan.mtu = nil
        plan.discover = false
        let id = h.connect(to: Self.peer, plan: plan, at: k.now)
        k.connectSocket(id, security: security)
        return (h, k, id)
    }

    func event(_ code: ManagementEventCode, _ parameters: [UInt8]) -> ManagementEvent.Payload {
        .other(code, parameters[...])
    }

    var peerBytes: [UInt8] { Self.peer.address.bytes + [0x01] }

    @Test("bring-up sets the IO capability and bonding the kernel pairs with; bonding goes back off at the end")
    func bringUpConfiguresPairing() {
        let (h, k, _) = connected { $0.ioCapability = .keyboardDisplay; $0.bondable = true }
        #expect(k.commands.last == .setIOCapability(.keyboardDisplay, index: 0))
        k.complete()  // one command at a time: Set Bondable follows the answer
        let opcodes = k.commands.map(\.opcode)
        #expect(opcodes.contains(.setIOCapability) && opcodes.contains(.setBondable))
        #expect(k.commands.contains(.setIOCapability(.keyboardDisplay, index: 0)))
        #expect(h.restoringCommands.contains(.setBondable(false, index: 0)))
    }

    @Test("nothing is set on the adapter unless asked (its settings are shared with bluetoothd)")
    func bringUpLeavesPairingAlone() {
        let (h, k, _) = connected()
        #expect(!k.commands.map(\.opcode).contains(.setIOCapability))
        #expect(!k.commands.map(\.opcode).contains(.setBondable))
        #expect(!h.restoringCommands.contains { $0.opcode == .setBondable })
    }

    @Test("Insufficient Encryption: BT_SECURITY raised to medium on the socket, then the same request once more")
    func attRefusalRaisesBTSecurity() throws {
        let (h, k, id) = connected()
        let server = try #require(k.servers[id])
        server.handleErrors[Self.bodySensorLocation] = .insufficientEncryption
        let op = h.perform(.read(handle: Self.bodySensorLocation), on: id, at: k.now)
        k.pump()
        #expect(k.raised.map(\.1) == [.medium])
        #expect(server.requests == [.readRequest])
        server.handleErrors = [:]
        h.securityRaised(id, level: .medium, at: k.now)
        k.pump()
        #expect(server.requests == [.readRequest, .readRequest])
        let result = k.events.compactMap { if case let .operationCompleted(o, r) = $0, o == op { return r } else { return nil } }.first
        guard case .success(.value([0x01]))? = result else { Issue.record("\(String(describing: result))"); return }
        #expect(k.events.contains { if case .security(id, .encrypted(.medium, _, false)) = $0 { return true }; return false })
    }

    @Test("after BT_SECURITY is raised the link is encrypted: a signed write goes as Write Without Response (Vol 3, Part G, §4.9.2)")
    func signedWriteUnsignedAfterRaise() throws {
        let (h, k, id) = connected()
        let server = try #require(k.servers[id])
        server.handleErrors[Self.bodySensorLocation] = .insufficientEncryption
        h.perform(.read(handle: Self.bodySensorLocation), on: id, at: k.now)
        k.pump()
        server.handleErrors = [:]
        h.securityRaised(id, level: .medium, at: k.now)
        k.pump()
        let write = ATTSignedWrite(handle: Self.bodySensorLocation, value: [0x01], authenticationSignature: ArraySlice(1...12))
        let op = h.perform(.signedWrite(write), on: id, at: k.now)
        k.pump()
        let result = k.events.compactMap { if case let .operationCompleted(o, r) = $0, o == op { return r } else { return nil } }.first
        guard case .success(.done)? = result else { Issue.record("\(String(describing: result))"); return }
        #expect(try #require(k.servers[id]).received.last == [0x52, 0x11, 0x00, 0x01], "a Write Command, unsigned")
    }

    @Test("the kernel's pairing failing during a raise (Authentication Failed) fails the request and closes the stuck socket")
    func raiseFails() throws {
        let (h, k, id) = connected()
        try #require(k.servers[id]).handleErrors[Self.bodySensorLocation] = .insufficientAuthentication
        let op = h.perform(.read(handle: Self.bodySensorLocation), on: id, at: k.now)
        k.pump()
        k.emit(event(.authenticationFailed, peerBytes + [0x05]))
        let result = k.events.compactMap { if case let .operationCompleted(o, r) = $0, o == op { return r } else { return nil } }.first
        guard case .failure(.att(error: 0x05, _, _))? = result else { Issue.record("\(String(describing: result))"); return }
        #expect(k.closed == [id])
        #expect(k.events.contains { if case .security(id, .failed(.kernel(ManagementStatus(rawValue: 0x05)))) = $0 { return true }; return false })
    }

    @Test("the kernel asks rtstack, its agent, for a passkey: the prompt reaches the application and its answer goes back as User Passkey Reply")
    func passkeyRequest() {
        let (h, k, id) = connected()
        k.emit(event(.userPasskeyRequest, peerBytes))
        #expect(k.events.contains { if case .security(id, .prompt(.enterPasskey)) = $0 { return true }; return false })
        h.answerPairing(id, .passkey(123_456), at: k.now)
        #expect(k.commands.last == .userPasskey(123_456, Self.peer, index: 0))
        #expect(k.commands.last?.parameters == Self.peer.address.bytes + [0x01, 0x40, 0xE2, 0x01, 0x00])
    }

    @Test("numeric comparison is asked; Just Works authorization is confirmed without asking; requests for other devices are bluetoothd's")
    func confirmations() {
        let (h, k, id) = connected()
        k.emit(event(.userConfirmationRequest, peerBytes + [0x00, 0x40, 0xE2, 0x01, 0x00]))
        #expect(k.events.contains { if case .security(id, .prompt(.confirmNumber(123_456))) = $0 { return true }; return false })
        h.answerPairing(id, .numbersMatch(false), at: k.now)
        #expect(k.commands.last == .userConfirmation(false, Self.peer, index: 0))
        k.emit(event(.userConfirmationRequest, peerBytes + [0x01, 0, 0, 0, 0]))
        #expect(k.commands.last == .userConfirmation(true, Self.peer, index: 0))
        let before = k.commands.count
        let stranger = BDAddress(string: "11:22:33:44:55:66")!.bytes + [0x01]
        k.emit(event(.userPasskeyRequest, stranger))
        #expect(k.commands.count == before)
        #expect(!k.events.contains { if case .security(_, .prompt(.enterPasskey)) = $0 { return true }; return false })
    }

    @Test("secure with a new pairing: Unpair Device, Pair Device; the New Long Term Key says how strong (no key kept), Pair Device's answer ends it")
    func pairDevice() {
        let (h, k, id) = connected { $0.ioCapability = .keyboardOnly }
        h.secure(id, SecurityNeed(level: .high, fresh: true), at: k.now)
        let opcodes = k.commands.suffix(2).map(\.opcode)
        #expect(opcodes == [.unpairDevice, .pairDevice])
        #expect(k.commands.last == .pairDevice(Self.peer, ioCapability: .keyboardOnly, index: 0))
        // Store_Hint, Address, Type, Key_Type 0x03 (authenticated P-256), Central, Size 16, EDiv, Rand, Value.
        k.emit(event(.newLongTermKey, [0x01] + peerBytes + [0x03, 0x00, 16] + [UInt8](repeating: 0xAA, count: 26)))
        k.emit(.commandComplete(.pairDevice, .success, returnParameters: peerBytes[...]))
        #expect(k.events.contains { if case .security(id, .encrypted(.fips, 16, false)) = $0 { return true }; return false })
    }

    @Test("a link's security ends with its socket: its next connection pairs again, and a raise under way leaves no timer behind")
    func securityEndsWithTheSocket() throws {
        let (h, k, id) = connected(security: .medium)
        h.secure(id, SecurityNeed(level: .medium), at: k.now)
        // Medium was reached on this socket: nothing to pair.
        #expect(!k.commands.map(\.opcode).contains(.pairDevice))
        let server = try #require(k.servers[id])
        server.handleErrors[Self.bodySensorLocation] = .insufficientAuthentication
        h.perform(.read(handle: Self.bodySensorLocation), on: id, at: k.now)
        k.pump()
        #expect(k.raised.map(\.1) == [.high])
        #expect(h.nextDeadline != nil, "the raise is timed")
        h.channelClosed(id, reason: .connectionTimeout, at: k.now)
        k.pull()
        #expect(h.nextDeadline == nil, "the raise ended with the socket")
        var plan = LinkPlan()
        plan.mtu = nil
        plan.discover = false
        #expect(h.connect(to: Self.peer, plan: plan, at: k.now) == id)
        k.connectSocket(id)
        h.secure(id, SecurityNeed(level: .medium), at: k.now)
        #expect(k.commands.last == .pairDevice(Self.peer, ioCapability: .keyboardDisplay, index: 0))
    }

    @Test("a socket connected with BT_SECURITY high reports the link encrypted at that level")
    func connectedSecure() {
        let (_, k, id) = connected(security: .high)
        #expect(k.events.contains { if case .security(id, .encrypted(.high, _, _)) = $0 { return true }; return false })
    }
}
