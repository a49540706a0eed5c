import Glibc
import Wire

/// The L2CAP socket part of the kernel's Bluetooth ABI (include/net/bluetooth/
/// {bluetooth,l2cap}.h), used by the kernel backend's ATT sockets: one ABI type for both
/// backends' sockets.
extension LinuxBluetoothABI {
    static let solBluetooth: Int32 = 274
    static let solL2CAP: Int32 = 6
    /// SOL_BLUETOOTH options.
    static let btSecurity: Int32 = 4
    static let btSendMTU: Int32 = 12
    static let btReceiveMTU: Int32 = 13
    /// SOL_L2CAP option: `struct l2cap_conninfo { u16 hci_handle; u8 dev_class[3]; }`.
    static let l2capConnectionInfo: Int32 = 0x02
    /// BDADDR_LE_PUBLIC / BDADDR_LE_RANDOM (sockaddr_l2.l2_bdaddr_type).
    static let addressLEPublic: UInt8 = 1
    static let addressLERandom: UInt8 = 2
    /// The ATT fixed channel.
    static let attChannel: UInt16 = 0x0004

    /// `struct sockaddr_l2`: family (2), psm (2, le), bdaddr (6, wire order), cid (2, le),
    /// bdaddr_type (1), padded to 14 bytes.
    static func sockaddrL2(address: BDAddress, type: UInt8, channel: UInt16) -> [UInt8] {
        let family = UInt16(AF_BLUETOOTH)
        var out: [UInt8] = [UInt8(family & 0xFF), UInt8(family >> 8), 0, 0]
        out.append(contentsOf: address.bytes)
        out.append(contentsOf: [UInt8(channel & 0xFF), UInt8(channel >> 8), type, 0])
        return out
    }

    static func addressType(_ type: LEAddressType) -> UInt8 {
        type.isRandom ? addressLERandom : addressLEPublic
    }
}
