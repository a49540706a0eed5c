import Wire

/// Which connection an HCI event is about, for the peer of every packet: the events that
/// open one (with their peer) and those that carry a Connection_Handle.
enum EventConnection {
    /// Handle and peer of a successful LE (Enhanced) Connection Complete.
    static func opened(by le: LEMetaEvent) -> (UInt16, DeviceAddress)? {
        switch le {
        case .connectionComplete(let c) where c.status.isSuccess: return (c.connectionHandle, c.peer)
        case .enhancedConnectionCompleteV1(let c) where c.status.isSuccess: return (c.connectionHandle, c.peer)
        case .enhancedConnectionCompleteV2(let c) where c.status.isSuccess: return (c.connectionHandle, c.peer)
        default: return nil
        }
    }

    static func handle(of le: LEMetaEvent) -> UInt16? {
        switch le {
        case .longTermKeyRequest(let e): return e.connectionHandle
        case .connectionUpdateComplete(let e): return e.connectionHandle
        case .readRemoteFeaturesComplete(let e): return e.connectionHandle
        case .dataLengthChange(let e): return e.connectionHandle
        case .phyUpdateComplete(let e): return e.connectionHandle
        case .remoteConnectionParameterRequest(let e): return e.connectionHandle
        default: return nil
        }
    }

    static func handle(of event: HCIEvent) -> UInt16? {
        switch event {
        case .disconnectionComplete(let e): return e.connectionHandle
        case .encryptionChangeV1(let e): return e.connectionHandle
        case .encryptionChangeV2(let e): return e.connectionHandle
        case .encryptionKeyRefreshComplete(let e): return e.connectionHandle
        case .le(let le): return handle(of: le)
        default: return nil
        }
    }
}
