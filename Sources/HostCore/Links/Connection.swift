import Wire

/// One connection of a link, from its completion to its end: what the controller (or kernel)
/// said about it, its L2CAP reassembly (HCI backend only: the kernel's sockets deliver whole
/// PDUs) and its GATT client. A class, because the data path reaches it through the handle
/// table on every packet and must mutate the reassembler in place.
final class Connection {
    var info: ConnectionInfo
    let client: GATTClient
    @exclusivity(unchecked) var reassembler: ACLReassembler
    /// The plan waits for security (a bonded peer is re-encrypted first, a link that must be
    /// secure is secured first): `LinkTable.releasePlan` starts it.
    var planHeld = false
    /// Pairing and encryption of this connection (HCI backend; the kernel does its own).
    var security: LinkSecurity?

    init(info: ConnectionInfo, client: GATTClient, maximumPayload: Int) {
        self.info = info
        self.client = client
        reassembler = ACLReassembler(maximumPayloadLength: maximumPayload)
    }

    var handle: UInt16 { info.handle }
    var link: LinkID { client.link }
}
