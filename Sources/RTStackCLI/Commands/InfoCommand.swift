import HostCore
import Runtime
import Wire

/// `rtstack info`: what the controller is and can do.
enum InfoCommand {
    static let spec = CommandSpec(
        name: "info",
        usage: "rtstack info --adapter ADAPTER [ADAPTER OPTIONS]",
        summary: "Bring the controller up and show its version, address, features and buffers.",
        options: AdapterOptions.specs)

    static func run(_ words: [String], _ console: Console) async throws(UsageError) -> ExitCode {
        let args = try ParsedArguments(words, spec: spec)
        if args.helpRequested { console.out.write(spec.helpText); return .success }
        return await runCentralCommand(args, console) { cmd in
            let i = cmd.central.info
            let out = console.out
            out.line("adapter:        \(cmd.options.adapter)")
            out.line("HCI version:    \(ReadLocalVersionInformation.coreVersionName(i.hciVersion) ?? "unknown") (0x\(String(i.hciVersion, radix: 16))), revision \(Hex.number(i.hciSubversion, width: 4))")
            out.line("LMP version:    \(ReadLocalVersionInformation.coreVersionName(i.lmpVersion) ?? "unknown"), subversion \(Hex.number(i.lmpSubversion, width: 4))")
            out.line("manufacturer:   \(CompanyIdentifier(rawValue: i.manufacturer).description)")
            out.line("public address: \(i.publicAddress)")
            out.line("own address:    \(i.ownAddress) (\(i.ownAddress.kindName))")
            out.line("LE features:    \(Hex.number(i.leFeatures, width: 16))\(i.supportsExtendedAdvertising ? " (extended advertising)" : "")")
            out.line("LE states:      \(Hex.number(i.leStates, width: 16))")
            out.line("ACL buffers:    \(i.aclPacketCount) x \(i.aclDataLength) bytes")
            out.line("accept list:    \(i.filterAcceptListSize) entries")
            return .success
        }
    }
}
