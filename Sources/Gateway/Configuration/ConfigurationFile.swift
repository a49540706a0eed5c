import Glibc

/// Reading the files a configuration names: the configuration itself and the MQTT password
/// file. Errors say which file and why ("cannot read /etc/rtstack/gateway.yaml: Permission
/// denied").
public enum ConfigurationFile {
    /// Files larger than this are not configurations (a mistyped path to a log or a binary).
    public static let sizeLimit = 1 << 20

    public static func read(_ path: String) throws(ConfigurationError) -> String {
        guard let f = fopen(path, "rb") else {
            throw ConfigurationError(.whole, path, "cannot read: " + String(cString: strerror(errno)))
        }
        defer { fclose(f) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = fread(&buffer, 1, buffer.count, f)
            if n > 0 { out += buffer[0..<n] }
            if out.count > sizeLimit {
                throw ConfigurationError(.whole, path, "larger than \(sizeLimit) bytes; is it the configuration file?")
            }
            if n < buffer.count {
                if ferror(f) != 0 { throw ConfigurationError(.whole, path, "cannot read: " + String(cString: strerror(errno))) }
                break
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw ConfigurationError(.whole, path, "is not UTF-8 text")
        }
        return text
    }

    /// The password: the file's first line, without its line break.
    public static func password(_ path: String) throws(ConfigurationError) -> String {
        let text = try read(path)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let password = line.hasSuffix("\r") ? String(line.dropLast()) : line
        if password.isEmpty { throw ConfigurationError(.whole, path, "the password file's first line is empty") }
        return password
    }
}
