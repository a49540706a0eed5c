import Wire

/// Signed Write Without Response (Core Spec v5.4 Vol 3, Part G, §4.9.2): an
/// ATT_SIGNED_WRITE_CMD, signed beforehand by the caller with the CSRK rtstack distributed at
/// pairing and its next SignCounter (`SecurityCryptography.signedWrite`): signing needs the
/// bond's counter, which lives with the bond outside the core.
///
/// Only for a link without encryption: on an encrypted one Write Without Response shall be
/// used instead (Vol 3, Part G, §4.9.2), and `GATTClient` builds that procedure in its place.
final class SignedWriteProcedure: GATTProcedure {
    let write: ATTSignedWrite

    init(write: ATTSignedWrite) {
        self.write = write
    }

    func start(mtu: UInt16) -> GATTStep {
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
