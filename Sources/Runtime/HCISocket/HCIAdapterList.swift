import Glibc
import Wire

/// One Bluetooth adapter as the kernel sees it, for `rtstack adapters`.
public struct HCIAdapterInfo: Sendable, Hashable {
    public let index: UInt16
    /// The kernel's name ("hci0").
    public let name: String
    /// The controller's public address (00:00:00:00:00:00 before the kernel has read it).
    public let address: BDAddress
    public let isUp: Bool
    /// Whether a user channel (rtstack, Bumble, another HCI-socket host) holds the adapter;
    /// nil when the management interface could not be asked.
    public let heldByUserChannel: Bool?
    /// The transport the controller sits on (HCI_USB, HCI_UART, HCI_VIRTUAL … from hci.h).
    public let bus: UInt8

    public init(index: UInt16, name: String, address: BDAddress, isUp: Bool, heldByUserChannel: Bool?, bus: UInt8) {
        self.index = index
        self.name = name
        self.address = address
        self.isUp = isUp
        self.heldByUserChannel = heldByUserChannel
        self.bus = bus
    }

    /// Bus names as in hci.h's HCI_VIRTUAL … HCI_I2C constants.
    public var busName: String {
        switch bus {
        case 0: return "virtual"
        case 1: return "usb"
        case 2: return "pccard"
        case 3: return "uart"
        case 4: return "rs232"
        case 5: return "pci"
        case 6: return "sdio"
        case 7: return "spi"
        case 8: return "i2c"
        case 9: return "smd"
        case 10: return "virtio"
        default: return "bus \(bus)"
        }
    }
}

/// The adapters the kernel has registered.
public enum HCIAdapters {
    /// Every registered adapter with its state.
    ///
    /// - Throws: `HCISocketError` with EAFNOSUPPORT (`isNoKernelSupport`) on a kernel without
    ///   Bluetooth; other errors from the ioctls.
    public static func list() throws(HCISocketError) -> [HCIAdapterInfo] {
        let control = try HCIControlSocket(index: nil)
        let indexes = try control.deviceIndexes()
        let managed = indexes.isEmpty ? nil : ManagementIndexList.managedIndexes()
        var out: [HCIAdapterInfo] = []
        for index in indexes.sorted() {
            let info: HCIDeviceInfo
            do throws(HCISocketError) {
                info = try control.deviceInfo(index)
            } catch where error.errno == ENODEV {
                continue  // unplugged between the two calls
            }
            // A user channel powers the controller (HCI_UP) while the management interface
            // leaves the adapter out of its lists; an adapter still in setup is down.
            let held = managed.map { info.isUp && !$0.contains(index) }
            out.append(HCIAdapterInfo(index: index, name: info.name.isEmpty ? "hci\(index)" : info.name,
                                      address: info.address, isUp: info.isUp, heldByUserChannel: held,
                                      bus: info.type & 0x0F))
        }
        return out
    }
}
