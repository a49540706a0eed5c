/// A management event from the HCI control channel (BlueZ doc/mgmt-api, "Events"): Event_Code,
/// Controller_Index, Parameter_Length (2 octets each, little-endian), then the parameters.
/// Events rtstack does not act on decode as `.other`, so the backend can skip them.
public struct ManagementEvent: Sendable {
    public var index: UInt16
    public var payload: Payload

    public enum Payload: Sendable {
        /// Command Complete (0x0001): the command's return parameters follow the status.
        case commandComplete(ManagementOpcode, ManagementStatus, returnParameters: ArraySlice<UInt8>)
        /// Command Status (0x0002): a failure (or, rarely, an early success) without return parameters.
        case commandStatus(ManagementOpcode, ManagementStatus)
        /// Controller Error (0x0003): the controller's HCI Hardware Error code.
        case controllerError(UInt8)
        case indexAdded
        case indexRemoved
        case newSettings(ManagementSettings)
        case deviceFound(ManagementDeviceFound)
        case discovering(ManagementDiscoveryTypes, Bool)
        case other(ManagementEventCode, ArraySlice<UInt8>)
    }

    public init(index: UInt16, payload: Payload) {
        self.index = index
        self.payload = payload
    }

    /// Decodes one event: `bytes` is one read from the control socket, which keeps packet
    /// boundaries. Parameters shorter than the event needs, or a length that overruns the
    /// packet, throw.
    public init(bytes: ArraySlice<UInt8>) throws(WireError) {
        var r = ByteReader(bytes)
        let code = ManagementEventCode(rawValue: try r.u16("Event_Code"))
        index = try r.u16("Controller_Index")
        let length = Int(try r.u16("Parameter_Length"))
        let parameters = try r.bytes(length, "Parameters")
        var p = ByteReader(parameters)
        switch code {
        case .commandComplete:
            let opcode = ManagementOpcode(rawValue: try p.u16("Command_Opcode"))
            let status = ManagementStatus(rawValue: try p.u8("Status"))
            payload = .commandComplete(opcode, status, returnParameters: p.rest())
        case .commandStatus:
            let opcode = ManagementOpcode(rawValue: try p.u16("Command_Opcode"))
            payload = .commandStatus(opcode, ManagementStatus(rawValue: try p.u8("Status")))
        case .controllerError:
            payload = .controllerError(try p.u8("Error_Code"))
        case .indexAdded:
            payload = .indexAdded
        case .indexRemoved:
            payload = .indexRemoved
        case .newSettings:
            payload = .newSettings(ManagementSettings(rawValue: try p.u32("Current_Settings")))
        case .deviceFound:
            payload = .deviceFound(try ManagementDeviceFound(decoding: &p))
        case .discovering:
            let types = ManagementDiscoveryTypes(rawValue: try p.u8("Address_Type"))
            payload = .discovering(types, try p.u8("Discovering") != 0)
        default:
            payload = .other(code, parameters)
        }
    }

    public var code: ManagementEventCode {
        switch payload {
        case .commandComplete: return .commandComplete
        case .commandStatus: return .commandStatus
        case .controllerError: return .controllerError
        case .indexAdded: return .indexAdded
        case .indexRemoved: return .indexRemoved
        case .newSettings: return .newSettings
        case .deviceFound: return .deviceFound
        case .discovering: return .discovering
        case .other(let c, _): return c
        }
    }

    /// The event as the kernel sends it (tests and simulated kernels).
    public var encoded: [UInt8] {
        var p = ByteWriter()
        switch payload {
        case let .commandComplete(opcode, status, rp):
            p.u16(opcode.rawValue); p.u8(status.rawValue); p.append(rp)
        case let .commandStatus(opcode, status):
            p.u16(opcode.rawValue); p.u8(status.rawValue)
        case let .controllerError(e):
            p.u8(e)
        case .indexAdded, .indexRemoved:
            break
        case let .newSettings(s):
            p.u32(s.rawValue)
        case let .deviceFound(d):
            d.encode(into: &p)
        case let .discovering(t, on):
            p.u8(t.rawValue); p.u8(on ? 1 : 0)
        case let .other(_, bytes):
            p.append(bytes)
        }
        var w = ByteWriter(capacity: 6 + p.count)
        w.u16(code.rawValue)
        w.u16(index)
        w.u16(UInt16(truncatingIfNeeded: p.count))
        w.append(p.bytes)
        return w.bytes
    }
}
