import Wire

/// Text form of a `GATTDatabase` for the state directory: one line per item, readable and
/// diffable, so a stale or hand-edited cache can be inspected.
///
/// ```
/// rtstack-gatt-cache 1
/// hash 00112233445566778899aabbccddeeff
/// primary 0001 0007 1801
/// characteristic 0002 0003 0004 20 2A05
/// descriptor 0004 2902
/// primary 0010 0020 180D
/// include 0011 0030 0035 180F
/// characteristic 0012 0013 0015 10 2A37
/// descriptor 0014 2902
/// secondary 0030 0035 180F
/// ```
///
/// Handles are 4 hex digits; properties 2; UUIDs as `BluetoothUUID.string` (4, 8 or 36
/// characters); an include whose service UUID is unknown has `-`. `include` and
/// `characteristic` lines belong to the service above them, `descriptor` lines to the
/// characteristic above them. Empty lines and lines starting with `#` are skipped.
public enum GATTCacheCodec {
    public static let versionLine = "rtstack-gatt-cache 1"

    public static func encode(_ database: GATTDatabase) -> String {
        var out = versionLine + "\n"
        if let hash = database.databaseHash {
            out += "hash " + Hex.string(hash) + "\n"
        }
        for s in database.services {
            out += (s.isPrimary ? "primary " : "secondary ") + h(s.startHandle) + " " + h(s.endHandle) + " " + s.uuid.string + "\n"
            for inc in s.includedServices {
                out += "include " + h(inc.declarationHandle) + " " + h(inc.startHandle) + " " + h(inc.endHandle) + " "
                    + (inc.uuid?.string ?? "-") + "\n"
            }
            for c in s.characteristics {
                out += "characteristic " + h(c.declarationHandle) + " " + h(c.valueHandle) + " " + h(c.endHandle) + " "
                    + hex2(c.properties) + " " + c.uuid.string + "\n"
                for d in c.descriptors {
                    out += "descriptor " + h(d.handle) + " " + d.uuid.string + "\n"
                }
            }
        }
        return out
    }

