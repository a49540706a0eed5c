import Wire

extension AdapterFailure {
    /// What to do about the kernel's adapter (`--backend kernel`): the fix lies in the user's
    /// system (a capability, rfkill, another program), so it names the command that does it.
    public var remedy: String {
        switch self {
        case .permissionDenied:
            return "powering the adapter and scanning through the kernel need CAP_NET_ADMIN: "
                + "run as root, or grant it once: sudo setcap cap_net_admin,cap_net_raw+ep $(which rtstack)"
        case .rfkillBlocked:
            return "unblock it with 'rfkill unblock bluetooth'"
        case .noSuchAdapter:
            return "another rtstack with --backend user-channel may hold it; rtstack adapters lists the adapters and who holds them"
        case .busy:
            return "another program is changing the adapter (bluetoothd, btmgmt): wait for it, or stop it, and run again"
        case .lowEnergyUnsupported:
            return "use an adapter that supports Bluetooth Low Energy (rtstack adapters lists them)"
        case .commandFailed, .settingDidNotTake:
            return "the kernel would not set the adapter up: power it off and on ('btmgmt --index N power off', then on), or replug it"
        case .noAnswer, .malformed:
            return "the kernel's management interface misbehaves: run again; if it persists, reload the driver or use "
                + "--backend user-channel"
        case .poweredOff:
            return "bluetoothd or btmgmt powered it off; 'btmgmt --index N power on' powers it"
        case .removed:
            return "it was unplugged, or a user channel took it: plug it back in, or stop the program that holds it"
        }
    }
}
