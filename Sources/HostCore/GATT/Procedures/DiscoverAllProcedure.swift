import Wire

/// The whole database: primary services, then per service its characteristics, its included
/// services (and the secondary services those reach) and each characteristic's descriptors,
/// then the Database Hash when the peer has one. Runs its sub-procedures one after the other, so the
/// bearer still carries one request at a time.
final class DiscoverAllProcedure: GATTProcedure {
    private enum Phase {
        case services(DiscoverPrimaryServicesProcedure)
        case included(service: Int, FindIncludedServicesProcedure)
        case characteristics(service: Int, DiscoverCharacteristicsProcedure)
        case descriptors(service: Int, characteristic: Int, DiscoverDescriptorsProcedure)
        case hash(ReadDatabaseHashProcedure)
        case finished
    }

    private var phase: Phase = .finished
    private var services: [GATTService] = []
    private var hash: [UInt8]?
    private(set) var database = GATTDatabase()

    func start(mtu: UInt16) -> GATTStep {
        let first = DiscoverPrimaryServicesProcedure(uuid: nil)
        phase = .services(first)
        return settle(first.start(mtu: mtu), mtu: mtu)
    }

    func receive(_ response: ATTPDU, mtu: UInt16) -> GATTStep {
        let step: GATTStep
        switch phase {
        case let .services(p): step = p.receive(response, mtu: mtu)
        case let .included(_, p): step = p.receive(response, mtu: mtu)
        case let .characteristics(_, p): step = p.receive(response, mtu: mtu)
        case let .descriptors(_, _, p): step = p.receive(response, mtu: mtu)
        case let .hash(p): step = p.receive(response, mtu: mtu)
        case .finished: return .unexpected(response, in: "database discovery")
        }
        return settle(step, mtu: mtu)
    }

    /// Passes a request on; when the current sub-procedure is done, collects what it found and
    /// starts the next one (several may end at once without asking anything).
    private func settle(_ first: GATTStep, mtu: UInt16) -> GATTStep {
        var step = first
        while true {
            switch step {
            case .request, .command, .failed:
                return step
            case .done:
                guard let next = collectAndAdvance() else {
                    phase = .finished
                    database = GATTDatabase(services: services.sorted { $0.startHandle < $1.startHandle },
                                            databaseHash: hash)
                    return .done
                }
                step = next.start(mtu: mtu)
            }
        }
    }

    /// Takes the finished phase's findings and moves to the next phase; nil when all is done.
    private func collectAndAdvance() -> GATTProcedure? {
        switch phase {
        case let .services(p):
            services = p.services
            return characteristicPhase(from: 0)
        case let .included(i, p):
            services[i].includedServices = p.included
            // A secondary service is only reachable through an include (§2.6.1): add each
            // one once, and it gets its own include and characteristic discovery. Services
            // never overlap (§3.1), so one that would is refused: that also keeps a hostile
            // peer from making discovery revisit the same handles.
            for inc in p.included {
                let overlaps = services.contains { $0.startHandle <= inc.endHandle && inc.startHandle <= $0.endHandle }
                if !overlaps, let uuid = inc.uuid {
                    services.append(GATTService(uuid: uuid, startHandle: inc.startHandle, endHandle: inc.endHandle,
                                                isPrimary: false))
                }
            }
            return descriptorPhase(service: i, from: 0)
        case let .characteristics(i, p):
            services[i].characteristics = p.characteristics
            return includedPhase(service: i)
        case let .descriptors(i, c, p):
            services[i].characteristics[c].descriptors = p.descriptors
            return descriptorPhase(service: i, from: c + 1)
        case let .hash(p):
            hash = p.hash
            phase = .finished
            return nil
        case .finished:
            return nil
        }
    }

    /// Per service: characteristics, then includes (in the gap before the first
    /// characteristic), then descriptors; secondary services found through includes are
    /// appended and get the same treatment when their turn comes.
    private func includedPhase(service i: Int) -> GATTProcedure? {
        let p = FindIncludedServicesProcedure(service: services[i],
                                              firstCharacteristic: services[i].characteristics.first?.declarationHandle)
        if p.isEmpty { return descriptorPhase(service: i, from: 0) }
        phase = .included(service: i, p)
        return p
    }

    private func characteristicPhase(from i: Int) -> GATTProcedure? {
        guard i < services.count else { return hashPhase() }
        let p = DiscoverCharacteristicsProcedure(service: services[i])
        phase = .characteristics(service: i, p)
        return p
    }

    private func descriptorPhase(service i: Int, from c: Int) -> GATTProcedure? {
        var c = c
        let chars = services[i].characteristics
        while c < chars.count {
            let p = DiscoverDescriptorsProcedure(characteristic: chars[c])
            if !p.isEmpty {
                phase = .descriptors(service: i, characteristic: c, p)
                return p
            }
            c += 1
        }
        return characteristicPhase(from: i + 1)
    }

    private func hashPhase() -> GATTProcedure? {
        let hasHash = services.contains { s in s.characteristics.contains { $0.uuid == .databaseHash } }
        guard hasHash else { return nil }
        let p = ReadDatabaseHashProcedure()
        phase = .hash(p)
        return p
    }

    var result: GATTResult { .database(database) }
}
