import Glibc
import HostCore

/// Why an adapter cannot serve `--backend kernel`, found before anything is changed on it. A
/// cause, not advice: the CLI says what to do about each.
public enum KernelAdapterProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The adapter could not be looked at (no such adapter, no Bluetooth in the kernel, …).
    case socket(HCISocketError)
    /// rfkill blocks it ("soft" or "hard"), so the kernel cannot power it on.
    case rfkillBlocked(index: UInt16, hard: Bool)
    /// A user channel holds it (another rtstack with the user channel, Bumble, btproxy).
    case heldByUserChannel(index: UInt16)
    /// The management socket could not be opened.
    case management(HCISocketError)

    public var description: String {
        switch self {
        case .socket(let e), .management(let e):
            return e.description
        case let .rfkillBlocked(index, hard):
            return "hci\(index): the adapter is blocked by rfkill (\(hard ? "hard" : "soft") block, "
                + "\(HCISocketError.errnoText(HCISocketError.rfkillErrno))), so the kernel cannot power it on"
        case let .heldByUserChannel(index):
            return "hci\(index): the adapter is busy (\(HCISocketError.errnoText(EBUSY))): a user channel holds it, "
                + "so the kernel cannot use it for --backend kernel"
        }
    }
}

/// The checks `--backend kernel` makes before it touches an adapter.
public enum KernelAdapterCheck {
    /// The adapter exists, rfkill does not block it, and no user channel holds it (the kernel must
    /// keep it for this backend).
    public static func check(index: UInt16) throws(KernelAdapterProblem) {
        let info: HCIDeviceInfo
        do throws(HCISocketError) {
            let control = try HCIControlSocket(index: index)
            info = try control.deviceInfo(index)
        } catch {
            throw .socket(error)
        }
        if let kind = rfkillBlock(index: index) {
            throw .rfkillBlocked(index: index, hard: kind == "hard")
        }
        if info.isUp, let managed = ManagementIndexList.managedIndexes(), !managed.contains(index) {
            throw .heldByUserChannel(index: index)
        }
    }

    /// "soft" or "hard" when /sys/class/bluetooth/hciN/rfkill*/ says the adapter is blocked.
    static func rfkillBlock(index: UInt16) -> String? {
        let directory = "\(HCIAdapterDirectory.path)/hci\(index)"
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix("rfkill") else { continue }
            for kind in ["hard", "soft"] where readFlag("\(directory)/\(name)/\(kind)") {
                return kind
            }
        }
        return nil
    }

    private static func readFlag(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { FileDescriptorFlags.closeIgnoringErrors(fd) }
        var byte: UInt8 = 0
        return Glibc.read(fd, &byte, 1) == 1 && byte == UInt8(ascii: "1")
    }
}
