import Wire

/// A GATT procedure the application asks of one link. Each runs to completion before the next
/// ATT request on that bearer (one request in flight, Core Spec Vol 3, Part F, §3.3.2).
public enum GATTOperation: Sendable {
    case exchangeMTU(UInt16)
    /// Services, included services, characteristics and descriptors: the whole database.
    case discoverAll
    case discoverPrimaryServices(BluetoothUUID?)
    case read(handle: UInt16)
    /// Read, then Read Blob until a short answer (Vol 3, Part G, §4.8.3).
    case readLong(handle: UInt16)
    /// Read Using Characteristic UUID over a handle range (Vol 3, Part G, §4.8.2).
    case readByType(BluetoothUUID, range: ClosedRange<UInt16>)
    case write(handle: UInt16, value: [UInt8])
    case writeWithoutResponse(handle: UInt16, value: [UInt8])
    /// Prepare Write + Execute Write (Vol 3, Part G, §4.9.4).
    case writeLong(handle: UInt16, value: [UInt8])
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
    case database(GATTDatabase)
}
