import Wire

/// Why a command was sent, so that its answer reaches the part that asked (a tag rather than a
/// closure: nothing to allocate, and a test can read it).
enum CommandPurpose: Equatable, Sendable {
    case bringUp(BringUpStep)
    case scanParameters
    case scanEnable(Bool)
    case createConnection(LinkID)
    case createConnectionCancel
    case disconnect(LinkID)
    /// A connection nobody asked for (or whose attempt was already given up): let it go.
    case disconnectStray(handle: UInt16)
    case connectionUpdate(LinkID)
    /// LE Enable Encryption of a link's connection (Docs/security.md).
    case enableEncryption(LinkID)
    case readEncryptionKeySize(LinkID)
    /// LE Read Remote Features before re-encrypting a bonded peer (the link layers exchange
    /// features before encryption starts, as Linux orders them).
    case readRemoteFeatures(LinkID)
    /// The answer to an LE Long Term Key Request: rtstack is central, it has no key to give.
    case longTermKeyNegativeReply
    /// The controller's resolving list and address resolution.
    case privacy
    /// LE Set Random Address of a rotation of the own resolvable private address.
    case ownAddress
    /// LE Clear Filter Accept List and LE Add Device To Filter Accept List before a create
    /// that uses the list.
    case acceptList
}

/// One command waiting to be sent or waiting for its answer.
struct PendingCommand: Sendable {
    var opcode: HCIOpcode
    var packet: HCIPacket
    /// The controller acknowledges it with Command Status and reports the outcome in an event
    /// of its own (LE Create Connection, Disconnect, LE Connection Update).
    var completesWithStatus: Bool
    var purpose: CommandPurpose
    var timeout: UInt64
    /// Set when the command is handed to the controller.
    var deadline: HostTime = 0

    /// The Connection_Handle the command's parameters start with (Disconnect, LE Connection
    /// Update: Core Spec v5.4 Vol 4, Part E, §7.1.6, §7.8.18); nil when too short.
    var connectionHandle: UInt16? {
        // Packet: opcode (2), parameter length (1), parameters.
        let b = packet.bytes
        guard b.count >= 5 else { return nil }
        let i = b.startIndex
        return (UInt16(b[i + 3]) | UInt16(b[i + 4]) << 8) & 0x0FFF
    }
}

/// The controller's answer to one command.
struct CommandAnswer: Sendable {
    var command: PendingCommand
    var status: HCIStatus
    /// Return parameters of Command Complete (Status first); empty for Command Status.
    var returnParameters: ArraySlice<UInt8>
    var isCommandStatus: Bool
}

/// HCI command flow control (Core Spec v5.4 Vol 4, Part E, §4.4): the controller says in every
/// Command Complete and Command Status how many commands it accepts now (Num_HCI_Command_Packets);
/// the host sends no more than that, in order, and matches each answer to the oldest command
/// with its opcode.
struct CommandQueue: Sendable {
    /// Commands the controller accepts now. One at power-on (§4.4: the host may send one
    /// command before the first grant).
    private(set) var credits = 1
    private var waiting: [PendingCommand] = []
    private var waitingHead = 0
    /// Sent, answer not yet seen, oldest first.
    private(set) var inFlight: [PendingCommand] = []

    /// Forgets everything (controller reset): the controller will answer nothing of the past.
    mutating func reset() {
        credits = 1
        waiting.removeAll(keepingCapacity: true)
        waitingHead = 0
        inFlight.removeAll(keepingCapacity: true)
    }

    var waitingCount: Int { waiting.count - waitingHead }

    mutating func enqueue(_ command: PendingCommand) {
        waiting.append(command)
    }

    /// Whether a command with `opcode` for the connection `handle` waits to be sent.
    func waits(_ opcode: HCIOpcode, handle: UInt16) -> Bool {
        waiting[waitingHead...].contains { $0.opcode == opcode && $0.connectionHandle == handle }
    }

    /// The next command to hand to the controller, if a credit allows it; its timeout starts now.
    /// Whether `nextToSend` would return a command (a credit and a command waiting).
    var hasSendable: Bool { credits > 0 && waitingHead < waiting.count }

    mutating func nextToSend(at now: HostTime) -> HCIPacket? {
        guard credits > 0, waitingHead < waiting.count else { return nil }
        var command = waiting[waitingHead]
        waitingHead += 1
        if waitingHead == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            waitingHead = 0
        }
        credits -= 1
        command.deadline = now &+ command.timeout
        inFlight.append(command)
        return command.packet
    }

    /// Num_HCI_Command_Packets of a Command Complete or Command Status (NOP included): the
    /// number of commands the controller takes from now on.
    mutating func grant(_ numHCICommandPackets: UInt8) {
        credits = Int(numHCICommandPackets)
    }

    /// Removes and returns the oldest in-flight command with this opcode.
    mutating func answered(opcode: HCIOpcode) -> PendingCommand? {
        guard let i = inFlight.firstIndex(where: { $0.opcode == opcode }) else { return nil }
        return inFlight.remove(at: i)
    }

    var nextDeadline: HostTime? {
        var d = EarliestDeadline()
        for c in inFlight { d.consider(c.deadline) }
        return d.time
    }

    /// Removes and returns the in-flight commands whose time is up. Their answers are taken as
    /// lost, so the credit each held is given back (else one lost answer would stop the host
    /// for good, since only answers grant credits).
    mutating func expire(at now: HostTime) -> [PendingCommand] {
        guard inFlight.contains(where: { $0.deadline <= now }) else { return [] }
        let expired = inFlight.filter { $0.deadline <= now }
        inFlight.removeAll { $0.deadline <= now }
        credits = max(credits, 1)
        return expired
    }

    /// Drops commands not yet sent whose purpose matches (e.g. a Disconnect for a link that is
    /// already gone, whose handle the controller may give to the next connection).
    @discardableResult
    mutating func removeWaiting(where matches: (CommandPurpose) -> Bool) -> [PendingCommand] {
        guard waitingHead < waiting.count else { return [] }
        var removed: [PendingCommand] = []
        var kept: [PendingCommand] = []
        for c in waiting[waitingHead...] {
            if matches(c.purpose) { removed.append(c) } else { kept.append(c) }
        }
        if removed.isEmpty { return [] }
        waiting = kept
        waitingHead = 0
        return removed
    }

    func isWaiting(where matches: (CommandPurpose) -> Bool) -> Bool {
        waiting[waitingHead...].contains { matches($0.purpose) }
    }

    func isInFlight(where matches: (CommandPurpose) -> Bool) -> Bool {
        inFlight.contains { matches($0.purpose) }
    }
}
