import Glibc

/// Log lines as journald wants them when rtstack runs as a service, and as a terminal user
/// wants them otherwise. Under systemd, stderr is a stream to journald (`JOURNAL_STREAM` names
/// its device and inode); a line that starts with `<N>` gets syslog priority N (SD_ERR "<3>"
/// … SD_DEBUG "<7>", sd-daemon(3)) and journald adds the time and the unit's name, so neither is
/// written. On a terminal the line is `rtstack: message`. One record per line: a message with
/// line breaks is written as several lines, each with the prefix.
public struct LogLine: Sendable, Equatable {
    public enum Level: Int, Sendable, Comparable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
        public static func < (l: Level, r: Level) -> Bool { l.rawValue < r.rawValue }
    }

    public let toJournal: Bool
    public let programName: String

    public init(toJournal: Bool, programName: String = "rtstack") {
        self.toJournal = toJournal
        self.programName = programName
    }

    /// Decides from the environment whether descriptor `fd` (stderr) is connected to journald:
    /// `JOURNAL_STREAM=DEV:INODE` must name the very file `fd` is (systemd sets it for the
    /// service's streams; a child whose stderr was redirected inherits the variable but not
    /// the stream).
    public static func detect(fd: Int32 = 2, programName: String = "rtstack") -> LogLine {
        LogLine(toJournal: isJournalStream(fd: fd, journalStream: Environment.value("JOURNAL_STREAM")), programName: programName)
    }

    public static func isJournalStream(fd: Int32, journalStream: String?) -> Bool {
        guard let value = journalStream else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let dev = UInt64(parts[0]), let ino = UInt64(parts[1]) else { return false }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return false }
        return UInt64(st.st_dev) == dev && UInt64(st.st_ino) == ino
    }

    /// The text to write, final line feed included.
    public func format(_ level: Level, _ message: String) -> String {
        var out = ""
        for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
            out += toJournal ? "<\(level.rawValue)>" + line + "\n" : programName + ": " + line + "\n"
        }
        return out
    }
}
