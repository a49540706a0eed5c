/// An attribute handle and a value slice: the parameters of Handle Value Notification and
/// Indication, Write Request and Command, and one entry of Read By Type Response and Multiple
/// Handle Value Notification. `value` points into the received bytes; nothing is copied.
public struct ATTHandleValue: Sendable, Hashable {
    public var handle: UInt16
    public var value: ArraySlice<UInt8>

    public init(handle: UInt16, value: ArraySlice<UInt8>) {
        self.handle = handle
        self.value = value
    }

    public init(handle: UInt16, value: [UInt8]) {
        self.init(handle: handle, value: value[...])
    }
}
