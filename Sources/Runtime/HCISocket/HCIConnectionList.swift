import Glibc
import Wire

/// The LE connections the kernel has open right now (HCIGETCONNLIST), so that a monitor
/// started in the middle of a session knows which peer each connection handle belongs to.
public struct HCIOpenConnection: Sendable, Hashable {
    public let adapterIndex: UInt16
    public let handle: UInt16
    public let address: BDAddress
}

extension HCIAdapters {
    /// Every open LE connection of every adapter; empty when the kernel cannot be asked (no
    /// Bluetooth, an adapter going away meanwhile). The kernel does not say whether the peer's
    /// address is public or random.
    public static func openLEConnections() -> [HCIOpenConnection] {
        guard let control = try? HCIControlSocket(index: nil), let indexes = try? control.deviceIndexes() else { return [] }
        return indexes.sorted().flatMap { control.leConnections(of: $0) }
    }
}

extension HCIControlSocket {
    func leConnections(of index: UInt16, capacity: Int = 64) -> [HCIOpenConnection] {
        typealias L = LinuxBluetoothABI.ConnList
        var raw = [UInt8](repeating: 0, count: L.headerSize + capacity * L.entrySize)
        raw[0] = UInt8(index & 0xFF)
        raw[1] = UInt8(index >> 8)
        raw[2] = UInt8(capacity & 0xFF)
        raw[3] = UInt8(capacity >> 8)
        let rc = raw.withUnsafeMutableBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return ioctl(fd, LinuxBluetoothABI.hciGetConnList, base)
        }
        guard rc == 0 else { return [] }
        let count = min(Int(UInt16(raw[2]) | UInt16(raw[3]) << 8), capacity)
        var out: [HCIOpenConnection] = []
        for i in 0..<count {
            let o = L.headerSize + i * L.entrySize
            guard raw[o + L.type] == L.leLink,
                  let address = BDAddress(littleEndian: raw[(o + L.bdaddr)..<(o + L.bdaddr + 6)]) else { continue }
            let handle = UInt16(raw[o + L.handle]) | UInt16(raw[o + L.handle + 1]) << 8
            out.append(HCIOpenConnection(adapterIndex: index, handle: handle, address: address))
        }
        return out
    }
}
