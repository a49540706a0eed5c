import Wire

/// Streaming reader over one btsnoop, pcap or pcapng capture.
///
/// `next()` returns one record at a time and keeps nothing but a fixed buffer, so memory
/// does not grow with the file. Each record's packet is a slice of the read buffer (over a
/// file; a record kept alive keeps that buffer's copy alive) or of the input array (over
/// memory).
///
/// Errors that leave the reader lost in the file (truncation, impossible lengths, broken
/// block framing) are sticky: that `next()` and every later one throw the same error. Errors
/// confined to one record (`CaptureError.endsStream == false`) skip it; the next call goes on.
///
/// A copy of a reader is an independent cursor (reads are positioned, not sequential).
public struct CaptureReader: Sendable {
    public let format: CaptureFormat
    /// Packet records consumed from the file so far, including ones skipped as notes or
    /// rejected with an error. After `next()` returns a record, this is that record's 1-based
    /// frame number as Wireshark counts it.
    public private(set) var recordIndex = 0
    /// Records returned by `next()`.
    public private(set) var recordsReturned = 0
    /// Records passed over as notes (btsnoop 2001 non-packet opcodes).
    public private(set) var recordsSkipped = 0
    /// btsnoop's cumulative-drops field of the last record read (0 for pcap/pcapng).
    public private(set) var cumulativeDrops: UInt32 = 0
    /// Notes not yet collected with `takeNotes()`.
    public private(set) var pendingNotes: [CaptureNote] = []
    /// Notes discarded because more than `noteLimit` were left uncollected.
    public private(set) var notesDropped = 0
    public static let maximumPendingNotes = 256
    /// How many uncollected notes are kept (`maximumPendingNotes` unless raised): a decoder
    /// that shows monitor records collects them after every `next()` and raises it, since one
    /// `next()` may pass over many records in a row.
    public var noteLimit = CaptureReader.maximumPendingNotes

    /// File offset of the next byte to be read.
    public var offset: Int { source.offset }

    var source: ChunkedByteSource
    private var failure: CaptureError?
    private var section = PcapngSection()
    static let maximumInterfaces = 1024

    /// Reads a capture held in memory (tests, fuzzing, bytes from a socket). The packets of
    /// the returned records are slices of `bytes`.
    public init(bytes: [UInt8]) throws(CaptureError) {
        try self.init(source: ChunkedByteSource(bytes: bytes))
    }

    init(source: ChunkedByteSource) throws(CaptureError) {
        var source = source
        format = try Self.readFileHeader(&source)
        self.source = source
        if format == .pcapng {
            let have = try self.source.fill(12)
            guard have >= 12 else {
                throw .truncated(offset: 0, what: "Section Header Block", lengthName: "minimum block length", length: 28, available: have)
            }
            try readSectionHeader()
        }
    }

    /// The next packet, nil at a clean end of file.
    public mutating func next() throws(CaptureError) -> CaptureRecord? {
        if let failure { throw failure }
        do throws(CaptureError) {
            let record: CaptureRecord?
            switch format {
            case let .btsnoop(datalink):
                record = try nextBtsnoop(datalink: datalink)
            case let .pcap(linkType, nanoseconds, bigEndian):
                record = try nextPcap(linkType: linkType, nanoseconds: nanoseconds, bigEndian: bigEndian)
            case .pcapng:
                record = try nextPcapng()
            }
            // A pattern, not `record != nil`: the comparison goes through `Equatable` and
            // copies the record twice through generic witnesses.
            if case .some = record { recordsReturned += 1 }
            return record
        } catch {
            if error.endsStream { failure = error }
            throw error
        }
    }

    /// Every remaining record; for small files and tests (a large file should be streamed).
    public mutating func readAll() throws(CaptureError) -> [CaptureRecord] {
        var out: [CaptureRecord] = []
        while let record = try next() { out.append(record) }
        return out
    }

    /// Returns and forgets the notes gathered since the last call.
    public mutating func takeNotes() -> [CaptureNote] {
        defer { pendingNotes.removeAll(keepingCapacity: true) }
        return pendingNotes
    }

    private mutating func addNote(_ note: CaptureNote) {
        if pendingNotes.count < noteLimit {
            pendingNotes.append(note)
        } else {
            notesDropped += 1
        }
    }

    // MARK: - File header

