import Wire

/// Data signing (Core Spec v5.4 Vol 3, Part H, §2.4.5) of the one signed ATT PDU,
/// ATT_SIGNED_WRITE_CMD (Part F, §3.4.5.4).
extension SecurityCryptography {
    /// The 12-octet Authentication Signature of `message` (the PDU as sent up to the signature:
    /// opcode, handle, value): SignCounter, then the 64 most significant bits of
    /// AES-CMAC(CSRK, message ‖ SignCounter), each least significant octet first as ATT sends
    /// them. AES-CMAC takes its message most significant octet first (§2.2.5), which for
    /// octets sent least significant first is the PDU reversed.
    public func attSignature(_ message: [UInt8], csrk: UInt128, signCounter: UInt32) -> [UInt8] {
        let counter = [UInt8(truncatingIfNeeded: signCounter), UInt8(truncatingIfNeeded: signCounter >> 8),
                       UInt8(truncatingIfNeeded: signCounter >> 16), UInt8(truncatingIfNeeded: signCounter >> 24)]
        let mac = cmac(key: csrk, message: (message + counter).reversed())
        let high = UInt64(truncatingIfNeeded: mac >> 64)
        return counter + (0..<8).map { UInt8(truncatingIfNeeded: high >> (8 * UInt64($0))) }
    }

    /// An ATT_SIGNED_WRITE_CMD writing `value` to `handle`, signed with the CSRK this device
    /// distributed at pairing and the SignCounter it has not used with that key before.
    public func signedWrite(handle: UInt16, value: [UInt8], csrk: UInt128, signCounter: UInt32) -> ATTSignedWrite {
        let message = [ATTOpcode.signedWriteCommand.rawValue, UInt8(truncatingIfNeeded: handle), UInt8(truncatingIfNeeded: handle >> 8)] + value
        return ATTSignedWrite(handle: handle, value: value[...],
                              authenticationSignature: attSignature(message, csrk: csrk, signCounter: signCounter)[...])
    }

    /// Whether a received ATT_SIGNED_WRITE_CMD carries a valid signature under `csrk` (for
    /// tests and a future server role; the SignCounter replay check is the caller's).
    public func verifiesSignature(of write: ATTSignedWrite, csrk: UInt128) -> Bool {
        let signature = Array(write.authenticationSignature)
        guard signature.count == ATTSignedWrite.signatureSize else { return false }
        let counter = UInt32(signature[0]) | UInt32(signature[1]) << 8 | UInt32(signature[2]) << 16 | UInt32(signature[3]) << 24
        let expected = signedWrite(handle: write.handle, value: Array(write.value), csrk: csrk, signCounter: counter)
        return Array(expected.authenticationSignature) == signature
    }
}
