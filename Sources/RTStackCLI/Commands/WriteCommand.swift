import HostCore
import Runtime
import SecurityCrypto
import Wire

/// `rtstack write ADDRESS UUID|HANDLE HEX [UUID|HANDLE HEX…]`: one value (Write Request, a
/// long write when it does not fit, Write Command with `--no-response`, Signed Write Command
/// with `--signed`), or several written together with `--reliable` (Reliable Writes).
enum WriteCommand {
    static let spec = CommandSpec(
        name: "write",
        usage: "rtstack write ADDRESS UUID|HANDLE HEX [UUID|HANDLE HEX ...] --adapter ADAPTER [--no-response | --reliable | --signed] [ADAPTER OPTIONS]",
        summary: "Write a characteristic (Write Request, long write when needed, Write Command, Signed Write), or several at once (--reliable).",
        options: AdapterOptions.specs + [
            .init(.noResponse, "Write Without Response (ATT Write Command)"),
            .init(.reliable, "Reliable Writes: every value queued with Prepare Write, each echo checked, then all written by one Execute Write, or none"),
            .init(.signed, "Signed Write Without Response with the CSRK rtstack gave the peer when pairing (bond in --state-dir); unencrypted links only"),
        ],
        positionals: 3...64,
        details: """
            --reliable takes one or more UUID|HANDLE HEX pairs; the server writes all of them or,
            if one part is refused or echoed wrongly, none (the queue is cancelled).
            --signed needs a bond with the peer in which rtstack distributed its signing key
            (CSRK); its SignCounter is kept in the bond and advanced before each signed write.
            An encrypted link refuses it: write with --no-response there.
            """)

    static func run(_ words: [String], _ console: Console) async throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested { console.out.write(spec.helpText); return .success }
        let modes = [OptionKey.noResponse, .reliable, .signed].filter { args.flag($0) }
        if modes.count > 1 {
            throw UsageError(modes.map { "--" + $0.rawValue }.joined(separator: " and ") + " are different procedures: give one")
        }
        let pairs = Array(args.positionals.dropFirst())
        guard pairs.count % 2 == 0 else {
            throw UsageError("'\(pairs.last ?? "")' has no value: give UUID|HANDLE HEX pairs")
        }
        if pairs.count > 2, !args.flag(.reliable) {
            throw UsageError("several UUID|HANDLE HEX pairs are written together with --reliable only")
        }
        var targets: [TargetSpec] = []
        var values: [[UInt8]] = []
        for i in stride(from: 0, to: pairs.count, by: 2) {
            targets.append(try TargetSpec(pairs[i]))
            guard let value = Hex.parse(pairs[i + 1]) else {
                throw UsageError("'\(pairs[i + 1])' is not hex bytes (e.g. 0100 or 01:00)")
            }
            guard value.count <= maximumValueLength else {
                throw UsageError("the value for \(pairs[i]) is \(value.count) octets; an attribute value holds at most "
                    + "\(maximumValueLength) (Core Spec v5.4 Vol 3, Part F, §3.2.9): write at most \(maximumValueLength)")
            }
            values.append(value)
        }
        let addressText = args.positionals[0]
        try CentralCommand.check(address: addressText)
        return await runCentralCommand(args, console) { cmd in
            let p = try await cmd.connect(try await cmd.resolve(addressText))
            let handles = try await TargetSpec.valueHandles(targets, on: p).map(\.0)
            if args.flag(.reliable) {
                try await p.reliableWrite(handles.indices.map { (handles[$0], values[$0]) })
                console.out.line("wrote \(values.map(\.count).reduce(0, +)) byte(s) to \(handles.map { Hex.number($0, width: 4) }.joined(separator: ", ")) together")
            } else if args.flag(.signed) {
                let outcome: SignedWriteOutcome
                do {
                    outcome = try await p.signedWrite(handle: handles[0], value: values[0],
                                                      bonds: FileBondStore(directory: cmd.options.state), crypto: NettleCryptography())
                } catch {
                    throw unfitting(error, option: .signed)
                }
                let target = Hex.number(handles[0], width: 4)
                if outcome == .unsignedOnEncryptedLink {
                    console.notice("the link is encrypted, so the write goes as Write Without Response instead of a signed write (Core Spec v5.4 Vol 3, Part G, §4.9.2)")
                    console.out.line("wrote \(values[0].count) byte(s) to \(target) without response")
                } else {
                    console.out.line("sent a signed write of \(values[0].count) byte(s) to \(target)")
                }
            } else {
                do {
                    try await p.write(handle: handles[0], value: values[0], withResponse: !args.flag(.noResponse))
                } catch {
                    throw args.flag(.noResponse) ? unfitting(error, option: .noResponse) : error
                }
                console.out.line("wrote \(values[0].count) byte(s) to \(Hex.number(handles[0], width: 4))")
            }
            await p.disconnect()
            return .success
        }
    }

    /// Core Spec v5.4 Vol 3, Part F, §3.2.9: the longest attribute value.
    static let maximumValueLength = 512

    /// A command carries one PDU: the host refuses a longer value before sending it
    /// (`invalidState`); the remedy is the option that made it a command. A signed write also
    /// fails on this side for want of a bond with rtstack's signing key (CSRK).
    static func unfitting(_ error: any Error, option: OptionKey) -> any Error {
        switch error {
        case CentralError.host(.invalidState(let why)) where why.containsText("does not fit"):
            return CommandFailure(cause: why, remedy: "write fewer octets, or leave out --\(option.rawValue): a Write Request "
                + "writes up to \(maximumValueLength) octets, in parts when they do not fit one")
        case CentralError.host(.notFound(let why)) where option == .signed, CentralError.host(.invalidState(let why)) where option == .signed:
            return CommandFailure(cause: why, remedy: "pair with the peer (rtstack pair ADDRESS, with the same --state-dir): "
                + "the bond then holds the signing key rtstack gave it; or write without --signed")
        default:
            return error
        }
    }
}
