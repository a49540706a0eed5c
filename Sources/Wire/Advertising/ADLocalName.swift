/// Shortened or Complete Local Name (Core Specification Supplement Part A §1.2).
public struct ADLocalName: Hashable, Sendable {
    public var text: String
    /// False for a Shortened Local Name: the device has a longer name, readable from the
    /// Device Name characteristic (0x2A00) after connecting.
    public var isComplete: Bool

    public init(_ text: String, isComplete: Bool = true) {
        self.text = text
        self.isComplete = isComplete
    }

    /// Decodes UTF-8, replacing invalid sequences with U+FFFD rather than failing: a name is
    /// for display, and a peer's broken encoding must not hide the rest of its advertisement.
    /// Trailing NUL octets are dropped because some firmware pads the name field with them.
    static func text(from data: ArraySlice<UInt8>) -> String {
        var end = data.endIndex
        while end > data.startIndex, data[end - 1] == 0 { end -= 1 }
        return String(decoding: data[data.startIndex..<end], as: UTF8.self)
    }
}
