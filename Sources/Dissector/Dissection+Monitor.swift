import Wire
import Capture

/// Linux monitor frames without an HCI packet: what they say, and what they change — a
/// deleted adapter's connections are forgotten, a control socket's cookie is named.
extension Dissection {
    mutating func dissect(monitor frame: MonitorFrame) -> DissectedNote {
        index += 1
        var n = DissectedNote(index: index, timestampMicros: frame.timestampMicros,
                              relativeTime: relativeTime(frame.timestampMicros), adapterIndex: frame.adapterIndex,
                              opcode: frame.opcode, payload: frame.payload)
        statistics.monitorNotes += 1
        let message: MonitorMessage
        do {
            message = try MonitorMessage(frame)
        } catch {
            n.errors.append("\(frame.opcode.name): \(error)")
            if !frame.payload.isEmpty { n.fields.add("Data", Hex.spaced(frame.payload)) }
            statistics.count(n)
            return n
        }
        describe(message, frame, &n)
        statistics.count(n)
        return n
    }

    private mutating func describe(_ message: MonitorMessage, _ frame: MonitorFrame, _ n: inout DissectedNote) {
        switch message {
        case let .newIndex(type, bus, address, name):
            adapterNames[frame.adapterIndex] = name
            n.summary = "\(MonitorMessage.controllerTypeName(type)), \(MonitorMessage.busName(bus)), \(address.string), \(name)"
            n.fields.add("Type", MonitorMessage.controllerTypeName(type))
            n.fields.add("Bus", MonitorMessage.busName(bus))
            n.fields.add("Address", address.string)
            n.fields.add("Name", name)
        case .deleteIndex:
            // Its connections are gone with it; a later adapter may reuse the index.
            adapterNames[frame.adapterIndex] = nil
            if frame.adapterIndex == tablesAdapter {
                tables = AdapterTables()
            } else {
                otherTables[frame.adapterIndex] = nil
            }
        case .openIndex, .closeIndex:
            break
        case let .indexInfo(address, manufacturer):
            n.summary = "\(address.string), manufacturer \(CompanyIdentifier(manufacturer))"
            n.fields.add("Address", address.string)
            n.fields.add("Manufacturer", CompanyIdentifier(manufacturer).description)
        case let .vendorDiagnostic(data):
            n.summary = ByteCountText.phrase(data.count, "byte")
            if !data.isEmpty { n.fields.add("Data", Hex.spaced(data)) }
        case let .systemNote(text):
            n.summary = text
        case let .userLogging(priority, identifier, message):
            n.summary = (identifier.isEmpty ? "" : identifier + ": ") + message
            n.fields.add("Priority", MonitorMessage.priorityName(priority))
            if !identifier.isEmpty { n.fields.add("Identifier", identifier) }
        case let .controlOpen(open):
            n.mark = "@"
            controlSockets[open.cookie] = open
            if controlSockets.count > 4096 { controlSockets.removeAll() }
            n.name = open.format.name + " Open"
            var s = open.command ?? "unknown"
            if let v = open.version, let r = open.revision { s += ", version \(v).\(r)" }
            if open.isPrivileged { s += ", privileged" }
            n.summary = s
            n.fields.add("Cookie", Hex.number(open.cookie, width: 8))
            n.fields.add("Format", open.format.name)
            if let c = open.command { n.fields.add("Command", c) }
        case let .controlClose(cookie):
            n.mark = "@"
            let open = controlSockets.removeValue(forKey: cookie)
            n.name = (open?.format.name ?? "Control") + " Close"
            n.summary = open?.command ?? Hex.number(cookie, width: 8)
            n.fields.add("Cookie", Hex.number(cookie, width: 8))
        case let .controlCommand(cookie, data):
            n.mark = "@"
            describeControl(cookie: cookie, data: data, command: true, &n)
        case let .controlEvent(cookie, data):
            n.mark = "@"
            describeControl(cookie: cookie, data: data, command: false, &n)
        case let .other(data):
            n.summary = ByteCountText.phrase(data.count, "byte")
            if !data.isEmpty { n.fields.add("Data", Hex.spaced(data)) }
        }
    }

    /// A management command or event on a control socket (MGMT format): its code and name, and
    /// for Command Complete / Status which command it answers and how.
    private func describeControl(cookie: UInt32, data: ArraySlice<UInt8>, command: Bool, _ n: inout DissectedNote) {
        let open = controlSockets[cookie]
        let who = open?.command ?? Hex.number(cookie, width: 8)
        n.fields.add("Cookie", Hex.number(cookie, width: 8) + (open?.command.map { " (\($0))" } ?? ""))
        guard case .management? = open?.format ?? .management, data.count >= 2 else {
            n.name = command ? "Control Command" : "Control Event"
            n.summary = "\(who), " + ByteCountText.phrase(data.count, "byte")
            if !data.isEmpty { n.fields.add("Data", Hex.spaced(data)) }
            return
        }
        let b = data.startIndex
        let code = UInt16(data[b]) | UInt16(data[b + 1]) << 8
        let parameters = data.dropFirst(2)
        if command {
            let opcode = ManagementOpcode(rawValue: code)
            n.name = "MGMT Command"
            n.summary = "\(opcode.name) (\(Hex.number(code, width: 4))) from \(who)"
            n.fields.add("Opcode", "\(opcode.name) (\(Hex.number(code, width: 4)))")
        } else {
            let event = ManagementEventCode(rawValue: code)
            n.name = "MGMT Event"
            n.summary = "\(event.name) (\(Hex.number(code, width: 4))) to \(who)"
            n.fields.add("Event", "\(event.name) (\(Hex.number(code, width: 4)))")
            // Command Complete / Status: Command_Opcode, Status.
            if code == 0x0001 || code == 0x0002, parameters.count >= 3 {
                let p = parameters.startIndex
                let answered = ManagementOpcode(rawValue: UInt16(parameters[p]) | UInt16(parameters[p + 1]) << 8)
                let status = ManagementStatus(rawValue: parameters[p + 2])
                n.summary += ": \(answered.name), \(status.name)"
                n.fields.add("Command", answered.name)
                n.fields.add("Status", status.name)
            }
        }
        if !parameters.isEmpty { n.fields.add("Parameters", Hex.spaced(parameters)) }
    }
}
