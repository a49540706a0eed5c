import Wire
import Capture

/// A Linux monitor frame that carries no HCI packet, as the decoder understood it: adapters
/// coming and going, the kernel's notes, programs opening HCI and management sockets, and
/// the management commands and events on them. Numbered with the packets, in one sequence.
public struct DissectedNote: Sendable {
    public var index: Int
    public var timestampMicros: Int64
    public var relativeTime: Double
    /// `MonitorFrame.noAdapter` for frames about no adapter.
    public var adapterIndex: UInt16
    public var opcode: MonitorOpcode
    /// Headline name, e.g. "New Index", "System Note", "MGMT Command".
    public var name: String
    public var summary: String
    public var fields: FieldList
    public var errors: [String]
    public var payload: ArraySlice<UInt8>
    /// btmon's mark: `=` for adapters and notes, `@` for control sockets.
    public var mark: Character

    public init(index: Int, timestampMicros: Int64, relativeTime: Double, adapterIndex: UInt16,
                opcode: MonitorOpcode, payload: ArraySlice<UInt8>) {
        self.index = index
        self.timestampMicros = timestampMicros
        self.relativeTime = relativeTime
        self.adapterIndex = adapterIndex
        self.opcode = opcode
        self.name = opcode.name
        self.summary = ""
        self.fields = FieldList()
        self.errors = []
        self.payload = payload
        self.mark = "="
    }

    /// `hci0`, or `-` for frames about no adapter.
    public var adapterName: String {
        adapterIndex == MonitorFrame.noAdapter ? "-" : "hci\(adapterIndex)"
    }
}
