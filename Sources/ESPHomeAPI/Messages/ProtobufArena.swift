import ESPHomeProto
#if canImport(Glibc)
import Glibc
#endif

/// The C memory a protobuf-c message points into while it is packed: strings, bytes and the
/// arrays of repeated fields. Everything is freed when the arena goes, so packing a message
/// cannot leak whatever path it takes.
final class ProtobufArena {
    private var allocations: [UnsafeMutableRawPointer] = []

    deinit { for pointer in allocations { free(pointer) } }

    func string(_ text: String) -> UnsafeMutablePointer<CChar> {
        let pointer = strdup(text)!
        allocations.append(UnsafeMutableRawPointer(pointer))
        return pointer
    }

    func bytes(_ bytes: [UInt8]) -> ProtobufCBinaryData {
        let pointer = array(bytes)
        return ProtobufCBinaryData(len: bytes.count, data: pointer)
    }

    func array<Element>(_ elements: [Element]) -> UnsafeMutablePointer<Element> {
        let pointer = UnsafeMutablePointer<Element>.allocate(capacity: max(elements.count, 1))
        pointer.initialize(from: elements, count: elements.count)
        allocations.append(UnsafeMutableRawPointer(pointer))
        return pointer
    }

    /// A message struct copied to C memory, for a repeated message field's array of pointers.
    func message<Message>(_ message: Message) -> UnsafeMutablePointer<Message>? {
        let pointer = UnsafeMutablePointer<Message>.allocate(capacity: 1)
        pointer.initialize(to: message)
        allocations.append(UnsafeMutableRawPointer(pointer))
        return pointer
    }
}

/// A filled protobuf-c message struct, encoded.
func packed<Message>(_ message: Message) -> [UInt8] {
    var message = message
    return withUnsafePointer(to: &message) { pointer in
        pointer.withMemoryRebound(to: ProtobufCMessage.self, capacity: 1) { base in
            let size = protobuf_c_message_get_packed_size(base)
            var output = [UInt8](repeating: 0, count: size)
            let written = output.withUnsafeMutableBufferPointer { protobuf_c_message_pack(base, $0.baseAddress) }
            return Array(output[0..<written])
        }
    }
}

/// A message of `descriptor`'s type decoded from `bytes` and read by `read`; nil when the bytes
/// are not such a message (protobuf-c refuses them whole, so nothing half-read escapes).
func unpacked<Message, Result>(_ bytes: [UInt8], _ descriptor: UnsafePointer<ProtobufCMessageDescriptor>,
                               as type: Message.Type, _ read: (Message) -> Result) -> Result? {
    let message = bytes.withUnsafeBufferPointer { protobuf_c_message_unpack(descriptor, nil, $0.count, $0.baseAddress) }
    guard let message else { return nil }
    defer { protobuf_c_message_free_unpacked(message, nil) }
    return read(UnsafeMutableRawPointer(message).assumingMemoryBound(to: Message.self).pointee)
}

func swiftString(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
    guard let pointer else { return "" }
    return String(cString: pointer)
}

func swiftBytes(_ data: ProtobufCBinaryData) -> [UInt8] {
    guard let pointer = data.data, data.len > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: pointer, count: data.len))
}
