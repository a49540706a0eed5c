import ESPHomeProto

/// A message a client (Home Assistant's aioesphomeapi) sends, decoded. Addresses are the 48-bit
/// Bluetooth device address as ESPHome carries it: an integer, most significant byte first.
public enum ClientMessage: Equatable, Sendable {
    case hello(clientInfo: String, apiVersionMajor: UInt32, apiVersionMinor: UInt32)
    case authentication(password: String)
    case disconnect
    case disconnectResponse
    case ping
    case pingResponse
    case deviceInfo
    case deviceCapabilities
    case listEntities
    /// Subscriptions to entity states, logs and Home Assistant services: a proxy has none of
    /// those to send, so they are accepted and nothing follows.
    case subscriptionWithNothingToSend(APIMessageType)
    case getTimeResponse
    case subscribeAdvertisements(flags: UInt32)
    case unsubscribeAdvertisements
    case deviceRequest(address: UInt64, kind: BluetoothDeviceRequestKind, addressType: UInt32?)
    case getServices(address: UInt64)
    case read(address: UInt64, handle: UInt16)
    case write(address: UInt64, handle: UInt16, withResponse: Bool, data: [UInt8])
    case readDescriptor(address: UInt64, handle: UInt16)
    case writeDescriptor(address: UInt64, handle: UInt16, data: [UInt8])
    case notify(address: UInt64, handle: UInt16, enable: Bool)
    case subscribeConnectionsFree
    case setScannerMode(BluetoothScannerMode)
    case setConnectionParameters(address: UInt64, minimumInterval: UInt32, maximumInterval: UInt32, latency: UInt32, timeout: UInt32)

    public enum DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
        case unknownType(UInt16)
        /// A type this proxy only sends, or one it knows but does not serve.
        case unexpectedType(APIMessageType)
        case malformed(APIMessageType)
        /// A handle above 0xFFFF, or a request kind or scanner mode the API does not define.
        case valueOutOfRange(APIMessageType)

