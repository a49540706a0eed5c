import ESPHomeProto

/// A message this proxy sends, before encoding.
public enum ServerMessage: Equatable, Sendable {
    case hello(apiVersionMajor: UInt32, apiVersionMinor: UInt32, serverInfo: String, name: String)
    case authentication(invalidPassword: Bool)
    case disconnect
    case disconnectResponse
    case ping
    case pingResponse
    case deviceInfo(ProxyIdentity)
    case deviceCapabilities(ProxyIdentity)
    case listEntitiesDone
    case rawAdvertisements([ProxyRawAdvertisement])
    case connection(address: UInt64, connected: Bool, mtu: UInt32, error: Int32)
    /// `shortUUIDs`: the client's API version is 1.12 or later.
    case services(address: UInt64, [ProxyGATTService], shortUUIDs: Bool)
    case servicesDone(address: UInt64)
    case readResponse(address: UInt64, handle: UInt16, data: [UInt8])
    case writeResponse(address: UInt64, handle: UInt16)
    case notifyResponse(address: UInt64, handle: UInt16)
    case notifyData(address: UInt64, handle: UInt16, data: [UInt8])
    case gattError(address: UInt64, handle: UInt16, error: Int32)
    case connectionsFree(free: UInt32, limit: UInt32, allocated: [UInt64])
    case pairing(address: UInt64, paired: Bool, error: Int32)
    case unpairing(address: UInt64, success: Bool, error: Int32)
    case clearCache(address: UInt64, success: Bool, error: Int32)
    case scannerState(BluetoothScannerState, mode: BluetoothScannerMode, configuredMode: BluetoothScannerMode)
    case connectionParameters(address: UInt64, error: Int32)