    /// Reads text written by `encode`; anything malformed or inconsistent (a characteristic
    /// outside its service, a descriptor outside its characteristic) throws an error naming
    /// the line.
    public static func decode(_ text: String) throws(GATTCacheCodecError) -> GATTDatabase {
        var db = GATTDatabase()
        var sawVersion = false
        var lineNumber = 0
        // "\r\n" is one Character in Swift, so it is a separator of its own.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            func fail(_ reason: String) -> GATTCacheCodecError {
                GATTCacheCodecError(line: lineNumber, text: String(line), reason: reason)
            }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if !sawVersion {
                guard line == versionLine else {
                    throw fail("expected the version line \"\(versionLine)\"")
                }
                sawVersion = true
                continue
            }
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let keyword = f.first else { continue }
            switch keyword {
            case "hash":
                guard f.count == 2 else { throw fail("hash takes 1 field, found \(f.count - 1)") }
                guard db.databaseHash == nil, db.services.isEmpty else { throw fail("hash must come once, before the services") }
                guard let bytes = Hex.parse(String(f[1])), bytes.count == 16 else {
                    throw fail("hash must be 32 hex digits")
                }
                db.databaseHash = bytes
            case "primary", "secondary":
                guard f.count == 4 else { throw fail("\(keyword) takes 3 fields (start end uuid), found \(f.count - 1)") }
                let start = try handle(f[1], "start handle", fail)
                let end = try handle(f[2], "end handle", fail)
                guard start <= end else { throw fail("start handle after end handle") }
                if let last = db.services.last, start <= last.endHandle, last.startHandle <= end {
                    throw fail("overlaps the service at \(h(last.startHandle))-\(h(last.endHandle))")
                }
                db.services.append(GATTService(uuid: try uuid(f[3], fail), startHandle: start, endHandle: end,
                                               isPrimary: keyword == "primary"))
            case "include":
                guard f.count == 5 else { throw fail("include takes 4 fields (declaration start end uuid|-), found \(f.count - 1)") }
                guard let service = db.services.indices.last else { throw fail("include before any service") }
                let declaration = try handle(f[1], "declaration handle", fail)
                let start = try handle(f[2], "start handle", fail)
                let end = try handle(f[3], "end handle", fail)
                guard start <= end else { throw fail("start handle after end handle") }
                guard inside(declaration, db.services[service]) else { throw fail("declaration outside its service") }
                let included = f[4] == "-" ? nil : try uuid(f[4], fail)
                db.services[service].includedServices.append(
                    GATTIncludedService(declarationHandle: declaration, startHandle: start, endHandle: end, uuid: included))
            case "characteristic":
                guard f.count == 6 else { throw fail("characteristic takes 5 fields (declaration value end properties uuid), found \(f.count - 1)") }
                guard let service = db.services.indices.last else { throw fail("characteristic before any service") }
                let declaration = try handle(f[1], "declaration handle", fail)
                let value = try handle(f[2], "value handle", fail)
                let end = try handle(f[3], "end handle", fail)
                guard f[4].count == 2, let properties = hexNumber(f[4], UInt8.self) else {
                    throw fail("properties must be 2 hex digits")
                }
                let s = db.services[service]
                guard declaration < value, value <= end, inside(declaration, s), inside(end, s) else {
                    throw fail("handles must satisfy declaration < value <= end inside the service \(h(s.startHandle))-\(h(s.endHandle))")
                }
                if let previous = s.characteristics.last, declaration <= previous.endHandle {
                    throw fail("overlaps the characteristic declared at \(h(previous.declarationHandle))")
                }
                db.services[service].characteristics.append(GATTCharacteristic(
                    uuid: try uuid(f[5], fail), declarationHandle: declaration, valueHandle: value,
                    properties: properties, endHandle: end))
            case "descriptor":
                guard f.count == 3 else { throw fail("descriptor takes 2 fields (handle uuid), found \(f.count - 1)") }
                guard let service = db.services.indices.last,
                      let characteristic = db.services[service].characteristics.indices.last else {
                    throw fail("descriptor before any characteristic")
                }
                let handle = try handle(f[1], "handle", fail)
                let c = db.services[service].characteristics[characteristic]
                guard handle > c.valueHandle, handle <= c.endHandle else {
                    throw fail("handle outside its characteristic \(h(c.valueHandle &+ 1))-\(h(c.endHandle))")
                }
                db.services[service].characteristics[characteristic].descriptors.append(
                    GATTDescriptor(uuid: try uuid(f[2], fail), handle: handle))
            default:
                throw fail("unknown line kind \"\(keyword)\"")
            }
        }
        guard sawVersion else {
            throw GATTCacheCodecError(line: max(lineNumber, 1), text: "", reason: "no version line \"\(versionLine)\"")
        }
        return db
    }

    // MARK: - Fields

    private static func h(_ v: UInt16) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - s.count) + s
    }

    private static func hex2(_ v: UInt8) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return s.count == 1 ? "0" + s : s
    }

    private static func inside(_ handle: UInt16, _ s: GATTService) -> Bool {
        handle >= s.startHandle && handle <= s.endHandle
    }

    /// Hex digits only (no sign, no prefix), so `Int(_:radix:)`'s leniency does not leak in.
    private static func hexNumber<T: FixedWidthInteger>(_ field: Substring, _: T.Type) -> T? {
        guard !field.isEmpty, field.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }) else {
            return nil
        }
        return T(field, radix: 16)
    }

    private static func handle(_ field: Substring, _ name: String,
                               _ fail: (String) -> GATTCacheCodecError) throws(GATTCacheCodecError) -> UInt16 {
        guard field.count == 4, let v = hexNumber(field, UInt16.self) else {
            throw fail("\(name) \"\(field)\" must be 4 hex digits")
        }
        guard v != 0 else { throw fail("\(name) 0000 is not a valid handle") }
        return v
    }

    private static func uuid(_ field: Substring, _ fail: (String) -> GATTCacheCodecError) throws(GATTCacheCodecError) -> BluetoothUUID {
        guard !field.hasPrefix("0x"), !field.hasPrefix("0X"), let u = BluetoothUUID(string: String(field)),
              field.utf8.allSatisfy({ $0 == 0x2D || ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }) else {
            throw fail("\"\(field)\" is not a UUID (4, 8 or 36 hex characters)")
        }
        return u
    }
}

/// A cache text that `GATTCacheCodec.decode` refused: the line (1-based), its text, and why.
public struct GATTCacheCodecError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var text: String
    public var reason: String

    public init(line: Int, text: String, reason: String) {
        self.line = line
        self.text = text
        self.reason = reason
    }

    public var description: String {
        text.isEmpty ? "GATT cache, line \(line): \(reason)" : "GATT cache, line \(line) (\"\(text)\"): \(reason)"
    }
}
