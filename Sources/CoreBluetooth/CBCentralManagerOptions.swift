// Option keys of `CBCentralManager`: Apple's (with Apple's string values) and rtstack's own,
// which name the adapter since a Linux app has no Settings app to pick one.

/// Init option (Bool): iOS's power alert; there is no alert on a board (ignored).
public let CBCentralManagerOptionShowPowerAlertKey = "kCBInitOptionShowPowerAlert"
/// Init option (String): state restoration, which needs iOS's background relaunch (ignored).
public let CBCentralManagerOptionRestoreIdentifierKey = "kCBInitOptionRestoreIdentifier"
/// Scan option (Bool): report every advertising report, not one per peripheral per scan.
public let CBCentralManagerScanOptionAllowDuplicatesKey = "kCBScanOptionAllowDuplicates"
/// Scan option ([CBUUID]): also report peripherals soliciting one of these services.
public let CBCentralManagerScanOptionSolicitedServiceUUIDsKey = "kCBScanOptionSolicitedServiceUUIDs"
/// Connect options (Bool): iOS's alerts for a backgrounded app (ignored: no alerts on a board).
public let CBConnectPeripheralOptionNotifyOnConnectionKey = "kCBConnectOptionNotifyOnConnection"
public let CBConnectPeripheralOptionNotifyOnDisconnectionKey = "kCBConnectOptionNotifyOnDisconnection"
public let CBConnectPeripheralOptionNotifyOnNotificationKey = "kCBConnectOptionNotifyOnNotification"
/// Connect option (NSNumber, seconds): wait this long before connecting.
public let CBConnectPeripheralOptionStartDelayKey = "kCBConnectOptionStartDelay"
/// Connect option (Bool): reconnect on its own after a lost link (`isReconnecting` on iOS 17).
public let CBConnectPeripheralOptionEnableAutoReconnect = "kCBConnectOptionEnableAutoReconnect"

/// rtstack's init option (String, the `--adapter` syntax: `hci0`, `tcp:HOST:PORT`,
/// `serial:/dev/ttyACM0@1000000`, `/dev/ttyUSB0`); overrides `RTSTACK_ADAPTER`. Default `hci0`.
public let CBCentralManagerOptionRTStackAdapterKey = "RTSTACK_ADAPTER"
/// rtstack's init option (String, `user-channel` or `kernel`); overrides `RTSTACK_BACKEND`.
public let CBCentralManagerOptionRTStackBackendKey = "RTSTACK_BACKEND"
/// rtstack's init option (String, a folder): rtstack's own address and bonds; overrides
/// `RTSTACK_STATE_DIR` (default `$XDG_STATE_HOME/rtstack` or `~/.local/state/rtstack`).
public let CBCentralManagerOptionRTStackStateDirectoryKey = "RTSTACK_STATE_DIR"
/// rtstack's init option (String, six digits): the passkey to type when a peer asks for Passkey
/// Entry; overrides `RTSTACK_PASSKEY`.
public let CBCentralManagerOptionRTStackPasskeyKey = "RTSTACK_PASSKEY"
