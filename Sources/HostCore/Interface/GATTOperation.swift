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
    /// Write the CCCD of the characteristic whose value handle is given.
    case setNotifications(valueHandle: UInt16, mode: SubscriptionMode)
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
