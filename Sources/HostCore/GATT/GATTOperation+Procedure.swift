import Wire

extension GATTOperation {
    /// The procedure of an operation that needs nothing of the client's own bookkeeping (the
    /// sub-procedures over a handle range, the multiple reads, reliable and signed writes), or
    /// why it cannot run. `GATTClient` builds the others itself (MTU, subscriptions, plan).
    func standaloneProcedure() -> Result<GATTProcedure, HostError> {
        switch self {
        case let .findIncludedServices(range):
            return Self.checked(range, "Find Included Services").map { FindIncludedServicesProcedure(range: $0) }
        case let .discoverCharacteristics(range, uuid):
            return Self.checked(range, "Discover Characteristics").map { DiscoverCharacteristicsProcedure(range: $0, uuid: uuid) }
        case let .discoverDescriptors(range):
            return Self.checked(range, "Discover Characteristic Descriptors").map { DiscoverDescriptorsProcedure(range: $0) }
        case let .readMultiple(handles):
            return .success(ReadMultipleProcedure(handles: handles))
        case let .readMultipleVariable(handles, when, fallback):
            return .success(ReadMultipleVariableProcedure(handles: handles, when: when, fallback: fallback))
        case let .reliableWrite(writes):
            return .success(ReliableWriteProcedure(writes: writes))
        case let .signedWrite(write):
            return .success(SignedWriteProcedure(write: write))
        case .exchangeMTU, .discoverAll, .discoverPrimaryServices, .read, .readLong, .readByType, .write,
             .writeWithoutResponse, .writeLong, .subscribe, .unsubscribe:
            return .failure(.invalidState("\(self) is built by the GATT client"))
        }
    }

    /// Handle 0x0000 is reserved (Vol 3, Part F, §3.2.2): a range starting there is refused
    /// rather than sent for the peer to answer Invalid Handle.
    private static func checked(_ range: ClosedRange<UInt16>, _ procedure: String) -> Result<ClosedRange<UInt16>, HostError> {
        guard range.lowerBound > 0 else {
            return .failure(.invalidState("\(procedure) over \(HandleWalk.text(range.lowerBound))-\(HandleWalk.text(range.upperBound)): handles start at 0x0001"))
        }
        return .success(range)
    }
}