    private static let pcapMagics: [[UInt8]] = [
        [0xa1, 0xb2, 0xc3, 0xd4], [0xd4, 0xc3, 0xb2, 0xa1],
        [0xa1, 0xb2, 0x3c, 0x4d], [0x4d, 0x3c, 0xb2, 0xa1],
    ]
    private static let pcapngMagic: [UInt8] = [0x0a, 0x0d, 0x0d, 0x0a]

    private static func readFileHeader(_ source: inout ChunkedByteSource) throws(CaptureError) -> CaptureFormat {
        let have = try source.fill(24)
        if have == 0 { throw .emptyFile }
        let first = source.peek(16)
        let magics = [Array(BtsnoopFormat.magic.prefix(4)), pcapngMagic] + pcapMagics
        if have < 4 {
            if magics.contains(where: { $0.starts(with: first) }) {
                throw .truncated(offset: 0, what: "file header", lengthName: "magic length", length: 4, available: have)
            }
            throw .notACaptureFile(firstBytes: first)
        }
        let magic = Array(first.prefix(4))
        if magic == Array(BtsnoopFormat.magic.prefix(4)) {
            guard have >= BtsnoopFormat.fileHeaderLength else {
                throw .truncated(offset: 0, what: "btsnoop file header", lengthName: "header length",
                                 length: BtsnoopFormat.fileHeaderLength, available: have)
            }
            guard first.starts(with: BtsnoopFormat.magic) else { throw .notACaptureFile(firstBytes: first) }
            let version = source.u32(at: 8, bigEndian: true)
            guard version == BtsnoopFormat.version else {
                throw .unsupportedVersion(offset: 8, format: "btsnoop", version: version, supported: "1")
            }
            let datalink = source.u32(at: 12, bigEndian: true)
            guard BtsnoopFormat.supportedDatalinks.contains(datalink) else {
                throw .unsupportedDatalink(offset: 12, datalink: datalink)
            }
            source.advance(BtsnoopFormat.fileHeaderLength)
            return .btsnoop(datalink: datalink)
        }
        if let which = pcapMagics.firstIndex(of: magic) {
            guard have >= PcapFormat.fileHeaderLength else {
                throw .truncated(offset: 0, what: "pcap file header", lengthName: "header length",
                                 length: PcapFormat.fileHeaderLength, available: have)
            }
            let bigEndian = which % 2 == 0
            let nanoseconds = which >= 2
            let major = source.u16(at: 4, bigEndian: bigEndian)
            guard major == 2 else {
                throw .unsupportedVersion(offset: 4, format: "pcap", version: UInt32(major), supported: "2.x")
            }
            // Low 16 bits: link type; bits 26-31 may carry FCS information; the rest is reserved.
            let network = source.u32(at: 20, bigEndian: bigEndian)
            let linkType = network & 0xffff
            guard network & 0x03ff_0000 == 0, PcapFormat.supportedLinkTypes.contains(linkType) else {
                throw .unsupportedLinkType(offset: 20, linkType: network & 0x03ff_0000 == 0 ? linkType : network)
            }
            source.advance(PcapFormat.fileHeaderLength)
            return .pcap(linktype: linkType, nanoseconds: nanoseconds, bigEndian: bigEndian)
        }
        if magic == pcapngMagic { return .pcapng }
        throw .notACaptureFile(firstBytes: first)
    }

    // MARK: - Shared record helpers

    private func checkIncluded(_ included: Int, original: Int, fieldOffset: Int, name: String) throws(CaptureError) {
        if included > BtsnoopFormat.maximumIncludedLength {
            throw .implausibleLength(offset: fieldOffset, field: name, value: included,
                                     reason: "larger than the 1 MiB limit for one HCI record")
        }
        if included > original {
            throw .implausibleLength(offset: fieldOffset, field: name, value: included,
                                     reason: "larger than the original length \(original)")
        }
    }

    private mutating func takeRecordData(_ count: Int, recordOffset: Int, what: String, lengthName: String,
                                         length: Int, alreadyRead: Int) throws(CaptureError) -> ArraySlice<UInt8> {
        switch try source.take(count) {
        case let .bytes(data):
            return data
        case let .short(available):
            throw .truncated(offset: recordOffset, what: what, lengthName: lengthName, length: length,
                             available: alreadyRead + available)
        }
    }

