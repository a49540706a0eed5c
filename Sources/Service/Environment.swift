import Glibc

enum Environment {
    static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    static var processID: Int32 { getpid() }
}
