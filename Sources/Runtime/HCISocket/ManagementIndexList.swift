import Glibc
import Wire

/// The kernel's Bluetooth management interface (HCI_CHANNEL_CONTROL), used for one question:
/// which adapters the kernel's own host stack manages.
///
/// The legacy ioctls cannot tell whether a user channel holds an adapter, but the management
/// interface leaves such adapters out of its index lists (as it leaves out adapters still in
/// setup). Reading the lists needs no privileges.
enum ManagementIndexList {
    // The codes as Wire's management codecs name them.
    static let readIndexList = ManagementOpcode.readControllerIndexList.rawValue
    static let readUnconfiguredIndexList = ManagementOpcode.readUnconfiguredControllerIndexList.rawValue
    static let commandCompleteEvent = ManagementEventCode.commandComplete.rawValue
    static let commandStatusEvent = ManagementEventCode.commandStatus.rawValue
    static let noIndex: UInt16 = 0xFFFF

    /// Indexes listed by both lists (configured and unconfigured), or nil when the management
    /// interface cannot be reached (old kernel, blocked by a security module, no answer).
    static func managedIndexes(timeoutMilliseconds: Int32 = 500) -> Set<UInt16>? {
        let fd = LinuxBluetoothABI.hciSocket()
        guard fd >= 0 else { return nil }
        defer { FileDescriptorFlags.closeIgnoringErrors(fd) }
        let address = LinuxBluetoothABI.sockaddrHCI(device: noIndex, channel: LinuxBluetoothABI.channelControl)
        guard LinuxBluetoothABI.bind(fd, address: address) == 0 else { return nil }
        var result = Set<UInt16>()
        for opcode in [readIndexList, readUnconfiguredIndexList] {
            guard let indexes = request(fd: fd, opcode: opcode, timeoutMilliseconds: timeoutMilliseconds) else {
                // An old kernel without the unconfigured list still answered the first one.
                if opcode == readUnconfiguredIndexList { continue }
                return nil
            }
            result.formUnion(indexes)
        }
        return result
    }

    /// Sends one parameterless command to no index and parses the index list in its reply.
    private static func request(fd: Int32, opcode: UInt16, timeoutMilliseconds: Int32) -> [UInt16]? {
        // Header: opcode, index, parameter length (little-endian).
        let command: [UInt8] = [UInt8(opcode & 0xFF), UInt8(opcode >> 8), 0xFF, 0xFF, 0, 0]
        let sent = command.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == command.count else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let deadline = MonotonicClock.now() &+ UInt64(timeoutMilliseconds) &* MonotonicClock.nanosecondsPerMillisecond
        while true {
            let now = MonotonicClock.now()
            guard now < deadline else { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let wait = PollTimeout.milliseconds(until: deadline, now: now)
            let ready = poll(&pfd, 1, wait)
            if ready < 0 && currentErrno == EINTR { continue }
            guard ready > 0 else { return nil }
            let n = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return nil }
            switch parseReply(buffer[0..<n], opcode: opcode) {
            case .list(let indexes): return indexes
            case .failed: return nil
            case .unrelated: continue  // an event (Index Added, New Settings …) that is not our reply
            }
        }
    }

    enum Reply: Equatable {
        case list([UInt16])
        case failed
        case unrelated
    }

    /// Parses a management event: Command Complete for `opcode` carries status, then
    /// Num_Controllers (2 bytes) and that many indexes (2 bytes each).
    static func parseReply(_ bytes: ArraySlice<UInt8>, opcode: UInt16) -> Reply {
        let b = Array(bytes)
        guard b.count >= 6 else { return .unrelated }
        let event = UInt16(b[0]) | UInt16(b[1]) << 8
        let length = Int(UInt16(b[4]) | UInt16(b[5]) << 8)
        guard b.count >= 6 + length, length >= 3 else { return .unrelated }
        let replyOpcode = UInt16(b[6]) | UInt16(b[7]) << 8
        guard replyOpcode == opcode else { return .unrelated }
        if event == commandStatusEvent { return .failed }
        guard event == commandCompleteEvent else { return .unrelated }
        guard b[8] == 0 else { return .failed }
        guard length >= 5 else { return .failed }
        let count = Int(UInt16(b[9]) | UInt16(b[10]) << 8)
        guard length >= 5 + 2 * count else { return .failed }
        var indexes: [UInt16] = []
        indexes.reserveCapacity(count)
        for i in 0..<count {
            let o = 11 + 2 * i
            indexes.append(UInt16(b[o]) | UInt16(b[o + 1]) << 8)
        }
        return .list(indexes)
    }
}