    /// Splits an H4 frame (indicator byte + packet) without copying.
    private static func splitH4(_ data: ArraySlice<UInt8>, at offset: Int) throws(CaptureError) -> HCIPacket {
        guard let first = data.first else {
            throw .badRecord(offset: offset, reason: "empty packet: no H4 packet type byte")
        }
        guard let type = H4PacketType(rawValue: first) else {
            throw .unknownPacketType(offset: offset, type: first)
        }
        return HCIPacket(type: type, bytes: data.dropFirst())
    }

    /// Decodes the packet bytes of LINKTYPE 187 or 201 (pcap and pcapng share them).
    private static func decodeH4Link(
        _ data: ArraySlice<UInt8>, linkType: UInt32, dataOffset: Int, time: Int64,
        recordOffset: Int, flagsDirection: Direction?
    ) throws(CaptureError) -> CaptureRecord {
        if linkType == PcapFormat.linkTypeH4WithPHDR {
            guard data.count >= 4 else {
                throw .badRecord(offset: dataOffset,
                                 reason: "\(data.count) byte(s) cannot hold the 4-byte LINKTYPE 201 direction pseudo-header")
            }
            let word = pcapngU32(data, 0, bigEndian: true)
            let packet = try splitH4(data.dropFirst(4), at: dataOffset + 4)
            let direction: Direction = word & PcapFormat.phdrReceived != 0 ? .controllerToHost : .hostToController
            return CaptureRecord(timestampMicros: time, direction: direction, packet: packet, fileOffset: recordOffset)
        }
        let packet = try splitH4(data, at: dataOffset)
        if let implied = packet.type.impliedDirection ?? flagsDirection {
            return CaptureRecord(timestampMicros: time, direction: implied, packet: packet, fileOffset: recordOffset)
        }
        return CaptureRecord(timestampMicros: time, direction: .controllerToHost, packet: packet,
                             fileOffset: recordOffset, directionIsKnown: false)
    }

    /// A LINKTYPE_BLUETOOTH_LINUX_MONITOR record: the HCI packet it carries, or nil after
    /// keeping a record without one as a note.
    private mutating func monitorRecord(_ data: ArraySlice<UInt8>, dataOffset: Int, time: Int64,
                                        recordOffset: Int) throws(CaptureError) -> CaptureRecord? {
        guard data.count >= PcapFormat.monitorHeaderLength else {
            throw .badRecord(offset: dataOffset,
                             reason: "\(data.count) byte(s) cannot hold the 4-byte LINKTYPE 254 monitor pseudo-header")
        }
        let b = data.startIndex
        let adapter = UInt16(data[b]) << 8 | UInt16(data[b + 1])
        let opcode = UInt16(data[b + 2]) << 8 | UInt16(data[b + 3])
        let frame = MonitorFrame(opcode: MonitorOpcode(opcode), adapterIndex: adapter, timestampMicros: time,
                                 payload: data.dropFirst(PcapFormat.monitorHeaderLength))
        if let record = frame.record {
            var record = record
            record.fileOffset = recordOffset
            return record
        }
        recordsSkipped += 1
        addNote(CaptureNote(fileOffset: recordOffset, kind: .monitorRecord(opcode: opcode, adapterIndex: adapter),
                            monitorFrame: frame))
        return nil
    }

    // MARK: - btsnoop

