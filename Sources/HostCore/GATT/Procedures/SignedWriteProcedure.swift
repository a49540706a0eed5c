import Wire

/// Signed Write Without Response (Core Spec v5.4 Vol 3, Part G, §4.9.2): an
/// ATT_SIGNED_WRITE_CMD, signed beforehand by the caller with the CSRK rtstack distributed at
/// pairing and its next SignCounter (`SecurityCryptography.signedWrite`): signing needs the
/// bond's counter, which lives with the bond outside the core.
///
/// Only for a link without encryption: on an encrypted one the peer is already authenticated
/// and Write Without Response is the procedure to use (Vol 3, Part C, §10.4.2), so the write is
/// refused rather than changed behind the caller's back.
final class SignedWriteProcedure: GATTProcedure {
    let write: ATTSignedWrite
    let linkEncrypted: Bool

    init(write: ATTSignedWrite, linkEncrypted: Bool) {
        self.write = write
        self.linkEncrypted = linkEncrypted
    }

    func start(mtu: UInt16) -> GATTStep {
        if linkEncrypted {
            return .failed(.invalidState("a signed write is only for an unencrypted link and this link is encrypted; write without response instead (Core Spec v5.4 Vol 3, Part C, §10.4.2)"))
        }
        guard write.authenticationSignature.count == ATTSignedWrite.signatureSize else {
            return .failed(.invalidState("an Authentication Signature is \(ATTSignedWrite.signatureSize) octets, not \(write.authenticationSignature.count)"))
        }
        // Opcode, handle and signature take 15 octets (Vol 3, Part F, §3.4.5.4).
        let room = Int(mtu) - 15
        guard write.value.count <= room else {
            return .failed(.invalidState("a signed value of \(write.value.count) bytes does not fit one Signed Write Command (ATT_MTU \(mtu) leaves \(max(0, room)))"))
        }
        return .command(.signedWriteCommand(write))
    }

    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        .unexpected(response, in: "Signed Write Without Response")
    }

    var result: GATTResult { .done }
}
