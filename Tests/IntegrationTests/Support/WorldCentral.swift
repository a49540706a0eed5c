import Foundation
import HostCore
import Runtime

extension WorldIntegration {
    /// Opens a `Central` on the world's controller with `configuration` (and the bond store of
    /// `bonds`, the pairing `agent`), runs `body`, and always closes it.
    static func withCentral(_ world: WorldProcess, configuration: HostConfiguration, bonds: StateDirectory? = nil,
                            agent: (any PairingAgent)? = nil, sinks: [any PacketSinkFactory] = [],
                            _ body: (Central) async throws -> Void) async throws {
        let port = world.hciPort
        let central = try await withTimeout(15, "Central.open") {
            try await Central.open(.tcp(host: "127.0.0.1", port: port), configuration: configuration, agent: agent,
                                   bondStore: bonds.map { FileBondStore(directory: $0) }, sinks: sinks)
        }
        do {
            try await body(central)
        } catch {
            await central.close()
            throw error
        }
        await central.close()
    }
}