    private mutating func nextBtsnoop(datalink: UInt32) throws(CaptureError) -> CaptureRecord? {
        let headerLength = BtsnoopFormat.recordHeaderLength
        while true {
            let recordOffset = source.offset
            let have = try source.fill(headerLength)
            if have == 0 { return nil }
            guard have >= headerLength else {
                throw .truncated(offset: recordOffset, what: "record header", lengthName: "header length",
                                 length: headerLength, available: have)
            }
            let original = Int(source.u32(at: 0, bigEndian: true))
            let included = Int(source.u32(at: 4, bigEndian: true))
            let flags = source.u32(at: 8, bigEndian: true)
            let drops = source.u32(at: 12, bigEndian: true)
            let stamp = source.u64(at: 16, bigEndian: true)
            try checkIncluded(included, original: original, fieldOffset: recordOffset + 4, name: "included length")
            source.advance(headerLength)
            let data = try takeRecordData(included, recordOffset: recordOffset, what: "record",
                                          lengthName: "included length", length: included, alreadyRead: 0)
            recordIndex += 1
            cumulativeDrops = drops
            let time = Int64(bitPattern: stamp) &- BtsnoopFormat.epochOffsetMicros
            let dataOffset = recordOffset + headerLength
            let received = flags & BtsnoopFormat.flagReceived != 0
            let direction: Direction = received ? .controllerToHost : .hostToController
            switch datalink {
            case BtsnoopFormat.datalinkHCI:
                // No indicator byte: flags say command/event vs data; data is taken as ACL
                // (the format cannot tell SCO apart).
                let type: H4PacketType = flags & BtsnoopFormat.flagCommandOrEvent != 0
                    ? (received ? .event : .command) : .acl
                return CaptureRecord(timestampMicros: time, direction: direction,
                                     packet: HCIPacket(type: type, bytes: data), fileOffset: recordOffset)
            case BtsnoopFormat.datalinkMonitor:
                let opcode = UInt16(truncatingIfNeeded: flags)
                let adapter = UInt16(truncatingIfNeeded: flags >> 16)
                guard let kind = BtsnoopFormat.monitorPacket(opcode: opcode) else {
                    recordsSkipped += 1
                    let frame = MonitorFrame(opcode: MonitorOpcode(opcode), adapterIndex: adapter, timestampMicros: time, payload: data)
                    addNote(CaptureNote(fileOffset: recordOffset, kind: .monitorRecord(opcode: opcode, adapterIndex: adapter),
                                        monitorFrame: frame))
                    continue
                }
                return CaptureRecord(timestampMicros: time, direction: kind.direction,
                                     packet: HCIPacket(type: kind.type, bytes: data),
                                     fileOffset: recordOffset, adapterIndex: adapter)
            default:
                let packet = try Self.splitH4(data, at: dataOffset)
                return CaptureRecord(timestampMicros: time, direction: direction, packet: packet, fileOffset: recordOffset)
            }
        }
    }

    // MARK: - pcap

    private mutating func nextPcap(linkType: UInt32, nanoseconds: Bool, bigEndian: Bool) throws(CaptureError) -> CaptureRecord? {
        // Monitor records without an HCI packet become notes; read on to the next packet.
        while true {
            switch try nextPcapRecord(linkType: linkType, nanoseconds: nanoseconds, bigEndian: bigEndian) {
            case .none: return nil
            case .some(.none): continue
            case .some(.some(let record)): return record
            }
        }
    }

    /// One pcap record: nil at the end of the file, else its packet, or nil inside for a
    /// monitor record that holds none.
    private mutating func nextPcapRecord(linkType: UInt32, nanoseconds: Bool, bigEndian: Bool) throws(CaptureError) -> CaptureRecord?? {
        let headerLength = PcapFormat.recordHeaderLength
        let recordOffset = source.offset
        let have = try source.fill(headerLength)
        if have == 0 { return nil }
        guard have >= headerLength else {
            throw .truncated(offset: recordOffset, what: "record header", lengthName: "header length",
                             length: headerLength, available: have)
        }
        let seconds = source.u32(at: 0, bigEndian: bigEndian)
        let fraction = source.u32(at: 4, bigEndian: bigEndian)
        let included = Int(source.u32(at: 8, bigEndian: bigEndian))
        let original = Int(source.u32(at: 12, bigEndian: bigEndian))
        try checkIncluded(included, original: original, fieldOffset: recordOffset + 8, name: "included length")
        source.advance(headerLength)
        let data = try takeRecordData(included, recordOffset: recordOffset, what: "record",
                                      lengthName: "included length", length: included, alreadyRead: 0)
        recordIndex += 1
        let time = Int64(seconds) * 1_000_000 + Int64(nanoseconds ? fraction / 1000 : fraction)
        if linkType == PcapFormat.linkTypeLinuxMonitor {
            return .some(try monitorRecord(data, dataOffset: recordOffset + headerLength, time: time, recordOffset: recordOffset))
        }
        return try Self.decodeH4Link(data, linkType: linkType, dataOffset: recordOffset + headerLength,
                                     time: time, recordOffset: recordOffset, flagsDirection: nil)
    }

    // MARK: - pcapng

    /// What one block amounted to, decided before its trailer is checked.
    private enum BlockOutcome {
        case record(CaptureRecord)
        case consumed
        case note(CaptureNote)
        case failed(CaptureError)
    }

