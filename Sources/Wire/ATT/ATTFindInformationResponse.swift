/// Format of a Find Information Response (Core Spec v5.4 Vol 3, Part F, §3.4.3.2):
/// every UUID in one response has the same width.
public enum ATTFindInformationFormat: UInt8, Sendable, Hashable {
    /// Handles with 16-bit Bluetooth UUIDs.
    case uuid16 = 0x01
    /// Handles with 128-bit UUIDs.
    case uuid128 = 0x02

    public var uuidSize: Int { self == .uuid16 ? 2 : 16 }

    public var name: String { self == .uuid16 ? "16-bit UUIDs" : "128-bit UUIDs" }
}

/// One Handle–UUID pair of the Information Data.
public struct ATTInformationData: Sendable, Hashable {
    public var handle: UInt16
    public var uuid: BluetoothUUID

    public init(handle: UInt16, uuid: BluetoothUUID) {
        self.handle = handle
        self.uuid = uuid
    }
}

/// ATT_FIND_INFORMATION_RSP parameters (§3.4.3.2): Format, then Information Data.
public struct ATTFindInformationResponse: Sendable, Hashable {
    public var format: ATTFindInformationFormat
    public var informationData: [ATTInformationData]

    /// With an explicit format; in format 1 each UUID is written as its 16 low alias bits, so
    /// only put 16-bit UUIDs in it.
    public init(format: ATTFindInformationFormat, informationData: [ATTInformationData]) {
        self.format = format
        self.informationData = informationData
    }

    /// Picks format 1 when every UUID has a 16-bit alias, 2 otherwise.
    public init(informationData: [ATTInformationData]) {
        let all16 = informationData.allSatisfy { $0.uuid.uuid16 != nil }
        self.init(format: all16 ? .uuid16 : .uuid128, informationData: informationData)
    }
}
