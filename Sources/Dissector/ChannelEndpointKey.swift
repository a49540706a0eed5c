import Wire

/// One end of an L2CAP channel as a reader of the capture sees it: data to the host's end
/// travels controller → host and carries the host's CID, data to the peer's end travels
/// host → controller and carries the peer's. The two devices choose their CIDs apart, so the
/// same number may name one end each way.
struct ChannelEndpointKey: Hashable {
    var direction: Direction
    var cid: UInt16
}

/// A signaling request waiting for its response: who asked (direction) and with which
/// Identifier, which the response echoes.
struct SignalingRequestKey: Hashable {
    var direction: Direction
    var identifier: UInt8
}