    private mutating func nextPcapng() throws(CaptureError) -> CaptureRecord? {
        while true {
            let blockOffset = source.offset
            let have = try source.fill(12)
            if have == 0 { return nil }
            guard have >= 12 else {
                throw .truncated(offset: blockOffset, what: "block header", lengthName: "minimum block length",
                                 length: 12, available: have)
            }
            // The SHB type reads the same in both byte orders.
            if source.u32(at: 0, bigEndian: false) == PcapngFormat.sectionHeaderBlock {
                try readSectionHeader()
                continue
            }
            let bigEndian = section.bigEndian
            let type = source.u32(at: 0, bigEndian: bigEndian)
            let length = Int(source.u32(at: 4, bigEndian: bigEndian))
            guard length >= 12, length % 4 == 0 else {
                throw .malformed(offset: blockOffset + 4,
                                 reason: "block total length \(length) is not a multiple of 4 of at least 12")
            }
            let outcome: BlockOutcome
            switch type {
            case PcapngFormat.interfaceDescriptionBlock:
                outcome = try readInterfaceDescription(blockOffset: blockOffset, length: length)
            case PcapngFormat.enhancedPacketBlock, PcapngFormat.packetBlock:
                outcome = try readPacketBlock(type: type, blockOffset: blockOffset, length: length)
            case PcapngFormat.simplePacketBlock:
                outcome = try readSimplePacketBlock(blockOffset: blockOffset, length: length)
            default:
                source.advance(8)
                outcome = .note(CaptureNote(fileOffset: blockOffset,
                                            kind: .pcapngBlock(type: type, length: UInt32(truncatingIfNeeded: length))))
            }
            try finishBlock(blockOffset: blockOffset, length: length)
            switch outcome {
            case let .record(record): return record
            case .consumed: continue
            case let .note(note): addNote(note)
            case let .failed(error): throw error
            }
        }
    }

    /// Skips what is left of the block and checks its trailing length against the leading one.
    private mutating func finishBlock(blockOffset: Int, length: Int) throws(CaptureError) {
        let trailerOffset = blockOffset + length - 4
        let gap = trailerOffset - source.offset
        if case let .short(available) = try source.skip(gap) {
            throw .truncated(offset: blockOffset, what: "block", lengthName: "block total length", length: length,
                             available: source.offset - blockOffset + available)
        }
        let have = try source.fill(4)
        guard have >= 4 else {
            throw .truncated(offset: blockOffset, what: "block", lengthName: "block total length", length: length,
                             available: length - 4 + have)
        }
        let trailer = Int(source.u32(at: 0, bigEndian: section.bigEndian))
        guard trailer == length else {
            throw .malformed(offset: trailerOffset,
                             reason: "trailing block total length \(trailer) differs from the leading \(length) (block at offset \(blockOffset))")
        }
        source.advance(4)
    }

    /// Reads a whole SHB (cursor at its start, 12 bytes buffered) and starts a new section.
    private mutating func readSectionHeader() throws(CaptureError) {
        let blockOffset = source.offset
        let magic = source.u32(at: 8, bigEndian: false)
        let bigEndian: Bool
        if magic == PcapngFormat.byteOrderMagic {
            bigEndian = false
        } else if magic == PcapngFormat.byteOrderMagic.byteSwapped {
            bigEndian = true
        } else {
            throw .malformed(offset: blockOffset + 8,
                             reason: "Section Header byte-order magic 0x\(String(magic, radix: 16)) is not 1a2b3c4d in either byte order")
        }
        let length = Int(source.u32(at: 4, bigEndian: bigEndian))
        guard length >= 28, length % 4 == 0 else {
            throw .malformed(offset: blockOffset + 4,
                             reason: "Section Header Block length \(length) is not a multiple of 4 of at least 28")
        }
        guard length <= PcapngFormat.maximumHeaderBlockLength else {
            throw .implausibleLength(offset: blockOffset + 4, field: "Section Header Block length", value: length,
                                     reason: "larger than the 1 MiB limit for a header block")
        }
        source.advance(8)
        let body = try takeRecordData(length - 12, recordOffset: blockOffset, what: "Section Header Block",
                                      lengthName: "block total length", length: length, alreadyRead: 8)
        let major = pcapngU16(body, 4, bigEndian: bigEndian)
        guard major == 1 else {
            throw .unsupportedVersion(offset: blockOffset + 12, format: "pcapng", version: UInt32(major), supported: "1.x")
        }
        section = PcapngSection(bigEndian: bigEndian)
        try finishBlock(blockOffset: blockOffset, length: length)
    }

