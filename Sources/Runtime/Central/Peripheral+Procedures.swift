import HostCore
import Wire

/// The GATT sub-procedures beyond discovery of the whole database, read, write and subscribe:
/// discovery over a handle range, the multiple reads, reliable writes (Core Spec v5.4 Vol 3,
/// Part G, §4.5–§4.9). Each is one `GATTOperation` on the link.
extension Peripheral {
    /// Primary services, all (§4.4.1) or those of one UUID (§4.4.2).
    public func discoverPrimaryServices(uuid: BluetoothUUID? = nil) async throws -> [GATTService] {
        guard case let .services(s) = try await perform(.discoverPrimaryServices(uuid)) else { throw Self.noResult("service discovery") }
        return s
    }

    /// Find Included Services over `range`, usually one service's (§4.5.1).
    public func findIncludedServices(in range: ClosedRange<UInt16>) async throws -> [GATTIncludedService] {
        guard case let .includedServices(s) = try await perform(.findIncludedServices(range: range)) else {
            throw Self.noResult("Find Included Services")
        }
        return s
    }

    /// The characteristics declared in `range` (§4.6.1), or only those of `uuid` (§4.6.2). The
    /// last one found is taken to end at the range's end.
    public func discoverCharacteristics(in range: ClosedRange<UInt16>, uuid: BluetoothUUID? = nil) async throws -> [GATTCharacteristic] {
        guard case let .characteristics(c) = try await perform(.discoverCharacteristics(range: range, uuid: uuid)) else {
            throw Self.noResult("characteristic discovery")
        }
        return c
    }

    /// Every attribute in `range` with its type (§4.7.1); for one characteristic's descriptors
    /// pass its value handle + 1 through its end handle.
    public func discoverDescriptors(in range: ClosedRange<UInt16>) async throws -> [GATTDescriptor] {
        guard case let .descriptors(d) = try await perform(.discoverDescriptors(range: range)) else {
            throw Self.noResult("descriptor discovery")
        }
        return d
    }

    /// Read Multiple Characteristic Values (§4.8.4): the values of two or more handles run
    /// together, as the peer sent them; split them with their known lengths.
    public func readMultiple(handles: [UInt16]) async throws -> [UInt8] {
        guard case let .value(v) = try await perform(.readMultiple(handles: handles)) else { throw Self.noResult("Read Multiple") }
        return v
    }

    /// Read Multiple Variable Length Characteristic Values (§4.8.5): each value with its handle,
    /// in the order asked. By default the request is sent only to a server that claims EATT in
    /// Server Supported Features (such a server must answer it), else the handles are read one
    /// by one (`fallback`); `when: .always` sends it regardless (see `ReadMultipleVariablePolicy`
    /// for the risk). Without `fallback` a server that does not support it is an error
    /// (`HostError.unsupportedByPeer`, or its Request Not Supported).
    public func readMultipleVariable(handles: [UInt16], when: ReadMultipleVariablePolicy = .ifServerSupportsEATT,
                                     fallback: Bool = true) async throws -> [(handle: UInt16, value: [UInt8])] {
        guard case let .values(v) = try await perform(.readMultipleVariable(handles: handles, when: when, fallback: fallback)) else {
            throw Self.noResult("Read Multiple Variable Length")
        }
        return v
    }

    /// Reliable Writes (§4.9.5): every value queued, each echo checked, then written together,
    /// or none of them (a wrong echo or a refused part cancels the queue and throws).
    public func reliableWrite(_ writes: [(handle: UInt16, value: [UInt8])]) async throws {
        _ = try await perform(.reliableWrite(writes))
    }

    static func noResult(_ what: String) -> CentralError {
        .host(.protocolViolation("\(what) returned no result"))
    }
}
