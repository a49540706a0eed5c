import Wire

/// One connection of a link, from its completion to its end: what the controller (or kernel)
/// said about it, its L2CAP reassembly (HCI backend only: the kernel's sockets deliver whole
/// PDUs) and its GATT client. A class, because the data path reaches it through the handle
/// table on every packet and must mutate the reassembler in place.
final class Connection {
    var info: ConnectionInfo
    let client: GATTClient
    @exclusivity(unchecked) var reassembler: ACLReassembler
    /// Pairing and encryption of this connection (HCI backend; the kernel does its own).
    var security: LinkSecurity?
    /// HCI backend: LE Read Remote Features is under way and encryption waits for it, with the
    /// key to encrypt with once it completes (nil until the link's security asks).
    var featureExchange: FeatureExchange?

    struct FeatureExchange {
        var thenEncryptWith: LinkEncryptionKey?
    }

    init(info: ConnectionInfo, client: GATTClient, maximumPayload: Int) {
        self.info = info
        self.client = client
        reassembler = ACLReassembler(maximumPayloadLength: maximumPayload)
    }

    var handle: UInt16 { info.handle }
    var link: LinkID { client.link }
}
