import Glibc

/// A Linux HCI socket bound to the adapter's user channel (`--adapter hciN`): rtstack owns the
/// controller exclusively and the kernel's own host stack stays out of the way.
///
/// The user channel keeps packet boundaries: each `read` returns one packet and each `write`
/// sends one, both led by the H4 packet-type byte, so no H4 framer sits on it (`.packets`).
///
/// The kernel lets a user channel bind only to an adapter that is down. An adapter found up
/// (bluetoothd powered it, or `hciconfig up`) is taken down first with a notice, and brought
/// back up on `close()`, so the machine is left as it was found.
///
/// Not thread-safe: see `HCITransport`.
public final class HCISocketTransport: DescriptorTransport {
    public let index: UInt16
    public let name: String
    /// Whether the adapter was up before we took it (and so is brought back up on close).
    public let wasUp: Bool
    public var framing: TransportFraming { .packets }

    var io: DescriptorIO
    private let notice: (String) -> Void
    private var restored = false

    public static let defaultWriteQueueLimit = 1 << 20

    /// Takes adapter `index` for exclusive use.
    ///
    /// - Parameter notice: told about what is done to the adapter (taking it down, failing to
    ///   bring it back up), for the user to see.
    /// - Throws: `HCISocketError` with the cause (no kernel Bluetooth, no such adapter, busy,
    ///   missing capabilities, rfkill).
    public init(index: UInt16, notice: @escaping (String) -> Void,
                writeQueueLimit: Int = HCISocketTransport.defaultWriteQueueLimit) throws(HCISocketError) {
        self.index = index
        self.name = "hci\(index)"
        self.notice = notice

        let control = try HCIControlSocket(index: index)
        let info = try control.deviceInfo(index)
        wasUp = info.isUp
        if wasUp {
            // A user channel keeps the adapter up and out of the management index lists;
            // HCIDEVDOWN would fail with EBUSY anyway, so say so before any notice.
            if let managed = ManagementIndexList.managedIndexes(), !managed.contains(index) {
                throw HCISocketError(index: index, operation: .bind, errno: EBUSY)
            }
            notice("hci\(index) is up; taking it down for exclusive use (it is brought back up when rtstack exits)")
            try control.takeDown(index)
        }

        let fd: Int32
        do {
            fd = try LinuxBluetoothABI.boundChannel(device: index, channel: LinuxBluetoothABI.channelUser, index: index,
                                                    operation: .bind)
        } catch {
            if wasUp { try? control.bringUp(index) }
            throw error
        }
        io = DescriptorIO(fd: fd, name: name, writeCall: .socketSend, queueLimit: writeQueueLimit,
                          keepsPacketBoundaries: true)
    }

    deinit { close() }

    /// The kernel flags EPIPE on the socket when the adapter is unregistered (unplugged), and
    /// answers ENODEV or ENETDOWN once it is gone: the end of the stream.
    func reported(_ error: TransportError) -> TransportError {
        switch error {
        case .connectionReset: return .endOfStream(adapter: name)
        case let .systemCall(_, code) where code == ENODEV || code == ENETDOWN: return .endOfStream(adapter: name)
        default: return error
        }
    }

    /// Closes the user channel (the kernel then powers the controller off) and brings the
    /// adapter back up if it was up before. Idempotent.
    public func close() {
        guard io.isOpen else { return }
        io.close()
        guard wasUp, !restored else { return }
        restored = true
        // Releasing the user channel is synchronous in the kernel, but an adapter being
        // unregistered or re-opened by bluetoothd can answer EBUSY for a moment: retry briefly.
        var lastError: HCISocketError?
        for attempt in 0..<10 {
            do throws(HCISocketError) {
                let control = try HCIControlSocket(index: index)
                try control.bringUp(index)
                return
            } catch {
                lastError = error
                if error.errno != EBUSY { break }
                if attempt < 9 { usleep(20_000) }
            }
        }
        if let lastError {
            notice("could not bring hci\(index) back up: \(lastError.description)")
        }
    }
}

@available(*, unavailable, message: "a transport belongs to its event loop thread")
extension HCISocketTransport: Sendable {}
