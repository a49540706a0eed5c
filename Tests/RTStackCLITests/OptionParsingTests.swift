import Testing
import Gateway
import HostCore
@testable import RTStackCLI
import Runtime

/// Options are read by `OptionKey`, and options with a fixed set of words are parsed by one
/// function: each accepts its words (and aliases) and refuses anything else naming the option
/// and every word it takes.
@Suite struct OptionParsingTests {
    static let spec = CommandSpec(name: "probe", usage: "probe", summary: "", options: AdapterOptions.specs + [
        .init(.only, value: "WHICH", ""), .init(.json, ""),
    ])

    @Test func choicesAcceptTheirWordsAndAliases() throws {
        let a = try ParsedArguments(["--backend", "kernel", "--log-level", "warning", "--address=public", "--only", "descriptors"],
                                    spec: Self.spec)
        #expect(try a.choice(.backend, as: AdapterBackend.self) == .kernel)
        #expect(try a.choice(.logLevel, as: AdapterOptions.LogLevel.self) == .warn)
        #expect(try a.choice(.address, as: AdapterOptions.OwnAddress.self) == .public)
        #expect(try a.choice(.only, as: GattSelection.Only.self) == .descriptors)
        #expect(try a.choice(.security, as: AdapterOptions.LogLevel.self) == nil, "an option not given reads as nil")
        #expect(!a.flag(.json))
    }

    @Test(arguments: [
        (["--backend", "bluez"], "--backend wants 'user-channel' or 'kernel', got 'bluez'"),
        (["--log-level", "loud"], "--log-level wants error, warn, info or debug, got 'loud'"),
        (["--address", "static"], "--address wants random, public or rpa, got 'static'"),
        (["--only", "all"], "--only wants included, characteristics or descriptors, got 'all'"),
    ])
    func aWrongWordNamesTheOptionAndItsWords(words: [String], message: String) throws {
        let a = try ParsedArguments(words, spec: Self.spec)
        let error: UsageError? = { () -> UsageError? in
            do throws(UsageError) {
                _ = try a.choice(.backend, as: AdapterBackend.self)
                _ = try a.choice(.logLevel, as: AdapterOptions.LogLevel.self)
                _ = try a.choice(.address, as: AdapterOptions.OwnAddress.self)
                _ = try a.choice(.only, as: GattSelection.Only.self)
                return nil
            } catch { return error }
        }()
        #expect(error?.message == message)
    }

    /// Every command declares each option once, and every name it declares is an `OptionKey`
    /// (so the command can read it) or one of the gateway's settings.
    @Test func everyDeclaredOptionHasAKey() {
        for c in RTStackCLI.commands {
            let names = c.spec.options.map(\.name)
            #expect(Set(names).count == names.count, "\(c.spec.name) declares an option twice: \(names)")
            for n in names {
                #expect(OptionKey(rawValue: n) != nil || GatewaySettings.setting(option: n) != nil,
                        "\(c.spec.name): --\(n) has no OptionKey and is no gateway setting")
            }
        }
    }
}