    private mutating func readInterfaceDescription(blockOffset: Int, length: Int) throws(CaptureError) -> BlockOutcome {
        source.advance(8)
        guard length >= 20 else {
            return .failed(.badRecord(offset: blockOffset,
                                      reason: "Interface Description Block of \(length) bytes is shorter than its 20-byte minimum"))
        }
        guard length <= PcapngFormat.maximumHeaderBlockLength else {
            throw .implausibleLength(offset: blockOffset + 4, field: "Interface Description Block length", value: length,
                                     reason: "larger than the 1 MiB limit for a header block")
        }
        let bigEndian = section.bigEndian
        let body = try takeRecordData(length - 12, recordOffset: blockOffset, what: "Interface Description Block",
                                      lengthName: "block total length", length: length, alreadyRead: 8)
        var interface = PcapngInterface(linkType: UInt32(pcapngU16(body, 0, bigEndian: bigEndian)),
                                        snapLength: pcapngU32(body, 4, bigEndian: bigEndian))
        let optionsFit = forEachPcapngOption(in: body.dropFirst(8), bigEndian: bigEndian) { code, value in
            if code == PcapngFormat.optionInterfaceTimestampResolution, let first = value.first {
                interface.unit = PcapngTimestampUnit(option: first)
            } else if code == PcapngFormat.optionInterfaceTimestampOffset, value.count >= 8 {
                let first = UInt64(pcapngU32(value, 0, bigEndian: bigEndian))
                let second = UInt64(pcapngU32(value, 4, bigEndian: bigEndian))
                interface.offsetSeconds = Int64(bitPattern: bigEndian ? first << 32 | second : second << 32 | first)
            }
        }
        guard section.interfaces.count < Self.maximumInterfaces else {
            return .failed(.badRecord(offset: blockOffset,
                                      reason: "more than \(Self.maximumInterfaces) interfaces in one section"))
        }
        section.interfaces.append(interface)
        if !optionsFit {
            return .failed(.badRecord(offset: blockOffset,
                                      reason: "an Interface Description Block option overruns the block; later options ignored"))
        }
        return .consumed
    }

    private mutating func readPacketBlock(type: UInt32, blockOffset: Int, length: Int) throws(CaptureError) -> BlockOutcome {
        let name = type == PcapngFormat.enhancedPacketBlock ? "Enhanced Packet Block" : "Packet Block"
        recordIndex += 1
        guard length >= 32 else {
            source.advance(8)
            return .failed(.badRecord(offset: blockOffset, reason: "\(name) of \(length) bytes is shorter than its 32-byte minimum"))
        }
        let have = try source.fill(28)
        guard have >= 28 else {
            throw .truncated(offset: blockOffset, what: name, lengthName: "block total length", length: length, available: have)
        }
        let bigEndian = section.bigEndian
        let interfaceID = type == PcapngFormat.enhancedPacketBlock
            ? source.u32(at: 8, bigEndian: bigEndian) : UInt32(source.u16(at: 8, bigEndian: bigEndian))
        let stampHigh = UInt64(source.u32(at: 12, bigEndian: bigEndian))
        let stampLow = UInt64(source.u32(at: 16, bigEndian: bigEndian))
        let captured = Int(source.u32(at: 20, bigEndian: bigEndian))
        let original = Int(source.u32(at: 24, bigEndian: bigEndian))
        try checkIncluded(captured, original: original, fieldOffset: blockOffset + 20, name: "captured length")
        source.advance(28)
        guard captured <= length - 32 else {
            return .failed(.badRecord(offset: blockOffset,
                                      reason: "captured length \(captured) overruns the \(name) of \(length) bytes"))
        }
        let data = try takeRecordData(captured, recordOffset: blockOffset, what: name, lengthName: "block total length",
                                      length: length, alreadyRead: 28)
        guard Int(interfaceID) < section.interfaces.count else {
            return .failed(.badRecord(offset: blockOffset,
                                      reason: "interface \(interfaceID) has no Interface Description Block (section has \(section.interfaces.count))"))
        }
        let interface = section.interfaces[Int(interfaceID)]
        guard PcapFormat.supportedInterfaceLinkTypes.contains(interface.linkType) else {
            return .failed(.unsupportedInterfaceLinkType(offset: blockOffset, interface: interfaceID, linkType: interface.linkType))
        }
        var flagsDirection: Direction? = nil
        let optionsStart = 28 + ((captured + 3) & ~3)
        if interface.linkType == PcapFormat.linkTypeH4, type == PcapngFormat.enhancedPacketBlock,
           length - 4 - optionsStart >= 4 {
            flagsDirection = try readPacketFlagsDirection(skipping: optionsStart - 28 - captured,
                                                          optionsLength: length - 4 - optionsStart)
        }
        guard let micros = Self.micros(high: stampHigh, low: stampLow, interface: interface) else {
            return .failed(.badRecord(offset: blockOffset + 12, reason: "timestamp does not fit 64-bit microseconds"))
        }
        do {
            return .record(try Self.decodeH4Link(data, linkType: interface.linkType, dataOffset: blockOffset + 28,
                                                 time: micros, recordOffset: blockOffset, flagsDirection: flagsDirection))
        } catch {
            return .failed(error)
        }
    }

