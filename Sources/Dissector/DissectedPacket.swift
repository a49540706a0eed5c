import Wire

/// One packet as the decoder understood it: what `rtstack decode` prints as a headline, its
/// fields, and the facts the JSON form and the summary need.
public struct DissectedPacket: Sendable {
    /// 1-based position in the capture.
    public var index: Int
    public var timestampMicros: Int64
    /// Seconds since the first packet of the capture.
    public var relativeTime: Double
    public var direction: Direction
    public var type: H4PacketType
    /// Headline name, e.g. "LE Set Scan Enable", "Command Complete", "ATT Handle Value Notification".
    public var name: String
    /// Opcode of a command, or event code, shown next to the name.
    public var code: String
    /// Connection handle of ACL/SCO/ISO data, and of events that carry one.
    public var connectionHandle: UInt16?
    /// The adapter (`hciN`) of a Linux monitor capture; nil where the source has one adapter.
    public var adapterIndex: UInt16?
    /// The remote device the packet concerns: the peer of its connection (from the connection
    /// events seen), or the advertiser of an advertising report.
    public var peer: DeviceAddress?
    /// The dynamic L2CAP channel (CID 0x0040 and up) of an ACL packet whose frame ended on one.
    public var channel: UInt16?
    /// Packets with the same id were decoded to the same name, summary and fields (a repeated
    /// advertising report): a renderer may reuse what it made of the first. Nil for others.
    public var decodingID: Int?
    /// The one entry of `fields` that may differ between packets with the same `decodingID`
    /// (an advertising report's RSSI); nil when all of them are the same.
    public var decodingVariableField: Int?
    /// The headline's summary. Kept as bytes: the renderers copy it out as it is, and a
    /// `String` per packet cost an allocation and a copy more.
    public var summaryText: TextBuffer
    public var fields: FieldList
    public var att: ATTSummary?
    /// Decode problems found in this packet; counted in the summary, never fatal.
    public var errors: [String]
    /// The packet's bytes after the H4 indicator.
    public var bytes: ArraySlice<UInt8>
    /// Octets of `bytes` (offsets from its start) that hold key material the decoder was told
    /// not to show: the renderers write them as `00` in hex dumps and in JSON's `hex`.
    public var redactedBytes: Range<Int>?

    /// `bytes`, with `redactedBytes` zeroed: what hex dumps show.
    public var shownBytes: ArraySlice<UInt8> {
        guard let r = redactedBytes, r.lowerBound >= 0, r.upperBound <= bytes.count else { return bytes }
        var copy = Array(bytes)
        for i in r { copy[i] = 0 }
        return copy[...]
    }

    public init(index: Int, timestampMicros: Int64, relativeTime: Double, direction: Direction,
                type: H4PacketType, bytes: ArraySlice<UInt8>) {
        self.index = index
        self.timestampMicros = timestampMicros
        self.relativeTime = relativeTime
        self.direction = direction
        self.type = type
        self.name = ""
        self.code = ""
        self.summaryText = TextBuffer()
        self.fields = FieldList()
        self.errors = []
        self.bytes = bytes
    }

    /// `summaryText` as a `String`.
    public var summary: String {
        get { summaryText.string }
        set {
            summaryText.removeAll()
            summaryText.append(newValue)
        }
    }

    /// Makes this the packet at `index`, keeping the memory of its summary and fields for the
    /// new content (`PacketDissector.dissect(_:into:)`).
    mutating func reset(index: Int, timestampMicros: Int64, relativeTime: Double, direction: Direction,
                        type: H4PacketType, bytes: ArraySlice<UInt8>) {
        self.index = index
        self.timestampMicros = timestampMicros
        self.relativeTime = relativeTime
        self.direction = direction
        self.type = type
        self.name = ""
        self.code = ""
        self.connectionHandle = nil
        self.adapterIndex = nil
        self.peer = nil
        self.channel = nil
        self.decodingID = nil
        self.decodingVariableField = nil
        self.redactedBytes = nil
        self.summaryText.removeAll()
        self.fields.removeAll()
        self.att = nil
        if !errors.isEmpty { errors.removeAll(keepingCapacity: true) }
        self.bytes = bytes
    }
}

/// The ATT PDU carried by an ACL packet (the last fragment of its L2CAP frame).
public struct ATTSummary: Sendable {
    public var opcode: UInt8
    public var name: String
    /// Attribute handle where the PDU names one.
    public var handle: UInt16?
    public var value: ArraySlice<UInt8>?
    /// The characteristic behind `handle`, when a discovery in the same capture showed it.
    public var characteristic: BluetoothUUID?
    /// `characteristic` came from a GATT cache, not from the capture.
    public var characteristicFromCache = false
    /// The credit-based channel (host-side CID) the PDU travelled on; nil for the fixed
    /// channel 0x0004.
    public var bearer: UInt16?
    /// `bearer` is an Enhanced Credit Based Flow Control channel, i.e. an EATT bearer proper
    /// (false: an LE credit-based channel to the EATT SPSM).
    public var bearerIsEnhanced = false
    /// `.brEdr` for ATT on a BR/EDR channel to PSM 0x001F (`bearer` is then its host-side CID).
    public var transport = LinkTransport.le
    /// Decoded sensor value line, e.g. "72 bpm", when a decoder knows the characteristic.
    public var decodedValue: String?

    public init(opcode: UInt8, name: String) {
        self.opcode = opcode
        self.name = name
    }
}
