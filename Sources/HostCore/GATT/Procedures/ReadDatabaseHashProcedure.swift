import Wire

/// Reads the Database Hash characteristic (0x2B2A, Core Spec v5.4 Vol 3, Part G, §7.3) with one
/// Read Using Characteristic UUID request over the whole database: its handle may have moved
/// if the database changed, which is exactly what the hash is read to find out.
///
/// Lenient by design: an error, an empty answer or a value that is not 128 bits all mean "no
/// usable hash", which makes a cache check fall back to full discovery — never a failure.
final class ReadDatabaseHashProcedure: GATTProcedure {
    static let hashSize = 16
    private(set) var hash: [UInt8]?

    func start(mtu: UInt16) -> GATTStep {
        .request(.readByTypeRequest(ATTAttributeTypeQuery(range: .all, attributeType: .databaseHash)))
    }

    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        if case let .readByTypeResponse(list) = response, let first = list.first,
           first.handle != 0, first.value.count == Self.hashSize {
            hash = Array(first.value)
        }
        return .done
    }

    var result: GATTResult { hash.map { .value($0) } ?? .done }
}
