import Glibc

/// The baud rates Linux termios names with a `B…` constant, up to 4 Mbit/s.
///
/// Linux also has `BOTHER` for arbitrary rates (termios2), but USB-serial chips and UART
/// drivers round such rates silently; controller firmwares use these standard ones.
public enum SerialBaudRate {
    /// Ascending.
    public static let supported: [Int] = table.map(\.rate)

    /// "1200, 2400, …, 4000000" for error messages.
    public static var supportedList: String { supported.map(String.init).joined(separator: ", ") }

    public static func isSupported(_ rate: Int) -> Bool { speed(for: rate) != nil }

    /// The `speed_t` constant for `rate`, or nil.
    static func speed(for rate: Int) -> speed_t? {
        table.first { $0.rate == rate }.map { speed_t($0.constant) }
    }

    /// The rate a `speed_t` read back from `cfgetospeed` stands for.
    static func rate(for speed: speed_t) -> Int? {
        table.first { speed_t($0.constant) == speed }?.rate
    }

    private static let table: [(rate: Int, constant: Int32)] = [
        (1200, B1200), (2400, B2400), (4800, B4800), (9600, B9600), (19200, B19200),
        (38400, B38400), (57600, B57600), (115200, B115200), (230400, B230400),
        (460800, B460800), (500000, B500000), (576000, B576000), (921600, B921600),
        (1000000, B1000000), (1152000, B1152000), (1500000, B1500000), (2000000, B2000000),
        (2500000, B2500000), (3000000, B3000000), (3500000, B3500000), (4000000, B4000000),
    ]
}
