/// Advertising data, scan response data or EIR data: a run of AD structures
/// (Core Spec v5.4 Vol 3, Part C, §11; types in the Core Specification Supplement, Part A).
///
/// Parsing never throws and never traps: a zero length octet ends the significant part
/// (`padding`, a note, not an error), a length that overruns the buffer ends the walk with an
/// issue, and a structure whose content does not fit its type is kept and reported in
/// `issues`. What came before any problem stays decoded.
///
/// Parsing allocates nothing for well-formed data: the value keeps the octets and walks them
/// again when asked (it is a `Sequence` of `ADStructure`). The accessors a scanner uses on
/// every report (`localName`, `advertisesService`, `flags`, `txPower`, …) allocate nothing
/// either, beyond the returned value; `structures`, `serviceUUIDs` and the field list build
/// arrays and are meant for display.
public struct AdvertisingData: Sendable, Equatable, Sequence {
    /// The octets parsed, exactly as given.
    public let bytes: ArraySlice<UInt8>
    /// Everything wrong with the data, in order of offset.
    public let issues: [ADIssue]
    /// Set when a zero length octet ended the significant part before the end of `bytes`.
    public let padding: ADPadding?

    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        var it = ADStructureIterator(bytes)
        var problems: [ADIssue] = []
        while let s = it.next() {
            if let error = s.problem {
                problems.append(.malformedStructure(offset: s.offset, type: s.type, error: error))
            }
        }
        if let o = it.overrun { problems.append(o) }
        issues = problems
        padding = it.padding
    }

    public init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    /// Encodes `structures` and parses the result.
    public init(structures: [ADStructure]) {
        var w = ByteWriter(capacity: structures.reduce(0) { $0 + $1.encodedCount })
        for s in structures { s.encode(into: &w) }
        self.init(w.bytes)
    }

    /// Encodes `values` and parses the result.
    public init(values: [ADValue]) {
        self.init(structures: values.map(ADStructure.init))
    }

    public static let empty = AdvertisingData([UInt8]())

    /// Walks the structures of the significant part, in order.
    public func makeIterator() -> ADStructureIterator { ADStructureIterator(bytes) }

    /// The structures of the significant part, in order.
    public var structures: [ADStructure] { Array(self) }

    /// Number of structures in the significant part (counted without allocating).
    public var structureCount: Int {
        var n = 0
        for _ in self { n += 1 }
        return n
    }

    /// True when nothing is wrong (padding is allowed).
    public var isWellFormed: Bool { issues.isEmpty }

    /// Every structure that decodes, with its value; malformed ones are left out.
    public var values: [ADValue] { compactMap(\.value) }

    /// The first structure of a type.
    public func first(_ type: ADType) -> ADStructure? {
        for s in self where s.type == type { return s }
        return nil
    }

    /// All structures of a type.
    public func all(_ type: ADType) -> [ADStructure] { filter { $0.type == type } }

    public static func == (l: AdvertisingData, r: AdvertisingData) -> Bool {
        l.bytes.elementsEqual(r.bytes)
    }
}

// MARK: - Convenience accessors (what a scanner and a user want first)

extension AdvertisingData {
    public var flags: ADFlags? {
        guard let s = first(.flags) else { return nil }
        return ADFlags(rawValue: s.data.first ?? 0)
    }

    /// The Complete Local Name if present, else the Shortened one.
    public var localName: String? {
        let s = first(.completeLocalName) ?? first(.shortenedLocalName)
        return s.map { ADLocalName.text(from: $0.data) }
    }

    /// `localName` of `bytes` in one walk, without making an `AdvertisingData` (which checks
    /// every structure for issues) or an `ADStructure` per structure: each advertising
    /// report's headline shows the name.
    static func localName(in bytes: ArraySlice<UInt8>) -> String? {
        var walk = ADStructureIterator(bytes)
        var shortened: Range<Int>? = nil
        while let place = walk.nextPlace() {
            if place.type == .completeLocalName { return ADLocalName.text(from: bytes[place.data]) }
            if place.type == .shortenedLocalName, shortened == nil { shortened = place.data }
        }
        return shortened.map { ADLocalName.text(from: bytes[$0]) }
    }

