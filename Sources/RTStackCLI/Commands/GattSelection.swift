import HostCore
import Runtime
import Wire

/// The part of a peer's database `rtstack gatt` was asked about, and the GATT sub-procedures
/// that find it (Core Spec v5.4 Vol 3, Part G, §4.4.2, §4.5.1, §4.6.1–2, §4.7.1), each over a
/// handle range: a service's (`--service`), one given (`--range`), or the whole database.
struct GattSelection {
    enum Only: String, OptionChoice {
        case included, characteristics, descriptors
        var words: [String] { [rawValue] }
    }

    var service: BluetoothUUID?
    var range: ClosedRange<UInt16>?
    var characteristic: BluetoothUUID?
    var only: Only?

    /// Nothing selected: the whole database with `discoverAll`.
    var isEverything: Bool { service == nil && range == nil && characteristic == nil && only == nil }

    init(_ args: ParsedArguments) throws(UsageError) {
        if let s = args.value(.service) {
            guard let u = BluetoothUUID(string: s) else { throw UsageError("--service \(s): not a UUID (e.g. 180D or EF680100-9B35-4933-9B10-52FFA9740042)") }
            service = u
        }
        if let r = args.value(.range) { range = try Self.range(r) }
        if service != nil, range != nil {
            throw UsageError("--service and --range both give the handles to search: give one of them")
        }
        if let c = args.value(.characteristic) {
            guard let u = BluetoothUUID(string: c) else { throw UsageError("--characteristic \(c): not a UUID (e.g. 2A37)") }
            characteristic = u
        }
        if let v = try args.choice(.only, as: Only.self) { only = v }
        if characteristic != nil, only == .included || only == .descriptors {
            throw UsageError("--characteristic selects characteristics; it does not go with --only \(only?.rawValue ?? "")")
        }
    }

    /// `0x0010-0x0020` (hex with 0x, decimal without), first handle at least 0x0001.
    static func range(_ text: String) throws(UsageError) -> ClosedRange<UInt16> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = handle(parts[0]), let end = handle(parts[1]) else {
            throw UsageError("--range \(text): not START-END handles (e.g. 0x0010-0x0020)")
        }
        guard start >= 1, start <= end else {
            throw UsageError("--range \(text): handles start at 0x0001 and the range must not run backwards")
        }
        return start...end
    }

    static func handle(_ s: Substring) -> UInt16? {
        if s.hasPrefix("0x") || s.hasPrefix("0X") { return UInt16(s.dropFirst(2), radix: 16) }
        return UInt16(s)
    }

    /// What one handle range held.
    struct Section {
        /// The primary service the range is (with `--service`); nil for a range given as is.
        var service: GATTService?
        var range: ClosedRange<UInt16>
        var included: [GATTIncludedService]?
        /// With their descriptors, unless only characteristics were asked for.
        var characteristics: [GATTCharacteristic]?
        /// Every attribute of the range (`--only descriptors`).
        var attributes: [GATTDescriptor]?
    }

    static let declarationTypes: Set<BluetoothUUID> = [.primaryService, .secondaryService, .include, .characteristic]

    /// Runs the selected sub-procedures, one request at a time.
    func explore(_ p: Peripheral) async throws -> [Section] {
        var sections: [Section] = []
        if let uuid = service {
            let found = try await p.discoverPrimaryServices(uuid: uuid)
            guard !found.isEmpty else {
                throw CentralError.host(.notFound("no primary service \(GattCommand.uuidText(uuid)) on \(p.connection?.peer.description ?? "the peer")"))
            }
            sections = found.map { Section(service: $0, range: $0.startHandle...$0.endHandle) }
        } else {
            sections = [Section(service: nil, range: range ?? 0x0001...0xFFFF)]
        }
        for i in sections.indices {
            let r = sections[i].range
            if only == .descriptors {
                sections[i].attributes = try await p.discoverDescriptors(in: r)
                continue
            }
            if only == nil || only == .included, characteristic == nil {
                sections[i].included = try await p.findIncludedServices(in: r)
            }
            if only == nil || only == .characteristics {
                var found = try await p.discoverCharacteristics(in: r, uuid: characteristic)
                if only == nil {
                    for c in found.indices where found[c].valueHandle < found[c].endHandle {
                        let attributes = try await p.discoverDescriptors(in: (found[c].valueHandle + 1)...found[c].endHandle)
                        // Across services a characteristic found by UUID is taken to end at the
                        // next characteristic; its descriptors end sooner, at a service or
                        // include declaration (Vol 3, Part G, §3.3.3).
                        found[c].descriptors = Array(attributes.prefix { !Self.declarationTypes.contains($0.uuid) })
                    }
                }
                sections[i].characteristics = found
            }
        }
        return sections
    }
}
