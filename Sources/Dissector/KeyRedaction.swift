import Wire

/// Key material zeroed in raw packets, for what is written or shown outside the process: the
/// `--trace` hex dump and, with `--capture-redact`, capture files. The octets that carry a key
/// become 00; every other octet (lengths, handles, EDIV/Rand, addresses) stays, so the packet
/// still decodes as what it was.
///
/// Keys travel in these packets (Core Spec v5.4): HCI LE Enable Encryption (Vol 4, Part E,
/// §7.8.24: Long_Term_Key), LE Long Term Key Request Reply (§7.8.25), LE Encrypt (§7.8.22:
/// Key), LE Add Device To Resolving List (§7.8.38: Peer_IRK, Local_IRK); and on CID 0x0006 the
/// SMP key distribution PDUs (Vol 3, Part H, §3.6: Encryption Information's LTK, Identity
/// Information's IRK, Signing Information's CSRK). An SMP PDU split over several ACL
/// fragments (an ACL buffer under 21 octets) is not recognised.
public enum KeyRedaction {
    /// The packet with its keys zeroed; nil when it carries none.
    public static func redacted(_ packet: HCIPacket) -> HCIPacket? {
        switch packet.type {
        case .command: return command(packet.bytes)
        case .acl: return smp(packet.bytes)
        default: return nil
        }
    }

    /// (opcode, offset of the key in the parameters, length): the keys of HCI commands.
    private static let commandKeys: [(opcode: UInt16, ranges: [Range<Int>])] = [
        (0x2017, [0..<16]),            // LE Encrypt: Key
        (0x2019, [12..<28]),           // LE Enable Encryption: Long_Term_Key
        (0x201A, [2..<18]),            // LE Long Term Key Request Reply: Long_Term_Key
        (0x2027, [7..<23, 23..<39]),   // LE Add Device To Resolving List: Peer_IRK, Local_IRK
    ]

    private static func command(_ bytes: ArraySlice<UInt8>) -> HCIPacket? {
        guard bytes.count >= 3 else { return nil }
        let i = bytes.startIndex
        let opcode = UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8
        guard let entry = commandKeys.first(where: { $0.opcode == opcode }) else { return nil }
        return zeroed(.command, bytes, entry.ranges.map { ($0.lowerBound + 3)..<($0.upperBound + 3) })
    }

    /// SMP codes whose 16 octets after the code are a key.
    private static let smpKeyCodes: Set<UInt8> = [0x06, 0x08, 0x0A]

    private static func smp(_ bytes: ArraySlice<UInt8>) -> HCIPacket? {
        // ACL header (4) + L2CAP basic header (4: length, CID) + code + 16-octet key, in one
        // start fragment.
        guard bytes.count >= 25 else { return nil }
        let i = bytes.startIndex
        let boundary = (bytes[i + 1] >> 4) & 0x03
        guard boundary != 0x01, bytes[i + 6] == 0x06, bytes[i + 7] == 0x00, smpKeyCodes.contains(bytes[i + 8]) else { return nil }
        return zeroed(.acl, bytes, [9..<25])
    }

    private static func zeroed(_ type: H4PacketType, _ bytes: ArraySlice<UInt8>, _ ranges: [Range<Int>]) -> HCIPacket? {
        var out = Array(bytes)
        var changed = false
        for r in ranges where r.upperBound <= out.count {
            for j in r { out[j] = 0 }
            changed = true
        }
        guard changed else { return nil }
        return HCIPacket(type: type, bytes: out)
    }
}