    /// The frame that carries this message.
    public var frame: APIFrame {
        let arena = ProtobufArena()
        switch self {
        case let .hello(major, minor, serverInfo, name):
            var message = HelloResponse()
            hello_response__init(&message)
            message.api_version_major = major
            message.api_version_minor = minor
            message.server_info = arena.string(serverInfo)
            message.name = arena.string(name)
            return APIFrame(type: APIMessageType.helloResponse.rawValue, payload: packed(message))
        case let .authentication(invalidPassword):
            var message = AuthenticationResponse()
            authentication_response__init(&message)
            message.invalid_password = invalidPassword ? 1 : 0
            return APIFrame(type: APIMessageType.authenticationResponse.rawValue, payload: packed(message))
        case .disconnect: return APIFrame(type: APIMessageType.disconnectRequest.rawValue, payload: [])
        case .disconnectResponse: return APIFrame(type: APIMessageType.disconnectResponse.rawValue, payload: [])
        case .ping: return APIFrame(type: APIMessageType.pingRequest.rawValue, payload: [])
        case .pingResponse: return APIFrame(type: APIMessageType.pingResponse.rawValue, payload: [])
        case .listEntitiesDone: return APIFrame(type: APIMessageType.listEntitiesDoneResponse.rawValue, payload: [])
        case let .deviceInfo(identity):
            var message = DeviceInfoResponse()
            device_info_response__init(&message)
            message.name = arena.string(identity.name)
            message.friendly_name = arena.string(identity.friendlyName)
            message.mac_address = arena.string(identity.macAddress)
            message.bluetooth_mac_address = arena.string(identity.bluetoothMACAddress)
            message.esphome_version = arena.string(identity.esphomeVersion)
            message.model = arena.string(identity.model)
            message.manufacturer = arena.string(identity.manufacturer)
            message.compilation_time = arena.string("")
            message.bluetooth_proxy_feature_flags = identity.features.rawValue
            message.legacy_bluetooth_proxy_version = identity.features.legacyProxyVersion
            message.api_encryption_supported = 1
            return APIFrame(type: APIMessageType.deviceInfoResponse.rawValue, payload: packed(message))
        case let .deviceCapabilities(identity):
            var proxy = BluetoothProxyCapabilities()
            bluetooth_proxy_capabilities__init(&proxy)
            proxy.feature_flags = identity.features.rawValue
            proxy.mac_address = arena.string(identity.bluetoothMACAddress)
            var message = DeviceCapabilitiesResponse()
            device_capabilities_response__init(&message)
            message.bluetooth_proxy = arena.message(proxy)
            return APIFrame(type: APIMessageType.deviceCapabilitiesResponse.rawValue, payload: packed(message))
        case let .rawAdvertisements(advertisements):
            let entries = advertisements.map { advertisement -> UnsafeMutablePointer<BluetoothLERawAdvertisement>? in
                var entry = BluetoothLERawAdvertisement()
                bluetooth_leraw_advertisement__init(&entry)
                entry.address = advertisement.address
                entry.rssi = advertisement.rssi
                entry.address_type = advertisement.addressType
                entry.data = arena.bytes(advertisement.data)
                return arena.message(entry)
            }
            var message = BluetoothLERawAdvertisementsResponse()
            bluetooth_leraw_advertisements_response__init(&message)
            message.n_advertisements = entries.count
            message.advertisements = arena.array(entries)
            return APIFrame(type: APIMessageType.bluetoothLERawAdvertisementsResponse.rawValue, payload: packed(message))
        case let .connection(address, connected, mtu, error):
            var message = BluetoothDeviceConnectionResponse()
            bluetooth_device_connection_response__init(&message)
            message.address = address
            message.connected = connected ? 1 : 0
            message.mtu = mtu
            message.error = error
            return APIFrame(type: APIMessageType.bluetoothDeviceConnectionResponse.rawValue, payload: packed(message))
        case let .services(address, services, shortUUIDs):
            func fill(_ uuid: ProxyUUID, long: inout UnsafeMutablePointer<UInt64>?, count: inout Int, short: inout UInt32) {
                if shortUUIDs, let value = uuid.short {
                    short = value
                } else {
                    long = arena.array([uuid.high, uuid.low])
                    count = 2
                }
            }
            let entries = services.map { service -> UnsafeMutablePointer<BluetoothGATTService>? in
                let characteristics = service.characteristics.map { characteristic -> UnsafeMutablePointer<BluetoothGATTCharacteristic>? in
                    let descriptors = characteristic.descriptors.map { descriptor -> UnsafeMutablePointer<BluetoothGATTDescriptor>? in
                        var entry = BluetoothGATTDescriptor()
                        bluetooth_gattdescriptor__init(&entry)
                        fill(descriptor.uuid, long: &entry.uuid, count: &entry.n_uuid, short: &entry.short_uuid)
                        entry.handle = UInt32(descriptor.handle)
                        return arena.message(entry)
                    }
                    var entry = BluetoothGATTCharacteristic()
                    bluetooth_gattcharacteristic__init(&entry)
                    fill(characteristic.uuid, long: &entry.uuid, count: &entry.n_uuid, short: &entry.short_uuid)
                    entry.handle = UInt32(characteristic.handle)
                    entry.properties = UInt32(characteristic.properties)
                    entry.n_descriptors = descriptors.count
                    entry.descriptors = arena.array(descriptors)
                    return arena.message(entry)
                }
                var entry = BluetoothGATTService()
                bluetooth_gattservice__init(&entry)
                fill(service.uuid, long: &entry.uuid, count: &entry.n_uuid, short: &entry.short_uuid)
                entry.handle = UInt32(service.handle)
                entry.n_characteristics = characteristics.count
                entry.characteristics = arena.array(characteristics)
                return arena.message(entry)
            }
            var message = BluetoothGATTGetServicesResponse()
            bluetooth_gattget_services_response__init(&message)
            message.address = address
            message.n_services = entries.count
            message.services = arena.array(entries)
            return APIFrame(type: APIMessageType.bluetoothGATTGetServicesResponse.rawValue, payload: packed(message))
        case let .servicesDone(address):
            return Self.addressHandle(.bluetoothGATTGetServicesDoneResponse, address, 0)
        case let .writeResponse(address, handle):
            return Self.addressHandle(.bluetoothGATTWriteResponse, address, handle)
        case let .notifyResponse(address, handle):
            return Self.addressHandle(.bluetoothGATTNotifyResponse, address, handle)
        case let .readResponse(address, handle, data):
            return Self.data(.bluetoothGATTReadResponse, address, handle, data, arena)
        case let .notifyData(address, handle, data):
            return Self.data(.bluetoothGATTNotifyDataResponse, address, handle, data, arena)
        case let .gattError(address, handle, error):
            var message = BluetoothGATTErrorResponse()
            bluetooth_gatterror_response__init(&message)
            message.address = address
            message.handle = UInt32(handle)
            message.error = error
            return APIFrame(type: APIMessageType.bluetoothGATTErrorResponse.rawValue, payload: packed(message))
        case let .connectionsFree(free, limit, allocated):
            var message = BluetoothConnectionsFreeResponse()
            bluetooth_connections_free_response__init(&message)
            message.free = free
            message.limit = limit
            message.n_allocated = allocated.count
            message.allocated = arena.array(allocated)
            return APIFrame(type: APIMessageType.bluetoothConnectionsFreeResponse.rawValue, payload: packed(message))
        case let .pairing(address, paired, error):
            return Self.result(.bluetoothDevicePairingResponse, address, paired, error)
        case let .unpairing(address, success, error):
            return Self.result(.bluetoothDeviceUnpairingResponse, address, success, error)
        case let .clearCache(address, success, error):
            return Self.result(.bluetoothDeviceClearCacheResponse, address, success, error)
        case let .scannerState(state, mode, configuredMode):
            var message = BluetoothScannerStateResponse()
            bluetooth_scanner_state_response__init(&message)
            message.state = state.rawValue
            message.mode = mode.rawValue
            message.configured_mode = configuredMode.rawValue
            return APIFrame(type: APIMessageType.bluetoothScannerStateResponse.rawValue, payload: packed(message))
        case let .connectionParameters(address, error):
            var message = BluetoothSetConnectionParamsResponse()
            bluetooth_set_connection_params_response__init(&message)
            message.address = address
            message.error = error
            return APIFrame(type: APIMessageType.bluetoothSetConnectionParamsResponse.rawValue, payload: packed(message))
        }
    }

    private static func addressHandle(_ type: APIMessageType, _ address: UInt64, _ handle: UInt16) -> APIFrame {
        var message = BluetoothGATTAddressHandle()
        bluetooth_gattaddress_handle__init(&message)
        message.address = address
        message.handle = UInt32(handle)
        return APIFrame(type: type.rawValue, payload: packed(message))
    }

    private static func data(_ type: APIMessageType, _ address: UInt64, _ handle: UInt16, _ data: [UInt8], _ arena: ProtobufArena) -> APIFrame {
        var message = BluetoothGATTData()
        bluetooth_gattdata__init(&message)
        message.address = address
        message.handle = UInt32(handle)
        message.data = arena.bytes(data)
        return APIFrame(type: type.rawValue, payload: packed(message))
    }

    private static func result(_ type: APIMessageType, _ address: UInt64, _ success: Bool, _ error: Int32) -> APIFrame {
        var message = BluetoothDeviceResult()
        bluetooth_device_result__init(&message)
        message.address = address
        message.success = success ? 1 : 0
        message.error = error
        return APIFrame(type: type.rawValue, payload: packed(message))
    }
}
