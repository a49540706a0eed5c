import Wire

/// A GATT procedure the application asks of one link. Each runs to completion before the next
/// ATT request on that bearer (one request in flight, Core Spec Vol 3, Part F, §3.3.2).
public enum GATTOperation: Sendable {
    case exchangeMTU(UInt16)
    /// Services, included services, characteristics and descriptors: the whole database.
    case discoverAll
    case discoverPrimaryServices(BluetoothUUID?)
    /// Find Included Services over a handle range, usually one service's (Vol 3, Part G, §4.5.1).
    case findIncludedServices(range: ClosedRange<UInt16>)
    /// Discover All Characteristics of a Service over a handle range (§4.6.1), or only those
    /// of one UUID (Discover Characteristics by UUID, §4.6.2).
    case discoverCharacteristics(range: ClosedRange<UInt16>, uuid: BluetoothUUID?)
    /// Discover All Characteristic Descriptors over a handle range (§4.7.1): every attribute
    /// in it with its type, so the range should be one characteristic's descriptors.
    case discoverDescriptors(range: ClosedRange<UInt16>)
    case read(handle: UInt16)
    /// Read, then Read Blob until a short answer (Vol 3, Part G, §4.8.3).
    case readLong(handle: UInt16)
    /// Read Using Characteristic UUID over a handle range (Vol 3, Part G, §4.8.2).
    case readByType(BluetoothUUID, range: ClosedRange<UInt16>)
    /// Read Multiple Characteristic Values (Vol 3, Part G, §4.8.4): two or more handles in one
    /// request; the result is their values run together (`.value`), which only a caller that
    /// knows each value's length can split.
    case readMultiple(handles: [UInt16])
    /// Read Multiple Variable Length Characteristic Values (§4.8.5): two or more handles, each
    /// value returned with its length (`.values`). A server must support it only if it
    /// supports EATT, which it says in Server Supported Features (0x2B3A); `when` decides
    /// whether that is read first. When the server does not support it (not claimed, or it
    /// answers Request Not Supported), `fallback` reads the handles one by one instead;
    /// without it the operation fails (`.unsupportedByPeer`, or the peer's Error Response).
    case readMultipleVariable(handles: [UInt16], when: ReadMultipleVariablePolicy, fallback: Bool)
    case write(handle: UInt16, value: [UInt8])
    case writeWithoutResponse(handle: UInt16, value: [UInt8])
    /// Prepare Write + Execute Write (Vol 3, Part G, §4.9.4).
    case writeLong(handle: UInt16, value: [UInt8])
    /// Reliable Writes (Vol 3, Part G, §4.9.5): every value queued with Prepare Write, each
    /// echo checked, then one Execute Write, so the server applies all of them or none.
    case reliableWrite([(handle: UInt16, value: [UInt8])])
    /// Signed Write Without Response (Vol 3, Part G, §4.9.2): an ATT_SIGNED_WRITE_CMD signed
    /// by the caller (`SecurityCryptography.signedWrite`). Refused on an encrypted link, where
    /// Write Without Response is the procedure to use.
    case signedWrite(ATTSignedWrite)
    /// One more registration for the values of this characteristic: its CCCD is written (Vol 3,
    /// Part G, §4.10, §4.11) when this is the first, and left as it is when another
    /// registration (or the link's plan) already holds it on.
    case subscribe(valueHandle: UInt16, mode: SubscriptionMode)
    /// One registration fewer: when it was the last, the CCCD is written back to 0.
    case unsubscribe(valueHandle: UInt16)

    /// The value handle a `subscribe` registers.
    var registeredHandle: UInt16? {
        if case let .subscribe(handle, _) = self { return handle }
        return nil
    }
}

/// When the GATT client sends ATT_READ_MULTIPLE_VARIABLE_REQ (Core Spec v5.4 Vol 3, Part G,
/// §4.8.5), which a server without EATT need not support and may not even answer: BlueZ 5.66's
/// btgatt-server reads the values and sends nothing (its ATT layer does not know the response
/// opcode), so the request times out after 30 s and takes the bearer with it (Part F, §3.3.3).
public enum ReadMultipleVariablePolicy: Sendable, Hashable {
    /// Reads Server Supported Features (0x2B3A) first, and sends the request only when the
    /// server sets EATT Supported (then it must answer it, Part G, §4.2). One request more,
    /// never the risk of a silent server.
    case ifServerSupportsEATT
    /// Sends the request without asking: for servers known to support it without EATT (Bumble's
    /// does), at the risk above.
    case always
}

public enum SubscriptionMode: Sendable, Hashable {
    case off, notify, indicate
    /// Notifications when the characteristic has them, else indications.
    case automatic

    public var cccdValue: UInt16 {
        switch self {
        case .off: return 0
        case .notify, .automatic: return 1
        case .indicate: return 2
        }
    }
}

public enum GATTResult: Sendable {
    case done
    case mtu(UInt16)
    case value([UInt8])
    case values([(handle: UInt16, value: [UInt8])])
    case services([GATTService])
    case includedServices([GATTIncludedService])
    case characteristics([GATTCharacteristic])
    case descriptors([GATTDescriptor])
    case database(GATTDatabase)
}
