import Wire
import Dissector
import HostCore
import Runtime

/// What `decode` and `monitor` share: the options that shape the dissection (filters, keys,
/// GATT cache labels, the advertising summary) and how they become a `PacketFilter` and
/// `DissectorOptions`.
struct DissectionSetup {
    var filter = PacketFilter()
    var options = DissectorOptions()
    var advertisingSummary = false
    /// Notices for stderr (an unreadable cache file).
    var notices: [String] = []

    static let specOptions: [CommandSpec.Option] = [
        .init(.hex, "add a hex dump (offset, 16 bytes a line, ASCII) under each packet"),
        .init(.json, "JSON Lines: one object per packet, then a summary object"),
        .init(.filter, value: "TERM", repeatable: true,
              "keep matching packets: acl|event|command|sco|iso|monitor, type=T, handle=N, att=OPCODE|notification|…, peer=ADDRESS, index=N"),
        .init(.brief, "one line per packet, no decoded fields"),
        .init(.noSummary, "leave out the summary"),
        .init(.gattCache, value: "DIR",
              "name attribute handles from rtstack's GATT cache in DIR when the capture lacks the discovery (default: the state directory)"),
        .init(.noGattCache, "do not read a GATT cache"),
        .init(.showKeys, "show keys (SMP, LTKs in HCI commands) instead of [redacted]"),
        .init(.advSummary, "fold advertising reports into a table per device (count, RSSI range, last data)"),
    ]

    /// Reads the shared options; `defaultCache` is where the cache is looked for without
    /// `--gatt-cache` (a missing default directory is no error, a missing named one is).
    init(_ args: ParsedArguments, defaultCache: StateDirectory = .standard()) throws(UsageError) {
        for term in args.all(.filter) {
            do { try filter.add(term: term) } catch { throw UsageError(error.description) }
        }
        options.showKeys = args.flag(.showKeys)
        advertisingSummary = args.flag(.advSummary)
        options.resolvesAdvertisers = !filter.peers.isEmpty || advertisingSummary
        if args.flag(.noGattCache) {
            if args.value(.gattCache) != nil { throw UsageError("--gatt-cache and --no-gatt-cache exclude each other") }
            return
        }
        let named = args.value(.gattCache)
        let cache = FileGATTCache(directory: named.map { StateDirectory(path: $0) } ?? defaultCache)
        guard let listing = cache.all() else {
            if let named { throw UsageError("--gatt-cache \(named): not a readable directory") }
            return
        }
        for entry in listing.entries {
            options.labels.add(peer: entry.peer, types: Self.attributeTypes(entry.database))
        }
        for name in listing.unreadable {
            notices.append("GATT cache \(cache.directory.path)/\(name) does not parse; its labels are not used")
        }
    }

    /// Value handle → characteristic UUID, descriptor handle → descriptor UUID.
    static func attributeTypes(_ database: GATTDatabase) -> [UInt16: BluetoothUUID] {
        var types: [UInt16: BluetoothUUID] = [:]
        for service in database.services {
            for c in service.characteristics {
                types[c.valueHandle] = c.uuid
                for d in c.descriptors { types[d.handle] = d.uuid }
            }
        }
        return types
    }
}
