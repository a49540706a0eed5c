import Foundation
import TestSupport

/// A CA and a server certificate for `localhost` and 127.0.0.1, made with Debian's openssl
/// when a test runs (nothing secret is kept in the repository).
struct TestCertificates {
    let caFile: String
    let certificateFile: String
    let keyFile: String
    /// A second CA that signed nothing, to check that the client refuses the server.
    let otherCAFile: String

    static var opensslPath: String? {
        ["/usr/bin/openssl", "/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func make() throws -> TestCertificates {
        guard let openssl = opensslPath else { throw BrokerFailure("openssl is not installed") }
        let dir = try TemporaryDirectory.make("tls").path
        func run(_ args: [String]) throws {
            let p = try ChildProcess(openssl, args)
            p.process.waitUntilExit()
            guard p.process.terminationStatus == 0 else {
                throw BrokerFailure("openssl \(args.joined(separator: " ")) failed: \(p.text)")
            }
        }
        for name in ["ca", "other-ca"] {
            try run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=rtstack test \(name)",
                     "-keyout", "\(dir)/\(name).key", "-out", "\(dir)/\(name).crt"])
        }
        try run(["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
                 "-keyout", "\(dir)/server.key", "-out", "\(dir)/server.csr"])
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: "\(dir)/san.ext", atomically: true, encoding: .utf8)
        try run(["x509", "-req", "-in", "\(dir)/server.csr", "-CA", "\(dir)/ca.crt", "-CAkey", "\(dir)/ca.key",
                 "-CAcreateserial", "-days", "2", "-extfile", "\(dir)/san.ext", "-out", "\(dir)/server.crt"])
        return TestCertificates(caFile: "\(dir)/ca.crt", certificateFile: "\(dir)/server.crt",
                                keyFile: "\(dir)/server.key", otherCAFile: "\(dir)/other-ca.crt")
    }
}