    /// True when the only name present is a Shortened Local Name.
    public var isLocalNameShortened: Bool {
        first(.completeLocalName) == nil && first(.shortenedLocalName) != nil
    }

    /// Every offered service UUID of every list (16, 32 and 128-bit, complete or not), in
    /// order of appearance. Solicited UUIDs are in `solicitedServiceUUIDs`.
    public var serviceUUIDs: [BluetoothUUID] { uuids { $0.isServiceUUIDList } }

    public var solicitedServiceUUIDs: [BluetoothUUID] { uuids { $0.isSolicitationList } }

    /// The UUIDs of every well-formed list whose type passes `include`.
    private func uuids(_ include: (ADType) -> Bool) -> [BluetoothUUID] {
        var out: [BluetoothUUID] = []
        for s in self where include(s.type) {
            guard let width = s.type.uuidWidth, s.problem == nil else { continue }
            var r = ByteReader(s.data)
            while let u = try? BluetoothUUID(reading: &r, width: width) { out.append(u) }
        }
        return out
    }

    /// Whether a service UUID list (not solicitation) names `uuid`. Allocates nothing: the
    /// scanner's filter runs it on every report.
    public func advertisesService(_ uuid: BluetoothUUID) -> Bool {
        for s in self where s.type.isServiceUUIDList {
            guard let width = s.type.uuidWidth, uuid.fits(width), s.problem == nil else { continue }
            var r = ByteReader(s.data)
            while !r.isAtEnd {
                guard let u = try? BluetoothUUID(reading: &r, width: width) else { break }
                if u == uuid { return true }
            }
        }
        return false
    }

    /// Whether any service UUID list of the data is marked complete.
    public var hasCompleteServiceList: Bool {
        contains { $0.type.rawValue == 0x03 || $0.type.rawValue == 0x05 || $0.type.rawValue == 0x07 }
    }

    /// The first Manufacturer Specific Data structure (most devices send one).
    public var manufacturerData: ADManufacturerData? {
        for s in self where s.type == .manufacturerSpecificData {
            if case .manufacturerSpecificData(let m)? = s.value { return m }
        }
        return nil
    }

    /// Every Manufacturer Specific Data structure.
    public var allManufacturerData: [ADManufacturerData] {
        compactMap {
            if case .manufacturerSpecificData(let m)? = $0.value { return m }
            return nil
        }
    }

    /// TX Power Level in dBm.
    public var txPower: Int8? {
        guard let s = first(.txPowerLevel), let b = s.data.first else { return nil }
        return Int8(bitPattern: b)
    }

    public var appearance: Appearance? {
        guard case .appearance(let a)? = first(.appearance)?.value else { return nil }
        return a
    }

    /// Every Service Data structure (16, 32 and 128-bit UUIDs).
    public var serviceData: [ADServiceData] {
        compactMap {
            if case .serviceData(let d)? = $0.value { return d }
            return nil
        }
    }

    /// The data of the first Service Data structure for `uuid`.
    public func serviceData(for uuid: BluetoothUUID) -> ArraySlice<UInt8>? {
        for s in self where s.type.isServiceData {
            if case .serviceData(let d)? = s.value, d.uuid == uuid { return d.data }
        }
        return nil
    }

    public var peripheralConnectionIntervalRange: ConnectionIntervalRange? {
        guard case .peripheralConnectionIntervalRange(let r)? = first(.peripheralConnectionIntervalRange)?.value else { return nil }
        return r
    }

    public var uri: ADURI? {
        guard case .uri(let u)? = first(.uri)?.value else { return nil }
        return u
    }

    public var leRole: ADLERole? {
        guard case .leRole(let r)? = first(.leRole)?.value else { return nil }
        return r
    }

    /// Advertising Interval or Advertising Interval - long, whichever comes first.
    public var advertisingInterval: AdvertisingInterval? {
        for s in self where s.type == .advertisingInterval || s.type == .advertisingIntervalLong {
            if case .advertisingInterval(let i)? = s.value { return i }
        }
        return nil
    }

    /// The device's own address from an LE Bluetooth Device Address structure.
    public var leBluetoothDeviceAddress: DeviceAddress? {
        guard case .leBluetoothDeviceAddress(let a)? = first(.leBluetoothDeviceAddress)?.value else { return nil }
        return a
    }
}
