/// Every command this module has a codec for, by opcode: the dissector's way to decode any
/// command packet and any Command Complete without knowing the types.
///
/// This is the display path only, so the results are existentials; the host uses the typed
/// `HCICommand` API instead.
public enum HCICommandCatalog {
    /// All command types with a codec.
    public static var allCommandTypes: [any HCICommand.Type] {
        [
            Reset.self, SetEventMask.self, LESetEventMask.self,
            ReadLocalVersionInformation.self, ReadLocalSupportedCommands.self, ReadLocalSupportedFeatures.self,
            ReadBDADDR.self, ReadBufferSize.self, LEReadBufferSize.self, LEReadBufferSizeV2.self,
            LEReadLocalSupportedFeatures.self, LEReadSupportedStates.self, LESetRandomAddress.self,
            LESetScanParameters.self, LESetScanEnable.self,
            LESetExtendedScanParameters.self, LESetExtendedScanEnable.self,
            LECreateConnection.self, LECreateConnectionCancel.self, LEExtendedCreateConnection.self,
            Disconnect.self, LEConnectionUpdate.self, LESetDataLength.self, LEReadRemoteFeatures.self,
            ReadRemoteVersionInformation.self,
            LEAddDeviceToFilterAcceptList.self, LERemoveDeviceFromFilterAcceptList.self,
            LEClearFilterAcceptList.self, LEReadFilterAcceptListSize.self,
            ReadRSSI.self, LESetPHY.self,
            LESetAdvertisingParameters.self, LESetAdvertisingData.self, LESetScanResponseData.self,
            LESetAdvertisingEnable.self, HostBufferSize.self, WriteLEHostSupport.self,
        ]
    }

    /// The command type for `opcode`; nil when this module has no codec for it.
    public static func commandType(for opcode: HCIOpcode) -> (any HCICommand.Type)? {
        switch opcode {
        case Reset.opcode: return Reset.self
        case SetEventMask.opcode: return SetEventMask.self
        case LESetEventMask.opcode: return LESetEventMask.self
        case ReadLocalVersionInformation.opcode: return ReadLocalVersionInformation.self
        case ReadLocalSupportedCommands.opcode: return ReadLocalSupportedCommands.self
        case ReadLocalSupportedFeatures.opcode: return ReadLocalSupportedFeatures.self
        case ReadBDADDR.opcode: return ReadBDADDR.self
        case ReadBufferSize.opcode: return ReadBufferSize.self
        case LEReadBufferSize.opcode: return LEReadBufferSize.self
        case LEReadBufferSizeV2.opcode: return LEReadBufferSizeV2.self
        case LEReadLocalSupportedFeatures.opcode: return LEReadLocalSupportedFeatures.self
        case LEReadSupportedStates.opcode: return LEReadSupportedStates.self
        case LESetRandomAddress.opcode: return LESetRandomAddress.self
        case LESetScanParameters.opcode: return LESetScanParameters.self
        case LESetScanEnable.opcode: return LESetScanEnable.self
        case LESetExtendedScanParameters.opcode: return LESetExtendedScanParameters.self
        case LESetExtendedScanEnable.opcode: return LESetExtendedScanEnable.self
        case LECreateConnection.opcode: return LECreateConnection.self
        case LECreateConnectionCancel.opcode: return LECreateConnectionCancel.self
        case LEExtendedCreateConnection.opcode: return LEExtendedCreateConnection.self
        case Disconnect.opcode: return Disconnect.self
        case LEConnectionUpdate.opcode: return LEConnectionUpdate.self
        case LESetDataLength.opcode: return LESetDataLength.self
        case LEReadRemoteFeatures.opcode: return LEReadRemoteFeatures.self
        case ReadRemoteVersionInformation.opcode: return ReadRemoteVersionInformation.self
        case LEAddDeviceToFilterAcceptList.opcode: return LEAddDeviceToFilterAcceptList.self
        case LERemoveDeviceFromFilterAcceptList.opcode: return LERemoveDeviceFromFilterAcceptList.self
        case LEClearFilterAcceptList.opcode: return LEClearFilterAcceptList.self
        case LEReadFilterAcceptListSize.opcode: return LEReadFilterAcceptListSize.self
        case ReadRSSI.opcode: return ReadRSSI.self
        case LESetPHY.opcode: return LESetPHY.self
        case LESetAdvertisingParameters.opcode: return LESetAdvertisingParameters.self
        case LESetAdvertisingData.opcode: return LESetAdvertisingData.self
        case LESetScanResponseData.opcode: return LESetScanResponseData.self
        case LESetAdvertisingEnable.opcode: return LESetAdvertisingEnable.self
        case HostBufferSize.opcode: return HostBufferSize.self
        case WriteLEHostSupport.opcode: return WriteLEHostSupport.self
        default: return nil
        }
    }

    /// Whether the controller answers `opcode` with Command Status; nil when unknown here.
    public static func completesWithStatus(_ opcode: HCIOpcode) -> Bool? {
        commandType(for: opcode).map { $0.completesWithStatus }
    }

    /// Decodes the parameters of a command packet; nil when the opcode has no codec here.
    public static func decodeParameters(opcode: HCIOpcode, _ bytes: ArraySlice<UInt8>) -> Result<any FieldDescribing, WireError>? {
        guard let type = commandType(for: opcode) else { return nil }
        return decodeParameters(type, bytes)
    }

    /// Decodes the return parameters of a Command Complete for `opcode`; nil when the opcode has
    /// no codec here. A command normally answered with Command Status has no return
    /// parameters; should a Command Complete still carry bytes for it (an unsupported command
    /// answered with a status), they are shown as a status.
    public static func decodeReturnParameters(opcode: HCIOpcode, _ bytes: ArraySlice<UInt8>) -> Result<any FieldDescribing, WireError>? {
        guard let type = commandType(for: opcode) else { return nil }
        if type.completesWithStatus && !bytes.isEmpty {
            return decode(StatusReturnParameters.self, bytes)
        }
        return decodeReturnParameters(type, bytes)
    }

    private static func decodeParameters<C: HCICommand>(_ type: C.Type, _ bytes: ArraySlice<UInt8>) -> Result<any FieldDescribing, WireError> {
        decode(C.self, bytes)
    }

    private static func decodeReturnParameters<C: HCICommand>(_ type: C.Type, _ bytes: ArraySlice<UInt8>) -> Result<any FieldDescribing, WireError> {
        decode(C.ReturnParameters.self, bytes)
    }

    private static func decode<T: WireCodable & FieldDescribing>(_ type: T.Type, _ bytes: ArraySlice<UInt8>) -> Result<any FieldDescribing, WireError> {
        do throws(WireError) {
            return .success(try T(bytes: bytes))
        } catch {
            return .failure(error)
        }
    }
}
