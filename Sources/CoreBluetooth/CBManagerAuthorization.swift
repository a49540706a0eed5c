/// Whether the app may use Bluetooth (Apple's raw values). On Linux the question is the
/// process's capabilities, answered when the adapter is opened: `.allowedAlways` until then,
/// `.denied` when opening it failed for lack of permission.
public enum CBManagerAuthorization: Int, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case allowedAlways = 3
}
