import Wire

/// What a monitor frame that carries no HCI packet says (BlueZ doc/btsnoop-protocol; the
/// kernel's include/net/bluetooth/hci_mon.h and net/bluetooth/hci_sock.c): adapters coming
/// and going, the kernel's notes, and the programs that open HCI and management sockets.
public enum MonitorMessage: Sendable, Hashable {
    /// An adapter was registered: controller type, bus, public address, kernel name.
    case newIndex(type: UInt8, bus: UInt8, address: BDAddress, name: String)
    case deleteIndex
    /// The kernel opened (brought up) or closed the adapter's transport.
    case openIndex
    case closeIndex
    /// The controller's address and manufacturer, once the kernel has read them.
    case indexInfo(address: BDAddress, manufacturer: UInt16)
    case vendorDiagnostic(ArraySlice<UInt8>)
    /// A line of text from the kernel (e.g. "Bluetooth subsystem version 2.22").
    case systemNote(String)
    /// A log line a program wrote to the monitor (bluetoothd does): syslog priority,
    /// identifier, message.
    case userLogging(priority: UInt8, identifier: String, message: String)
    /// A program opened an HCI socket (raw or user channel) or the management channel.
    case controlOpen(MonitorControlOpen)
    case controlClose(cookie: UInt32)
    /// A management command a program sent, or an event the kernel sent it; which protocol
    /// the data follow is told by the `controlOpen` with the same cookie.
    case controlCommand(cookie: UInt32, data: ArraySlice<UInt8>)
    case controlEvent(cookie: UInt32, data: ArraySlice<UInt8>)
    /// Opcodes without a layout here (newer kernels' driver and socket packets).
    case other(ArraySlice<UInt8>)

    /// Decodes the payload of `frame` (an opcode that carries no HCI packet). Short payloads
    /// throw; strings are read up to their first NUL and need not be valid UTF-8.
    public init(_ frame: MonitorFrame) throws(WireError) {
        var r = ByteReader(frame.payload)
        switch frame.opcode {
        case .newIndex:
            let type = try r.u8("controller type")
            let bus = try r.u8("bus")
            let address = BDAddress(littleEndian: try r.bytes(6, "BD_ADDR")) ?? .zero
            let name = Self.text(try r.bytes(8, "name"))
            self = .newIndex(type: type, bus: bus, address: address, name: name)
        case .deleteIndex: self = .deleteIndex
        case .openIndex: self = .openIndex
        case .closeIndex: self = .closeIndex
        case .indexInfo:
            let address = BDAddress(littleEndian: try r.bytes(6, "BD_ADDR")) ?? .zero
            self = .indexInfo(address: address, manufacturer: try r.u16("manufacturer"))
        case .vendorDiagnostic: self = .vendorDiagnostic(frame.payload)
        case .systemNote: self = .systemNote(Self.text(frame.payload))
        case .userLogging:
            let priority = try r.u8("priority")
            let identLength = Int(try r.u8("identifier length"))
            let ident = Self.text(try r.bytes(identLength, "identifier"))
            self = .userLogging(priority: priority, identifier: ident, message: Self.text(r.rest()))
        case .controlOpen: self = .controlOpen(try MonitorControlOpen(decoding: &r))
        case .controlClose: self = .controlClose(cookie: try r.u32("cookie"))
        case .controlCommand: self = .controlCommand(cookie: try r.u32("cookie"), data: r.rest())
        case .controlEvent: self = .controlEvent(cookie: try r.u32("cookie"), data: r.rest())
        default: self = .other(frame.payload)
        }
    }

    /// Text up to the first NUL; invalid UTF-8 is repaired, control characters stay (the
    /// renderers escape them).
    static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// Names of the `bus` values of New Index (BTSNOOP_BUS_*).
    public static func busName(_ bus: UInt8) -> String {
        switch bus {
        case 0: return "Virtual"
        case 1: return "USB"
        case 2: return "PCCARD"
        case 3: return "UART"
        case 4: return "RS232"
        case 5: return "PCI"
        case 6: return "SDIO"
        case 7: return "SPI"
        case 8: return "I2C"
        case 9: return "SMD"
        case 10: return "VIRTIO"
        case 11: return "IPC"
        default: return "bus \(bus)"
        }
    }

    /// Names of the controller `type` values of New Index.
    public static func controllerTypeName(_ type: UInt8) -> String {
        switch type {
        case 0: return "Primary"
        case 1: return "AMP"
        default: return "type \(type)"
        }
    }

    /// Syslog priority names (User Logging).
    public static func priorityName(_ priority: UInt8) -> String {
        switch priority {
        case 0: return "emergency"
        case 1: return "alert"
        case 2: return "critical"
        case 3: return "error"
        case 4: return "warning"
        case 5: return "notice"
        case 6: return "info"
        case 7: return "debug"
        default: return "priority \(priority)"
        }
    }
}

/// Control Open (monitor opcode 14): a program opened a socket the kernel reports to the
/// monitor. Cookie names the socket in later Control Close / Command / Event frames.
public struct MonitorControlOpen: Sendable, Hashable {
    public enum Format: Sendable, Hashable {
        case rawHCI
        case userChannel
        case management
        case other(UInt16)

        init(_ raw: UInt16) {
            switch raw {
            case 0: self = .rawHCI
            case 1: self = .userChannel
            case 2: self = .management
            default: self = .other(raw)
            }
        }

        public var name: String {
            switch self {
            case .rawHCI: return "RAW"
            case .userChannel: return "USER"
            case .management: return "MGMT"
            case .other(let v): return "format \(Hex.number(v, width: 4))"
            }
        }
    }

    public var cookie: UInt32
    public var format: Format
    /// Version and revision of the protocol (the management interface's version for MGMT).
    public var version: UInt8?
    public var revision: UInt16?
    /// Bit 0: the socket is privileged (CAP_NET_ADMIN).
    public var flags: UInt32?
    /// The opening process's name (`comm`, e.g. "bluetoothd").
    public var command: String?

    public init(cookie: UInt32, format: Format, version: UInt8? = nil, revision: UInt16? = nil,
                flags: UInt32? = nil, command: String? = nil) {
        self.cookie = cookie
        self.format = format
        self.version = version
        self.revision = revision
        self.flags = flags
        self.command = command
    }

    public var isPrivileged: Bool { (flags ?? 0) & 1 != 0 }

    init(decoding r: inout ByteReader) throws(WireError) {
        cookie = try r.u32("cookie")
        format = Format(try r.u16("format"))
        // The details follow only for the three known formats (and kernels that send them).
        if case .other = format { return }
        guard r.count >= 8 else { return }
        version = try r.u8("version")
        revision = try r.u16("revision")
        flags = try r.u32("flags")
        let length = Int(try r.u8("command name length"))
        command = MonitorMessage.text(try r.bytes(length, "command name"))
    }
}