        public var description: String {
            switch self {
            case let .unknownType(type):
                return "message type \(type) is not one a Bluetooth proxy serves"
            case let .unexpectedType(type):
                return "message type \(type.rawValue) (\(type)) is not one a client sends to a Bluetooth proxy"
            case let .malformed(type):
                return "message type \(type.rawValue) (\(type)) is not a valid protobuf encoding of that message"
            case let .valueOutOfRange(type):
                return "message type \(type.rawValue) (\(type)) holds a handle above 0xFFFF or a value the API does not define"
            }
        }
    }

    public init(_ frame: APIFrame) throws(DecodeError) {
        guard let type = APIMessageType(rawValue: frame.type) else { throw .unknownType(frame.type) }
        let bytes = frame.payload
        func decode<Message>(_ descriptor: UnsafePointer<ProtobufCMessageDescriptor>, _ kind: Message.Type,
                             _ read: (Message) -> ClientMessage?) throws(DecodeError) -> ClientMessage {
            guard let decoded = unpacked(bytes, descriptor, as: kind, read) else { throw .malformed(type) }
            guard let message = decoded else { throw .valueOutOfRange(type) }
            return message
        }
        func handle(_ value: UInt32) -> UInt16? { value <= 0xFFFF ? UInt16(value) : nil }
        switch type {
        case .helloRequest:
            self = try decode(esphome_hello_request_descriptor(), HelloRequest.self) {
                .hello(clientInfo: swiftString($0.client_info), apiVersionMajor: $0.api_version_major, apiVersionMinor: $0.api_version_minor)
            }
        case .authenticationRequest:
            self = try decode(esphome_authentication_request_descriptor(), AuthenticationRequest.self) { .authentication(password: swiftString($0.password)) }
        case .disconnectRequest:
            self = try decode(esphome_disconnect_request_descriptor(), DisconnectRequest.self) { _ in .disconnect }
        case .disconnectResponse: self = .disconnectResponse
        case .pingRequest: self = .ping
        case .pingResponse: self = .pingResponse
        case .deviceInfoRequest: self = .deviceInfo
        case .deviceCapabilitiesRequest: self = .deviceCapabilities
        case .listEntitiesRequest: self = .listEntities
        case .subscribeStatesRequest, .subscribeLogsRequest, .subscribeHomeassistantServicesRequest, .subscribeHomeAssistantStatesRequest:
            self = .subscriptionWithNothingToSend(type)
        case .getTimeResponse: self = .getTimeResponse
        case .subscribeBluetoothLEAdvertisementsRequest:
            self = try decode(esphome_subscribe_bluetooth_leadvertisements_request_descriptor(), SubscribeBluetoothLEAdvertisementsRequest.self) {
                .subscribeAdvertisements(flags: $0.flags)
            }
        case .unsubscribeBluetoothLEAdvertisementsRequest: self = .unsubscribeAdvertisements
        case .bluetoothDeviceRequest:
            let message = try decode(esphome_bluetooth_device_request_descriptor(), BluetoothDeviceRequest.self) { request in
                guard let kind = BluetoothDeviceRequestKind(rawValue: request.request_type) else { return nil }
                return .deviceRequest(address: request.address, kind: kind, addressType: request.has_address_type != 0 ? request.address_type : nil)
            }
            self = message
        case .bluetoothGATTGetServicesRequest:
            self = try decode(esphome_bluetooth_gatthandle_request_descriptor(), BluetoothGATTHandleRequest.self) { .getServices(address: $0.address) }
        case .bluetoothGATTReadRequest:
            self = try decode(esphome_bluetooth_gatthandle_request_descriptor(), BluetoothGATTHandleRequest.self) { request in
                handle(request.handle).map { .read(address: request.address, handle: $0) }
            }
        case .bluetoothGATTReadDescriptorRequest:
            self = try decode(esphome_bluetooth_gatthandle_request_descriptor(), BluetoothGATTHandleRequest.self) { request in
                handle(request.handle).map { .readDescriptor(address: request.address, handle: $0) }
            }
        case .bluetoothGATTWriteRequest:
            self = try decode(esphome_bluetooth_gattwrite_request_descriptor(), BluetoothGATTWriteRequest.self) { request in
                handle(request.handle).map { .write(address: request.address, handle: $0, withResponse: request.response != 0, data: swiftBytes(request.data)) }
            }
        case .bluetoothGATTWriteDescriptorRequest:
            self = try decode(esphome_bluetooth_gattdata_descriptor(), BluetoothGATTData.self) { request in
                handle(request.handle).map { .writeDescriptor(address: request.address, handle: $0, data: swiftBytes(request.data)) }
            }
        case .bluetoothGATTNotifyRequest:
            self = try decode(esphome_bluetooth_gattnotify_request_descriptor(), BluetoothGATTNotifyRequest.self) { request in
                handle(request.handle).map { .notify(address: request.address, handle: $0, enable: request.enable != 0) }
            }
        case .subscribeBluetoothConnectionsFreeRequest: self = .subscribeConnectionsFree
        case .bluetoothScannerSetModeRequest:
            self = try decode(esphome_bluetooth_scanner_set_mode_request_descriptor(), BluetoothScannerSetModeRequest.self) { request in
                BluetoothScannerMode(rawValue: request.mode).map { .setScannerMode($0) }
            }
        case .bluetoothSetConnectionParamsRequest:
            self = try decode(esphome_bluetooth_set_connection_params_request_descriptor(), BluetoothSetConnectionParamsRequest.self) {
                .setConnectionParameters(address: $0.address, minimumInterval: $0.min_interval, maximumInterval: $0.max_interval,
                                         latency: $0.latency, timeout: $0.timeout)
            }
        case .helloResponse, .authenticationResponse, .deviceInfoResponse, .listEntitiesDoneResponse, .getTimeRequest,
             .bluetoothDeviceConnectionResponse, .bluetoothGATTGetServicesResponse, .bluetoothGATTGetServicesDoneResponse,
             .bluetoothGATTReadResponse, .bluetoothGATTNotifyDataResponse, .bluetoothConnectionsFreeResponse,
             .bluetoothGATTErrorResponse, .bluetoothGATTWriteResponse, .bluetoothGATTNotifyResponse,
             .bluetoothDevicePairingResponse, .bluetoothDeviceUnpairingResponse, .bluetoothDeviceClearCacheResponse,
             .bluetoothLERawAdvertisementsResponse, .bluetoothScannerStateResponse, .bluetoothSetConnectionParamsResponse,
             .deviceCapabilitiesResponse:
            throw .unexpectedType(type)
        }
    }
}

/// `BluetoothDeviceRequestType` of the API.
public enum BluetoothDeviceRequestKind: UInt32, Sendable {
    case connect = 0
    case disconnect = 1
    case pair = 2
    case unpair = 3
    case connectV3WithCache = 4
    case connectV3WithoutCache = 5
    case clearCache = 6
}

/// `BluetoothScannerMode` of the API.
public enum BluetoothScannerMode: UInt32, Sendable {
    case passive = 0
    case active = 1
}

/// `BluetoothScannerState` of the API.
public enum BluetoothScannerState: UInt32, Sendable {
    case idle = 0
    case starting = 1
    case running = 2
    case failed = 3
    case stopping = 4
    case stopped = 5
}