    /// Direction from the epb_flags option (bits 0-1: 1 inbound, 2 outbound), for LINKTYPE
    /// 187 data packets that otherwise have none.
    private mutating func readPacketFlagsDirection(skipping padding: Int, optionsLength: Int) throws(CaptureError) -> Direction? {
        guard case .bytes = try source.skip(padding), case let .bytes(options) = try source.take(optionsLength) else {
            return nil   // finishBlock reports the truncation
        }
        var direction: Direction? = nil
        let bigEndian = section.bigEndian
        forEachPcapngOption(in: options, bigEndian: bigEndian) { code, value in
            guard code == PcapngFormat.optionPacketFlags, value.count >= 4 else { return }
            switch pcapngU32(value, 0, bigEndian: bigEndian) & 3 {
            case 1: direction = .controllerToHost
            case 2: direction = .hostToController
            default: break
            }
        }
        return direction
    }

    private mutating func readSimplePacketBlock(blockOffset: Int, length: Int) throws(CaptureError) -> BlockOutcome {
        recordIndex += 1
        guard length >= 16 else {
            source.advance(8)
            return .failed(.badRecord(offset: blockOffset, reason: "Simple Packet Block of \(length) bytes is shorter than its 16-byte minimum"))
        }
        let original = Int(source.u32(at: 8, bigEndian: section.bigEndian))
        source.advance(12)
        guard let interface = section.interfaces.first else {
            return .failed(.badRecord(offset: blockOffset, reason: "Simple Packet Block before any Interface Description Block"))
        }
        var captured = min(original, length - 16)
        if interface.snapLength > 0 { captured = min(captured, Int(interface.snapLength)) }
        if captured > BtsnoopFormat.maximumIncludedLength {
            throw .implausibleLength(offset: blockOffset + 8, field: "original length", value: original,
                                     reason: "larger than the 1 MiB limit for one HCI record")
        }
        let data = try takeRecordData(captured, recordOffset: blockOffset, what: "Simple Packet Block",
                                      lengthName: "block total length", length: length, alreadyRead: 12)
        guard PcapFormat.supportedInterfaceLinkTypes.contains(interface.linkType) else {
            return .failed(.unsupportedInterfaceLinkType(offset: blockOffset, interface: 0, linkType: interface.linkType))
        }
        // An SPB carries no timestamp; 0 (the Unix epoch) stands in.
        do {
            return .record(try Self.decodeH4Link(data, linkType: interface.linkType, dataOffset: blockOffset + 12,
                                                 time: 0, recordOffset: blockOffset, flagsDirection: nil))
        } catch {
            return .failed(error)
        }
    }

    private static func micros(high: UInt64, low: UInt64, interface: PcapngInterface) -> Int64? {
        guard let base = interface.unit.micros(high << 32 | low) else { return nil }
        let (offset, overflow) = interface.offsetSeconds.multipliedReportingOverflow(by: 1_000_000)
        guard !overflow else { return nil }
        let (sum, overflow2) = base.addingReportingOverflow(offset)
        return overflow2 ? nil : sum
    }
}

/// Per-section pcapng state: byte order and the interfaces described so far.
struct PcapngSection: Sendable {
    var bigEndian = false
    var interfaces: [PcapngInterface] = []
}
